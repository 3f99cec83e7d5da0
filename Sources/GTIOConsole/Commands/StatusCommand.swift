import ArgumentParser
import GTIOStore

/// `gtio status`: the log at a glance.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show the log's size, extent, quarantine and read model checkpoints.")

    enum StatusFormat: String, ExpressibleByArgument, CaseIterable { case text, json }

    @OptionGroup var storeOptions: StoreOptions

    @Option(help: "text, or json for one JSON object.")
    var format: StatusFormat = .text

    func run() throws {
        let status = try storeOptions.open().status()
        switch format {
        case .json:
            print(JSONRenderer.object([
                ("store", .text(status.path)), ("events", .integer(status.events)),
                ("last_seq", .integer(status.lastSeq)), ("first_at", Cell(status.firstAt)),
                ("last_at", Cell(status.lastAt)), ("batches", .integer(status.batches)),
                ("quarantined", .integer(status.quarantined)), ("size_bytes", .integer(status.sizeBytes)),
            ]))
        case .text:
            var lines = [
                "store        \(status.path)",
                "events       \(status.events)",
                "last seq     \(status.lastSeq)",
                "time span    " + (status.firstAt.map { "\($0) – \(status.lastAt!)" } ?? "(empty log)"),
                "batches      \(status.batches)",
                "size         " + String(format: "%.1f MB", Double(status.sizeBytes) / 1e6),
                "quarantined  \(status.quarantined)" + (status.quarantined > 0 ? " (see gtio quarantine)" : ""),
            ]
            for checkpoint in status.checkpoints {
                lines.append("read model   \(checkpoint.name) at seq \(checkpoint.seq), lag \(status.lastSeq - checkpoint.seq)")
            }
            print(lines.joined(separator: "\n"))
        }
    }
}
