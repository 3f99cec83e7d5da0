import ArgumentParser
import Foundation
import GTIOCatalog
import GTIOInsights
import GTIOReports
import GTIOTables

/// `report nightly`: the day's report as HTML, Markdown and CSV files.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report", abstract: "Write reports from the log.",
        subcommands: [NightlyReportCommand.self], defaultSubcommand: NightlyReportCommand.self)
}

/// `report nightly [--date D] [--out DIR]`: writes DIR/D/ atomically.
struct NightlyReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nightly",
        abstract: "Write one UTC day's report: index.html, summary.md and CSV files, into DIR/DATE/.",
        discussion: """
            The day defaults to the last full UTC day of the log (the day before its newest event). \
            Figures are as of the end of that day; re-running on the same log writes the same bytes. \
            Example: gtio report nightly --date 2012-05-01 --out Reports
            """)
    @Option(help: ArgumentHelp("The UTC day, YYYY-MM-DD (default: the last full day of the log).", valueName: "date"))
    var date: String?
    @Option(help: ArgumentHelp("The folder that gets the DATE/ folder.", valueName: "dir")) var out = "Reports"
    @Flag(help: "Write the CSV files' text as it is: no ' before text starting with = + - @ (for programs, not spreadsheets).")
    var rawCsv = false
    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
        if let date, Timestamp(date: date) == nil {
            throw ValidationError("--date: \"\(date)\" is not a date (expected YYYY-MM-DD)")
        }
    }

    /// A saved insight's answer for one day: its window is the day and its view the end of it,
    /// unless the command names its own.
    private func answer(_ command: String, on date: String) -> Result<ResultTable, SavedInsightFailure> {
        do {
            let words = try CommandLineWords.split(command)
            var extra = ["--store", storeOptions.path]
            if !words.contains("--from") { extra += ["--from", date] }
            if !words.contains("--to") { extra += ["--to", date] }
            if !words.contains("--as-of"), !words.contains("--at-seq") { extra += ["--as-of", date] }
            guard let table = try InsightCommand.parsed(command, adding: extra).answer() else {
                return .failure(SavedInsightFailure("not an insight"))
            }
            return .success(table)
        } catch {
            return .failure(SavedInsightFailure("\(error)"))
        }
    }

    func run() throws {
        let store = try storeOptions.openForReading()
        let started = Date()
        var report = try NightlyReport.compute(store: store, day: date.flatMap(Timestamp.init(date:))?.day)
        report.savedInsights = try SavedInsights.all(in: store).map { saved in
            // A name names a file of the report: one written into the table by hand, not by
            // `insight save`, is answered by no file rather than stopping the whole report.
            SavedInsightAnswer(
                name: saved.name, command: saved.command,
                answer: SavedInsights.isValidName(saved.name) ? answer(saved.command, on: report.date) : .failure(SavedInsightFailure(
                    "its name is not one insight save gives (letters, digits, - and _), and names no file: "
                        + "insight delete it and save it again")))
        }
        let files = report.files(rawCSV: rawCsv)
        let folder = try ReportWriter.write(files, to: out, as: report.date)
        Terminal.line(String(format: "wrote %@/ in %.2f s: %@", folder, Date().timeIntervalSince(started),
                             files.map(\.name).joined(separator: ", ")))
    }
}
