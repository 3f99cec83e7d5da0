import ArgumentParser
import GTIOAnalytics
import GTIOCatalog
import GTIOProjections
import GTIOTables

/// `stats [--date D]`: engagement of one UTC day.
struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "DAU, WAU, MAU, sign-ups by provider and applied actions of one UTC day.",
        discussion: "The day defaults to the day of \"now\" (the newest event, or --as-of).")
    @Option(help: ArgumentHelp("The UTC day, YYYY-MM-DD.", valueName: "date")) var date: String?
    @OptionGroup var query: QueryOptions

    func run() throws {
        try query.withStoredModels(reading: .engagement) { models in
            var day = models.today
            if let date {
                guard let start = Timestamp(date: date) else {
                    throw ConsoleError.badArgument("--date: \"\(date)\" is not a date (expected YYYY-MM-DD)")
                }
                day = start.day
                try query.noteDaysOutsideLog(day...day, asked: "--date \(date)", models)
            }
            let figures = try models.engagement(on: day)
            let table = try AnswerTable.stats(figures, in: models)
            let columns = table.columns, row = table.rows[0]
            if query.forReader {
                // One day reads better down the page.
                try query.emit(ResultTable(columns: ["metric", "value"], rows: zip(columns, row).map { [.text($0), $1] }))
            } else {
                try query.emit(table)
            }
        }
    }
}
