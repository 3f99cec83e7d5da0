import ArgumentParser
import GTIOProjections
import GTIOTables

/// `anomalies`: valid events the rules ignored, by type and reason.
struct AnomaliesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "anomalies", abstract: "Count the valid events the read-model rules ignored, by type and reason.")
    @OptionGroup var query: QueryOptions

    func run() throws {
        let counts = try query.withStoredModels(reading: .anomalies) { try $0.anomalies() }
        try query.emit(ResultTable(
            columns: ["type", "reason", "count"],
            rows: counts.map { [.text($0.type.rawValue), .text($0.anomaly.rawValue), .integer(Int64($0.count))] }))
    }
}
