import ArgumentParser
import Foundation
import GTIOTables

/// Where and how a command writes its table: what every answering command takes, also those
/// with no moment to answer for (`sql`, `keys list`).
struct OutputOptions: ParsableArguments {
    @OptionGroup var storeOptions: StoreOptions

    @Option(help: "table, csv, json or markdown.") var format: OutputFormat = .table
    @Flag(help: "With --format csv, write text as it is: no ' before text starting with = + - @ (for programs, not spreadsheets).")
    var rawCsv = false
    @Option(help: ArgumentHelp("Write the answer to this file instead of standard output.", valueName: "file"))
    var out: String?

    /// Prints or writes `table` in the requested format.
    func emit(_ table: ResultTable) throws {
        if let out {
            let text = table.rendered(as: format, rawCSV: rawCsv)
            try OutputFile.write(Data(text.utf8), to: out, option: "--out")
            Terminal.writeError("wrote \(table.rows.count) row\(table.rows.count == 1 ? "" : "s") to \(out)\n")
        } else {
            Terminal.write(table, as: format, width: Terminal.width, rawCSV: rawCsv)
        }
    }
}
