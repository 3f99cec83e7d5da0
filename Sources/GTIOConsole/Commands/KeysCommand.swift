import ArgumentParser
import Foundation
import GTIOCatalog
import GTIOServer
import GTIOStore
import GTIOTables

/// `gtio keys`: the signing key that writers sign each batch's head with, and the access keys
/// `gtio serve` asks of HTTP clients.
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Make and show the batch signing key; add, list and revoke the HTTP access keys.",
        discussion: """
            The private signing key stays outside the store, in $GTIO_SIGNING_KEY or \
            ~/.config/gtio/signing.key; every command that appends (ingest, resolve, quarantine \
            retry, demo, serve) signs with it when it exists. Give the public key to whoever audits \
            the log: gtio verify --key PUBLIC-KEY.
            Access keys (add, list, revoke) are kept in the store as SHA-256 digests; a key is \
            shown once, when it is made.
            """,
        subcommands: [New.self, Show.self, Add.self, List.self, Revoke.self],
        defaultSubcommand: Show.self)

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Make an HTTP access key and print it (the only time it is shown).",
            discussion: "write posts events, read reads the read API, moderate reads and decides flags.")

        @Argument(help: "A name for the key (who or what holds it).") var name: String
        @Option(help: "write, read or moderate.") var role: String
        @OptionGroup var storeOptions: StoreOptions

        func validate() throws {
            guard AccessRole(rawValue: role) != nil else {
                throw ValidationError("--role must be write, read or moderate, got \(role)")
            }
        }

        func run() throws {
            let store = try storeOptions.openExisting()
            do {
                let secret = try AccessKeys.add(name, role: AccessRole(rawValue: role)!, in: store)
                Terminal.writeError("gtio: made \(role) key \"\(name)\"; it is not shown again: send it as Authorization: Bearer <key>\n")
                Terminal.line(secret)
            } catch let failure as AccessKeys.Failure {
                throw ConsoleError.badArgument(failure.description)
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the HTTP access keys (never the keys themselves).")

        @OptionGroup var output: OutputOptions

        func run() throws {
            let keys = try AccessKeys.all(in: output.storeOptions.openForReading())
            try output.emit(ResultTable(
                columns: ["name", "role", "prefix", "created", "revoked"],
                rows: keys.map {
                    [.text($0.name), .text($0.role.rawValue), .text($0.prefix), .timestamp(Timestamp(milliseconds: $0.created)),
                     Cell($0.revoked.map { Timestamp(milliseconds: $0) })]
                }))
        }
    }

    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke",
            abstract: "Revoke an HTTP access key: a running server refuses it within a second.")

        @Argument(help: "The key's name.") var name: String
        @OptionGroup var storeOptions: StoreOptions

        func run() throws {
            do {
                try AccessKeys.revoke(name, in: storeOptions.openExisting())
                Terminal.writeError("gtio: revoked key \"\(name)\"\n")
            } catch let failure as AccessKeys.Failure {
                throw ConsoleError.notFound(failure.description)
            }
        }
    }

    struct New: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "new", abstract: "Make a new signing key and print its public half.")

        @Option(help: ArgumentHelp("Where to write the private key (never overwritten).", valueName: "path"))
        var out: String?

        func run() throws {
            let path = out ?? SigningKeyLocation.path
            let signer = BatchSigner()
            try signer.write(to: path)
            Terminal.writeError("gtio: wrote the private signing key to \(path) (readable by you only; keep it out of the store's folder)\n")
            Terminal.line(signer.publicKey.description)
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Print the public half of the signing key.")

        @Option(help: ArgumentHelp("The private key file.", valueName: "path"))
        var key: String?

        func run() throws {
            let path = key ?? SigningKeyLocation.path
            guard FileManager.default.fileExists(atPath: path) else {
                throw ConsoleError.notFound("no signing key at \(path) (gtio keys new makes one)")
            }
            Terminal.line(try BatchSigner(contentsOf: path).publicKey.description)
        }
    }
}
