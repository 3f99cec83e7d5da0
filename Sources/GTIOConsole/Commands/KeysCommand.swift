import ArgumentParser
import Foundation
import GTIOStore

/// `gtio keys`: the signing key that writers sign each batch's head with.
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Make and show the key that signs each appended batch.",
        discussion: """
            The private key stays outside the store, in $GTIO_SIGNING_KEY or \
            ~/.config/gtio/signing.key; every command that appends (ingest, resolve, quarantine \
            retry, demo) signs with it when it exists. Give the public key to whoever audits the \
            log: gtio verify --key PUBLIC-KEY.
            """,
        subcommands: [New.self, Show.self],
        defaultSubcommand: Show.self)

    struct New: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make a new signing key and print its public half.")

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
        static let configuration = CommandConfiguration(abstract: "Print the public half of the signing key.")

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
