import ArgumentParser
import Foundation
import GTIOStore
import GTIOStorePostgres
import GTIOStoreSQLite

/// `--store PATH|URL`, shared by every command that reads or writes the log: an SQLite file
/// (the default), or a `postgresql://` URL for a store that many hosts share.
struct StoreOptions: ParsableArguments {
    /// The store used when neither `--store` nor `GTIO_STORE` names one.
    static let defaultPath = "events.gtio"

    @Option(name: .long, help: ArgumentHelp(
        "The event store: an SQLite file, or a postgresql:// URL (commands that write create it, others need it to exist).",
        discussion: "Defaults to $GTIO_STORE, or \(defaultPath) in the current folder.",
        valueName: "path|url"))
    var store: String?

    var path: String {
        store ?? ProcessInfo.processInfo.environment["GTIO_STORE"].flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaultPath
    }

    /// Opens the store to write it, creating it when missing; batches are signed when a
    /// signing key is configured (see `SigningKeyLocation`).
    func open() throws -> any EventStore {
        try open(readOnly: false, signer: SigningKeyLocation.signer())
    }

    /// Opens an existing store to write it, for commands that change a log but have nothing to
    /// add to an empty one (`resolve`, `rebuild`, `quarantine retry`): a mistyped path is an
    /// error naming it, not a new store.
    func openExisting() throws -> any EventStore {
        try open(readOnly: false, create: false, signer: SigningKeyLocation.signer())
    }

    /// Opens the store to read it, never writing to it; an older store is opened writable
    /// so that it is upgraded first.
    func openForReading() throws -> any EventStore {
        do {
            return try open(readOnly: true, signer: nil)
        } catch StoreError.needsUpgrade {
            return try open()
        }
    }

    private func open(readOnly: Bool, create: Bool = true, signer: BatchSigner?) throws -> any EventStore {
        try Self.open(path, readOnly: readOnly, create: create, signer: signer)
    }

    /// The subcommands that never connect to the store `--store` or `GTIO_STORE` names.
    static let storelessCommands: Set<String> = ["catalog", "demo", "copy", "pg", "help"]

    /// The PostgreSQL store the command line `words` will open, as far as can be told before
    /// parsing them: its `--store` or else `GTIO_STORE`, when a URL; nil for a file store, for a
    /// subcommand that opens no store, and for a request for help or the version.
    static func earlyStoreURL(in words: [String], environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let first = words.first, storelessCommands.contains(first) { return nil }
        var store: String?
        var index = words.startIndex
        while index < words.endIndex {
            let word = words[index]
            if word == "--" { break }
            if ["-h", "--help", "--version", "--generate-completion-script", "--experimental-dump-help"].contains(word) { return nil }
            if word == "--store", index + 1 < words.endIndex {
                store = words[index + 1]
                index += 1
            } else if word.hasPrefix("--store=") {
                store = String(word.dropFirst("--store=".count))
            }
            index += 1
        }
        let path = store ?? environment["GTIO_STORE"] ?? ""
        return PostgresLocation.isURL(path) ? path : nil
    }

    /// Begins connecting to the PostgreSQL store `words` will open (`earlyStoreURL`) while
    /// they are parsed: a one-shot answer's connection is then made on the second core, while
    /// the first reads the command line (docs/PERFORMANCE.md).
    static func beginConnecting(for words: [String]) {
        guard let url = earlyStoreURL(in: words) else { return }
        PostgresStore.beginConnecting(url: url)
    }

    /// Ends the connection `beginConnecting` began if the command did not take it (one refused
    /// before it opened its store): the server then sees it end rather than lose it.
    static func endConnectionBegun() {
        PostgresStore.endConnectionBegun()
    }

    /// Opens the store at `path`, a file or a `postgresql://` URL. A read-only open never
    /// creates a store; a writable one does unless `create` is false.
    static func open(_ path: String, readOnly: Bool, create: Bool = true, signer: BatchSigner? = nil) throws -> any EventStore {
        if PostgresLocation.isURL(path) {
            // As-of views fold into tables in this process's memory, SQLite's as with a file store.
            return try PostgresStore(
                url: path, readOnly: readOnly, create: create, signer: signer, scratchTables: { try SQLiteStore.memoryTables() })
        }
        if !create && !FileManager.default.fileExists(atPath: path) {
            throw StoreError.missing(path: URL(fileURLWithPath: path).standardizedFileURL.path)
        }
        return try SQLiteStore(path: path, readOnly: readOnly, signer: signer) { migrations in
            Terminal.writeError("store: upgrading \(path) for this gtio, once (\(migrations.joined(separator: "; ")))\n")
        }
    }
}
