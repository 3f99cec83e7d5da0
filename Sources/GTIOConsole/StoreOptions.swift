import ArgumentParser
import Foundation
import GTIOStore
import GTIOStoreSQLite

/// `--store PATH`, shared by every command that reads or writes the log.
struct StoreOptions: ParsableArguments {
    /// The store used when neither `--store` nor `GTIO_STORE` names one.
    static let defaultPath = "events.gtio"

    @Option(name: .long, help: ArgumentHelp(
        "The event store (an SQLite file; commands that write create it, others need it to exist).",
        discussion: "Defaults to $GTIO_STORE, or \(defaultPath) in the current folder.",
        valueName: "path"))
    var store: String?

    var path: String {
        store ?? ProcessInfo.processInfo.environment["GTIO_STORE"].flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaultPath
    }

    /// Opens the store to write it, creating it when missing; batches are signed when a
    /// signing key is configured (see `SigningKeyLocation`).
    func open() throws -> any EventStore {
        try SQLiteStore(path: path, signer: SigningKeyLocation.signer())
    }

    /// Opens an existing store to write it, for commands that change a log but have nothing to
    /// add to an empty one (`resolve`, `rebuild`, `quarantine retry`): a mistyped path is an
    /// error naming it, not a new store.
    func openExisting() throws -> any EventStore {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        guard FileManager.default.fileExists(atPath: absolute) else { throw StoreError.missing(path: absolute) }
        return try open()
    }

    /// Opens the store to read it, never writing to it; an older store is opened writable
    /// so that it is upgraded first.
    func openForReading() throws -> any EventStore {
        do {
            return try SQLiteStore(path: path, readOnly: true)
        } catch .needsUpgrade {
            return try open()
        }
    }
}
