import ArgumentParser
import GTIOCatalog
import GTIOIngest
import GTIOStore
import GTIOTables

/// `gtio quarantine`: the lines ingest rejected, and retrying them.
struct QuarantineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quarantine",
        abstract: "List, show and retry rejected input lines.",
        subcommands: [List.self, Show.self, Retry.self],
        defaultSubcommand: List.self)

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List quarantined lines (open ones unless --all).")
        @OptionGroup var storeOptions: StoreOptions
        @Flag(help: "Include entries already settled by a retry or a corrected re-ingest.") var all = false
        @Option(parsing: .unconditional, help: "At most this many (0: all).", transform: Limit.parse) var limit = 100
        @Option(help: "table, csv or json.") var format: OutputFormat = .table

        func run() throws {
            let entries = try storeOptions.openForReading().quarantineEntries(includeSettled: all, limit: limit)
            var table = ResultTable(columns: ["entry", "source", "line", "status", "reason", "original"])
            for entry in entries {
                table.rows.append([
                    .integer(entry.entry), .text(entry.source), .integer(Int64(entry.line)), .text(entry.status),
                    .text(entry.reason), .text(entry.originalText),
                ])
            }
            Terminal.write(table, as: format, width: Terminal.width)
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one quarantined line in full.")
        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The entry number (from gtio quarantine).") var entry: Int64

        func run() throws {
            guard let found = try storeOptions.openForReading().quarantineEntry(entry) else {
                throw ConsoleError.notFound("no quarantine entry \(entry) (gtio quarantine --all lists them)")
            }
            // The line is whatever a producer sent: its control characters are written out
            // (`\u{1B}`), as in the list, rather than sent to the terminal to act on.
            Terminal.line("""
                entry     \(found.entry)
                source    \(found.source.escapingControls), line \(found.line)
                recorded  \(found.recorded)
                status    \(found.status)\(found.seq.map { " (seq \($0))" } ?? "")
                reason    \(found.reason.escapingControls)
                original  \(found.originalText.escapingControls)
                """)
        }
    }

    struct Retry: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "retry",
            abstract: "Validate open entries again and append what is now valid.",
            discussion: """
                Without --from, each entry's stored line is validated again. With --from FILE, each \
                open entry from that file (or from --source) takes the line at the same number in \
                FILE instead: the producer's corrected copy. What is still invalid stays open, and \
                the exit status is then 3, as for an ingest that rejected lines.
                """)
        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "Entry numbers; all open entries when none are given.") var entries: [Int64] = []
        @Option(help: ArgumentHelp("A corrected copy of the source file.", valueName: "file")) var from: String?
        @Option(help: ArgumentHelp("The source the entries came from, when it differs from --from.", valueName: "path"))
        var source: String?

        func run() throws {
            let store = try storeOptions.openExisting()
            var replacements: [Int: [UInt8]] = [:]
            var sourceName: String?
            if let from {
                sourceName = IngestSource.file(path: source ?? from).name
                replacements = try SourceLines.read(path: from)
            }
            let outcome = try store.retryQuarantine(
                entries: entries.isEmpty ? nil : entries,
                replacement: { entry in entry.source == sourceName ? replacements[entry.line] : nil },
                validate: { bytes in bytes.withUnsafeBufferPointer { EventValidator.validate($0) } })
            Terminal.line("appended \(outcome.appended), duplicates \(outcome.duplicates), still rejected \(outcome.stillRejected)")
            if outcome.stillRejected > 0 { throw ExitCode(3) }
        }
    }
}
