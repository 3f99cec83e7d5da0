import ArgumentParser
import Foundation
import GTIOStore

/// `gtio anchor`: the newest signed head as one line, for a witness outside the store.
struct AnchorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "anchor",
        abstract: "Print the newest signed batch head as one line for a witness outside the store.",
        discussion: """
            Mail it, file it in a ticket, or append it to a file with --out; gtio verify --anchor \
            FILE later proves the log still reaches every such head, so a cut tail is found even \
            by someone who deleted its signatures too.
            """)

    @OptionGroup var storeOptions: StoreOptions

    @Option(help: ArgumentHelp("Append the line to this file instead of printing it.", valueName: "file"))
    var out: String?

    func run() throws {
        let store = try storeOptions.openForReading()
        guard let signature = try store.lastSignature() else {
            throw ConsoleError.notFound("no batch of \(store.location) is signed yet (gtio keys new, then ingest)")
        }
        let line = HeadAnchor.line(signature)
        guard let out else { return Terminal.line(line) }
        guard FileManager.default.fileExists(atPath: out) || FileManager.default.createFile(atPath: out, contents: nil),
              let handle = FileHandle(forWritingAtPath: out) else {
            throw ConsoleError.badArgument("--out \(out): the file cannot be written")
        }
        defer { try? handle.close() }
        _ = try? handle.seekToEnd()
        try handle.write(contentsOf: Data((line + "\n").utf8))
        Terminal.writeError("gtio: anchored batch \(signature.batch) (seq \(signature.lastSeq)) in \(out)\n")
    }
}
