import ArgumentParser
import GTIOCatalog
import GTIOProjections
import GTIOStore
import GTIOTables

/// `gtio status`: the log at a glance.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show the log's size, extent, quarantine and read model checkpoints.")

    enum StatusFormat: String, ExpressibleByArgument, CaseIterable { case text, json }

    @OptionGroup var storeOptions: StoreOptions

    @Option(help: "text, or json for one JSON object.")
    var format: StatusFormat = .text

    /// Every read model with its checkpoint: 0 for one never built.
    private func readModelCheckpoints(_ status: StoreStatus) -> [(String, Int64)] {
        let known = Dictionary(status.checkpoints.map { ($0.name, $0.seq) }, uniquingKeysWith: max)
        guard !known.isEmpty else { return [] }
        return ReadModelName.allCases.map { ($0.rawValue, known[$0.checkpointName] ?? 0) }
    }

    func run() throws {
        let store = try storeOptions.openForReading()
        let status = try store.status()
        // Where a writer starts its fold: the saved state, or seq 1 when there is none.
        let savedStates = try store.readTables { try FoldSnapshot.saved($0) }
        let savedState = savedStates.last?.seq
        // What a writer without a projector beside it reads back before its first event.
        let savedBytes = savedStates.last?.length
        // The state kept from before the latest's day, where as-of views that end earlier start.
        let earlierState = savedStates.count > 1 ? savedStates.first : nil
        // Tables of another definition are rebuilt by the next command that needs them, whatever
        // their checkpoints say: they are not up to date.
        let definition = try store.readTables { try ReadModelSchema.storedVersion($0) }
        let otherDefinition = definition.flatMap { $0 == ReadModelSchema.version ? nil : $0 }
        // Who keeps the read models current: a projector (or a server) that leads, else each writer.
        let projectorLeads = try store.isLed(ReadModelFollower.role)
        switch format {
        case .json:
            let members: [(String, Cell)] = [
                ("store", .text(status.path)), ("events", .integer(status.events)),
                ("last_seq", .integer(status.lastSeq)), ("first_at", Cell(status.firstAt)),
                ("last_at", Cell(status.lastAt)), ("batches", .integer(status.batches)),
                ("quarantined", .integer(status.quarantined)), ("size_bytes", .integer(status.sizeBytes)),
                ("fold_state_seq", Cell(savedState)), ("earlier_fold_state_seq", Cell(earlierState?.seq)),
                ("fold_state_bytes", Cell(savedBytes.map(Int64.init))),
                ("read_models_version", Cell(definition)),
                ("read_models_version_expected", .integer(ReadModelSchema.version)),
                ("projector_leads", .bool(projectorLeads)),
            ]
            let readModels = readModelCheckpoints(status).map { name, seq in
                JSONRenderer.object([
                    ("name", .text(name)), ("seq", .integer(seq)), ("lag", .integer(status.lastSeq - seq)),
                    ("current", .bool(otherDefinition == nil && seq == status.lastSeq)),
                ])
            }
            Terminal.line(JSONRenderer.object(
                encoded: members.map { ($0.0, JSONRenderer.value($0.1)) } + [("read_models", "[" + readModels.joined(separator: ",") + "]")]))
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
            let checkpoints = readModelCheckpoints(status)
            let width = checkpoints.map(\.0.count).max() ?? 0
            for (name, seq) in checkpoints {
                let lag = status.lastSeq - seq
                let state = otherDefinition != nil ? "another definition" : lag == 0 ? "up to date" : "\(lag) behind"
                lines.append("read model   \(name.padding(to: width))  at seq \(seq), " + state)
            }
            if let otherDefinition {
                lines.append("read models  written by another definition (version \(otherDefinition); this gtio's is "
                    + "\(ReadModelSchema.version)): the next command that needs them rebuilds them, or gtio rebuild")
            }
            if let savedState {
                let size = savedBytes.map { " (\(ByteSize.text($0)))" } ?? ""
                lines.append("fold state   saved at seq \(savedState)\(size); a writer folds the \(status.lastSeq - savedState) events after it")
            }
            if let earlierState {
                let newest = earlierState.newestAt.map { " (newest event \(Timestamp(milliseconds: $0)))" } ?? ""
                lines.append("fold state   also at seq \(earlierState.seq)\(newest): as-of views from then on start there")
            }
            if checkpoints.isEmpty && status.events > 0 {
                lines.append("read models  not built yet (any query builds them; or gtio rebuild)")
            }
            lines.append(projectorLeads
                ? "projector    leading: it applies each commit (gtio project --follow, or a gtio serve)"
                : "projector    none leading: each writer brings the read models up to date itself")
            Terminal.line(lines.joined(separator: "\n"))
        }
    }
}
