import ArgumentParser
import GTIOStore

/// `gtio event SEQ`: one event in full, with its original line.
struct EventCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "event", abstract: "Show one event by its seq: every column and the original JSON.")

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The event's position in the log.") var seq: Int64
    @Option(help: "table, csv or json.") var format: OutputFormat = .table

    func run() throws {
        let store = try storeOptions.openForReading()
        guard let event = try store.event(at: seq) else {
            let last = try store.lastSeq()
            throw ConsoleError.notFound("no event at seq \(seq): the log holds seq 1–\(last)")
        }
        let table = EventRows.table([event], full: true, original: true)
        if format == .table {
            let width = table.columns.map(\.count).max() ?? 0
            for (column, cell) in zip(table.columns, table.rows[0]) {
                Terminal.line(column.padding(to: width) + "  " + cell.plainText)
            }
        } else {
            Terminal.write(table, as: format)
        }
    }
}

extension String {
    func padding(to width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
}
