import ArgumentParser
import Foundation
import GTIOIngest
import GTIOProjections
import GTIOStore
import GTIOTables

/// `gtio ingest FILE…|-`: appends JSON Lines events to the log.
struct IngestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest",
        abstract: "Append JSON Lines events from files or standard input (-).",
        discussion: """
            Valid events are appended; ids already in the log count as duplicates; invalid lines \
            go to the quarantine with a reason (see gtio quarantine). Each batch of lines is one \
            transaction, so an interrupted ingest can simply be run again. Exit code 3 when some \
            input was rejected.
            """)

    enum SummaryFormat: String, ExpressibleByArgument, CaseIterable { case text, json }

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: ArgumentHelp("JSON Lines files; - reads standard input.", valueName: "file"))
    var files: [String] = []

    @Option(help: "text, or json for one JSON object with the counts.")
    var format: SummaryFormat = .text

    @Option(help: ArgumentHelp("Lines per transaction.", valueName: "lines"))
    var batchSize = 50_000

    @Flag(name: [.long, .short], help: "Print nothing but errors.")
    var quiet = false

    func validate() throws {
        guard !files.isEmpty else {
            throw ValidationError("give at least one JSON Lines file, or - for standard input")
        }
        guard batchSize >= 1 else { throw ValidationError("--batch-size must be at least 1, got \(batchSize)") }
        if files.filter({ $0 == "-" }).count > 1 { throw ValidationError("- (standard input) may be given once") }
    }

    func run() throws {
        let sources = files.map(IngestSource.init(argument:))
        let opened = try Ingestor.open(sources)  // a missing file fails before the store is touched
        defer { Ingestor.close(opened) }
        let store = try storeOptions.open()
        let bar = ProgressBar(enabled: Terminal.standardErrorIsTerminal && !quiet)
        var committed = AppendOutcome()
        let report: IngestReport
        do {
            report = try Ingestor(batchSize: batchSize).ingest(opened: opened, into: store) { progress in
                committed = progress.outcome
                let total = sources.count == 1 ? progress.bytesTotal : nil
                bar.update(done: progress.bytesReadOverall, total: total, count: progress.outcome.read, unit: "events")
            }
        } catch {
            bar.finish()
            // A script reading --format json gets an answer even now: what was committed
            // before the failure stays in the log, and the error says why the rest is not.
            if format == .json, !quiet { Terminal.line(failureJSON(committed, error: error)) }
            throw error
        }
        bar.finish()
        if !quiet {
            // An empty input is worth a word, not an error: --quiet keeps it out.
            for source in report.sources {
                if let note = source.note { Terminal.writeError("gtio: \(source.source.displayName): \(note)\n") }
            }
            switch format {
            case .json: Terminal.line(json(report))
            case .text: Terminal.line(text(report))
            }
        }
        try bringReadModelsUpToDate(store, appended: report.appended)
        if report.total.rejected > 0 { throw ExitCode(3) }
    }

    /// The read models brought up to the end of the log, or left to the projector that leads;
    /// the events this ingest appended are applied as it holds them.
    private func bringReadModelsUpToDate(_ store: any EventStore, appended: AppendedRecords) throws {
        let upkeep = try ReadModelCache.shared.bringUpToDate(store, quiet: quiet, appended: appended)
        guard !quiet, format == .text else { return }
        switch upkeep {
        case .current: break
        case .leftToProjector: Terminal.line("read models: left to the projector that leads")
        case .caughtUp(let seconds):
            Terminal.line(String(format: "read models up to date in %.2f s", seconds))
            ReadModelCache.shared.adviseOnStateRead(store)
        }
    }

    private func text(_ report: IngestReport) -> String {
        var lines: [String] = []
        if report.sources.count > 1 {
            for source in report.sources {
                lines.append("\(source.source.displayName): " + counts(source.outcome))
            }
        }
        let t = report.total
        var summary = counts(t)
        let rate = report.seconds > 0 ? Int(Double(t.read) / report.seconds) : 0
        summary += String(format: " in %.2f s (%d events/s)", report.seconds, rate)
        lines.append(summary)
        if let first = t.firstSeq, let last = t.lastSeq { lines.append("log positions \(first)–\(last)") }
        if t.rejected > 0 {
            lines.append("\(t.rejected) rejected line\(t.rejected == 1 ? "" : "s") kept in quarantine: see gtio quarantine")
        }
        return lines.joined(separator: "\n")
    }

    private func counts(_ outcome: AppendOutcome) -> String {
        "read \(outcome.read), appended \(outcome.appended), duplicates \(outcome.duplicates), rejected \(outcome.rejected)"
    }

    private func failureJSON(_ committed: AppendOutcome, error: any Error) -> String {
        JSONRenderer.object([
            ("error", .text("\(error)")), ("read", .integer(Int64(committed.read))),
            ("appended", .integer(Int64(committed.appended))), ("duplicates", .integer(Int64(committed.duplicates))),
            ("rejected", .integer(Int64(committed.rejected))), ("first_seq", Cell(committed.firstSeq)),
            ("last_seq", Cell(committed.lastSeq)),
        ])
    }

    private func json(_ report: IngestReport) -> String {
        let t = report.total
        let members: [(String, Cell)] = [
            ("read", .integer(Int64(t.read))), ("appended", .integer(Int64(t.appended))),
            ("duplicates", .integer(Int64(t.duplicates))), ("rejected", .integer(Int64(t.rejected))),
            ("quarantined", .integer(Int64(t.quarantined))), ("first_seq", Cell(t.firstSeq)),
            ("last_seq", Cell(t.lastSeq)), ("seconds", .number((report.seconds * 1000).rounded() / 1000)),
        ]
        let sources = report.sources.map { source in
            JSONRenderer.object([
                ("source", .text(source.source.name)), ("read", .integer(Int64(source.outcome.read))),
                ("appended", .integer(Int64(source.outcome.appended))),
                ("duplicates", .integer(Int64(source.outcome.duplicates))),
                ("rejected", .integer(Int64(source.outcome.rejected))), ("note", Cell(source.note)),
            ])
        }
        return JSONRenderer.object(
            encoded: members.map { ($0.0, JSONRenderer.value($0.1)) } + [("sources", "[" + sources.joined(separator: ",") + "]")])
    }
}
