import ArgumentParser
import Foundation
import GTIOProjections
import GTIOStore

/// `gtio copy --from STORE --to STORE`: moves a log between stores and backends, exactly.
struct CopyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Copy a store's log into another store (SQLite file or postgresql:// URL), exactly, resumably.",
        discussion: """
            The destination gets the same events at the same seqs, the same batches, times, hash \
            chain, signatures and quarantine: gtio verify gives the same head on both, with the \
            same key. The source's chain is verified before anything is copied; each event's hash \
            is recomputed as it is added to the destination, which is verified at the end. \
            Batches are added in transactions of whole batches: an interrupted copy leaves a \
            prefix of the source, and running it again goes on from there (the destination must \
            be empty or such a prefix). Events appended to the source while it runs are left for \
            the next run. The destination's read models are then brought up to date.
            """)

    @Option(help: ArgumentHelp("The store to copy: an SQLite file or a postgresql:// URL.", valueName: "path|url"))
    var from: String

    @Option(help: ArgumentHelp("The store to copy into, created when missing.", valueName: "path|url"))
    var to: String

    @Option(parsing: .unconditional, help: ArgumentHelp("Events per transaction on the destination (whole batches, at least one).", valueName: "events"))
    var transactionSize = 20_000

    @Flag(name: [.long, .short], help: "Print nothing but errors.")
    var quiet = false

    func validate() throws {
        guard transactionSize >= 1 else { throw ValidationError("--transaction-size must be at least 1, got \(transactionSize)") }
        guard from != to else { throw ValidationError("--from and --to name the same store (\(from)); give another destination") }
    }

    func run() throws {
        let source = try StoreOptions.open(from, readOnly: true, create: false)
        let destination = try StoreOptions.open(to, readOnly: false)
        // The same file by another path (`./x.gtio`, a link to it).
        guard source.location != destination.location else {
            throw ValidationError("--from and --to name the same store (\(source.location)); give another destination")
        }
        let total = try source.lastSeq()
        let bar = ProgressBar(enabled: Terminal.standardErrorIsTerminal && !quiet)
        let started = Date()
        let outcome = try LogCopy(from: source, to: destination).run(maxEvents: transactionSize) { seq in
            bar.update(done: seq, total: total, count: Int(seq), unit: "events")
        }
        bar.finish()
        if !quiet {
            let resumed = outcome.resumedAfterBatch > 0 ? " (resumed after batch \(outcome.resumedAfterBatch))" : ""
            Terminal.line(String(format: "copied %lld batches, %lld events in %.2f s%@", outcome.batches, outcome.events,
                                 Date().timeIntervalSince(started), resumed))
            if outcome.quarantine > 0 { Terminal.line("quarantine: \(outcome.quarantine) \(outcome.quarantine == 1 ? "entry" : "entries") added or settled") }
            let hex = outcome.head.prefix(8).map { String(format: "%02x", $0) }.joined()
            Terminal.line("verified both logs: \(outcome.totalEvents) events, the same chain head \(hex)…")
            for what in outcome.unchecked { Terminal.line("not checked on \(what)") }
        }
        let seconds: Double
        switch try ReadModelCache.shared.bringUpToDate(destination, quiet: quiet) {
        case .leftToProjector: return
        case .current: seconds = 0
        case .caughtUp(let taken): seconds = taken
        }
        if !quiet {
            Terminal.line(String(format: "read models up to date in %.2f s", seconds))
            ReadModelCache.shared.adviseOnStateRead(destination)
        }
    }
}
