import Foundation
import GTIOProjections
import GTIOStore

/// The fold that keeps a store's read-model tables current, per store, kept for the life of the
/// process: its first catch-up folds the log up to the tables' checkpoint, every later one
/// (a REPL's next ingest or decision, the folds the funnel and retention still need) only
/// applies the new events.
final class ReadModelCache: @unchecked Sendable {
    // @unchecked: `live` is only touched while holding `lock`.
    static let shared = ReadModelCache()
    private let lock = NSLock()
    private var live: [String: LiveReadModels] = [:]
    /// The stores whose slow read of the saved state this process has already spoken of.
    private var advised: Set<String> = []

    /// `quiet`: no progress bar and no notice (a background catch-up, `--quiet`); `appended`: the
    /// events this process just appended, which a first fold takes as they are.
    func live(for store: any EventStore, quiet: Bool = false, appended: AppendedRecords? = nil) throws -> LiveReadModels {
        lock.lock()
        defer { lock.unlock() }
        if let existing = live[store.location] { return existing }
        // Folding up to the tables' checkpoint is the long part of a first catch-up.
        let bar = ProgressBar(enabled: Terminal.standardErrorIsTerminal && !quiet)
        defer { bar.finish() }
        let created = try LiveReadModels(store: store, appended: appended) { events in
            bar.update(done: Int64(events), total: nil, count: events, unit: "events")
        }
        // A first build needs no word (the progress bar shows a long one); a changed definition does.
        if let version = created.migratedFrom, version > 0, !quiet {
            Terminal.writeError("read models: their definition changed (version \(version) → \(ReadModelSchema.version)); rebuilt them from the log\n")
        }
        if let reason = created.setAside, !quiet {
            Terminal.writeError("read models: \(reason); folded the log instead (saving a new one)\n")
        }
        live[store.location] = created
        return created
    }

    /// Brings the store's read-model tables up to the end of its log, in this process's turn
    /// among the store's writers (`CatchUpTurn`), taking the events `appended` holds from it.
    func catchUp(_ store: any EventStore, quiet: Bool = false, appended: AppendedRecords? = nil) throws {
        try inTurn(store, quiet: quiet) {
            // The process whose turn came before may have brought them to the end: then this one
            // need not read the fold state back (seconds on a large store).
            if !hasFolded(store), try StoredReadModels.current(store) != nil { return }
            if LogScanCounter.isReported { try describeLag(store) }
            _ = try live(for: store, quiet: quiet, appended: appended).catchUp(from: appended)
        }
    }

    /// Where the tables stood when this process's turn came and it had to catch them up: for
    /// the tests that count what a writer folds (`GTIO_SCAN_STATS=1`), to tell a lag it found
    /// from one it should not have.
    private func describeLag(_ store: any EventStore) throws {
        let marks = try ReadModelEngine(store: store).checkpoints().values
        let folded = hasFolded(store) ? "this process holds a fold" : "no fold held"
        Terminal.writeError(
            "gtio: catching up in turn: checkpoints \(marks.min() ?? 0)–\(marks.max() ?? 0), log at \(try store.lastSeq()), \(folded)\n")
    }

    private func hasFolded(_ store: any EventStore) -> Bool {
        lock.withLock { live[store.location] != nil }
    }

    /// Runs `body` holding the store's catch-up turn (`CatchUpTurn`).
    private func inTurn(_ store: any EventStore, quiet: Bool, _ body: () throws -> Void) throws {
        let turn = try CatchUpTurn.take(store) {
            if !quiet { Terminal.writeError("gtio: waiting for another process to finish catching the read models up\n") }
        }
        defer { turn?.release() }
        try body()
    }

    /// Says on standard error, once a store, when this process read the store's saved fold state
    /// back slowly (`ProjectorAdvice`): for writers, which pay that read at every run.
    func adviseOnStateRead(_ store: any EventStore) {
        let seconds: Double? = lock.withLock {
            guard let models = live[store.location], advised.insert(store.location).inserted else { return nil }
            return models.stateReadSeconds
        }
        // Its size is read only when it is worth a word.
        guard let seconds, ProjectorAdvice.isDue(seconds: seconds) else { return }
        let bytes = try? store.readTables { try FoldSnapshot.saved($0).last?.length }
        if let line = ProjectorAdvice.line(seconds: seconds, bytes: bytes ?? nil) { Terminal.writeError(line + "\n") }
    }

    /// What a writer's `bringUpToDate` did.
    enum Upkeep {
        /// The tables already stood at the end of the log.
        case current
        /// A projector leads (`gtio project --follow`): it applies what was appended.
        case leftToProjector
        /// This process caught them up, taking this long.
        case caughtUp(seconds: Double)
    }

    /// What a writer (`ingest`, `copy`) does once its appends are committed: queries read the
    /// tables, so the writer brings them up to the end of the log before it returns and no
    /// reader has to, unless a projector leads, which applies the batches as they commit.
    /// `appended`: the events the writer appended, which need not be read back.
    func bringUpToDate(_ store: any EventStore, quiet: Bool, appended: AppendedRecords? = nil) throws -> Upkeep {
        guard try StoredReadModels.current(store) == nil else { return .current }
        if try store.isLed(ReadModelFollower.role) { return .leftToProjector }
        let started = Date()
        try catchUp(store, quiet: quiet, appended: appended)
        store.settle()
        return .caughtUp(seconds: Date().timeIntervalSince(started))
    }
}
