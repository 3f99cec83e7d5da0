import Foundation
import GTIOStore
import Synchronization

/// Read models kept in memory and in step with a store: catching up applies only the events
/// after the last one applied, and rewrites only the table rows those events touched.
public final class LiveReadModels: @unchecked Sendable {
    // @unchecked: `state`, `replaceSavedState` and `dropSavedStates` are only read or written while holding `lock`.
    private let lock = NSLock()
    private var state: CommunityState
    public let store: any EventStore
    private let latestLock = NSLock()
    private var latestModels: ReadModels?

    /// The read models of the last catch-up, without waiting for one in progress.
    public var latest: ReadModels? {
        latestLock.lock()
        defer { latestLock.unlock() }
        return latestModels
    }

    /// The definition version of the tables the store held when this build had to drop and
    /// rebuild them (0: it had none), nil when they were already this build's.
    public let migratedFrom: Int64?

    /// Why the saved fold state could not be continued from, when it was there but damaged:
    /// the log was folded instead, and the first catch-up that writes saves a good one.
    public let setAside: FoldSnapshotError?
    /// Whether the next write must save the state whatever `FoldSnapshot.isDue` says: the saved
    /// one was damaged, or lay far enough behind the tables (`FoldSnapshot.isWorthSaving`).
    private var replaceSavedState: Bool
    /// Whether the next save must drop every state saved before: one was damaged, and kept as
    /// the earlier state it would only be read, failed and folded around by as-of views.
    private var dropSavedStates: Bool
    /// The seq of the saved state as last seen, to encode a state that is due before the write
    /// transaction (the transaction checks again: another process may have saved one since).
    private var savedSeq: Int64?

    /// How long reading the saved fold state back took, 0 when none was read: what every writer
    /// pays before its first events while no projector holds the state in memory.
    public let stateReadSeconds: Double

    /// The fold up to where the stored tables stand, so the next catch-up writes increments:
    /// continued from the saved fold state when there is one, folded from seq 1 otherwise, the
    /// events `appended` holds taken from it rather than read back; `progress` hears the events
    /// folded so far.
    public init(store: any EventStore, appended: AppendedRecords? = nil, progress: (Int) -> Void = { _ in }) throws {
        self.store = store
        migratedFrom = try ReadModelSchema.migrate(store)
        let engine = ReadModelEngine(store: store)
        let marks = Set(try engine.checkpoints().values)
        var state = CommunityState()
        var setAside: FoldSnapshotError?
        // Where the fold began: the saved state's seq, 0 without one.
        var savedAt: Int64 = 0
        var stateReadSeconds = 0.0
        // With one common checkpoint the tables hold exactly the fold up to it. Tables never
        // built will be written whole: fold the whole log on the rebuild's fast path, not
        // event by event in the catch-up (20 M events: ~280 s that way).
        if marks.count == 1, let mark = marks.first {
            if mark > 0 {
                let started = Date()
                do {
                    state = try store.readTables { try FoldSnapshot.load($0, atMost: mark) } ?? state
                    if state.lastSeq > 0 { stateReadSeconds = Date().timeIntervalSince(started) }
                } catch let error as FoldSnapshotError {
                    setAside = error
                }
            }
            let through = mark > 0 ? mark : try store.lastSeq()
            savedAt = state.lastSeq
            try Self.fold(store, through: through, appended: appended, into: &state, progress: progress)
        }
        let folded = state.lastSeq - savedAt
        self.state = state
        self.setAside = setAside
        self.stateReadSeconds = stateReadSeconds
        replaceSavedState = setAside != nil || FoldSnapshot.isWorthSaving(folded: folded, lastSeq: state.lastSeq)
        dropSavedStates = setAside != nil
        savedSeq = try store.readTables { try FoldSnapshot.savedSeq($0) }
    }

    /// Folds the log on from `state` through seq `through`, on the rebuild's fast path but for
    /// the events `appended` holds, which are applied as they are.
    private static func fold(
        _ store: any EventStore, through: Int64, appended: AppendedRecords?, into state: inout CommunityState,
        progress: (Int) -> Void
    ) throws {
        while state.lastSeq < through {
            let before = state.lastSeq
            if let kept = appended?.records(from: before + 1, through: through) {
                state.apply(kept)
                progress(state.eventCount)
            } else {
                let last = appended?.readThrough(from: before + 1, through: through) ?? through
                try ReadModelEngine.fold(store, LogScope(afterSeq: before, throughSeq: last), into: &state, progress: progress)
            }
            // The log ended before `through`: nothing more to fold.
            if state.lastSeq == before { break }
        }
    }

    /// The events a catch-up reads in one read transaction (tests make it small, to see many).
    var window: Int64 = 8_192

    /// The most events one write of the tables takes when they are in step. What a write holds
    /// in memory (the ids touched, the rows changed) follows the events it covers, ~300 bytes
    /// each: a server whose read models fell far behind under load catches up by writes of
    /// this many rather than one of the whole backlog. Each write costs a little more than
    /// its events, so a backlog that fits one is written at once (tests make it small).
    public var eventsPerWrite: Int64 = 262_144

    /// How a catch-up gives way to the commits of a log writer in the same process (a server's
    /// collector): between slices of its work it waits for the commit under way, if any, while
    /// the read models lag the log by fewer than `whileBehindLessThan` events. Beyond that it
    /// runs without waiting, so that under a load the projector cannot follow its lag stays
    /// about there rather than grow for as long as the load lasts.
    public struct GiveWay: Sendable {
        public var commits: CommitActivity
        public var whileBehindLessThan: Int64
        /// The longest a catch-up waits for one commit.
        public var patience: TimeInterval = 0.02

        public init(to commits: CommitActivity, whileBehindLessThan lag: Int64) {
            self.commits = commits
            whileBehindLessThan = lag
        }

        /// Waits for the commit under way when the read models, at `applied`, are close enough
        /// to `end`, unless `stop` says so (looked at again after `CommitActivity.wake()`).
        func wait(applied: Int64, end: Int64, unless stop: () -> Bool) {
            if end - applied < whileBehindLessThan { commits.waitForCommit(patience: patience, unless: stop) }
        }
    }

    /// Set by a server before the models are shared with other threads (it is read without
    /// `lock`); nil: catch-ups never wait.
    public var giveWay: GiveWay?
    /// Callers waiting for the catch-up in progress (a moderator's decision checks against its
    /// result): while one waits, the catch-up gives way to nothing.
    private let waiting = Atomic<Int>(0)

    /// Waits for the commit under way as `giveWay` says, unless someone waits for this catch-up.
    private func giveWayToCommit(applied: Int64, end: Int64) {
        guard let giveWay else { return }
        giveWay.wait(applied: applied, end: end) { waiting.load(ordering: .relaxed) > 0 }
    }

    /// The events applied between two looks at `giveWay`: ~1 ms of work.
    static let giveWaySlice = 256

    /// Applies the events appended since, updates the tables, and returns the read models; the
    /// events `appended` holds are taken from it rather than read back.
    @discardableResult
    public func catchUp(from appended: AppendedRecords? = nil) throws -> ReadModels {
        waiting.add(1, ordering: .relaxed)
        // A catch-up in progress that gives way to a commit stops waiting for it.
        giveWay?.commits.wake()
        lock.lock()
        waiting.subtract(1, ordering: .relaxed)
        defer { lock.unlock() }
        let end = try ThreadPriority.outsideIdle { try store.lastSeq() }
        while true {
            let (models, reached) = try catchUp(towards: end, appended: appended)
            if reached { return models }
        }
    }

    /// One write of the tables towards the log's `end`: all the way when the tables are not in
    /// step with the fold (they are then written whole), at most `eventsPerWrite` events when
    /// they are. Returns the models and whether no further write is needed.
    private func catchUp(towards logEnd: Int64, appended: AppendedRecords?) throws -> (ReadModels, reached: Bool) {
        let engine = ReadModelEngine(store: store)
        let marks = try engine.checkpoints()
        let inStep = marks.values.allSatisfy { $0 == state.lastSeq }
        let end = inStep ? min(logEnd, state.lastSeq + eventsPerWrite) : logEnd
        if end != state.lastSeq {
            // The models handed out last share the state's storage: let go of them, so applying
            // new events mutates in place instead of copying every table of the community.
            latestLock.lock()
            latestModels = nil
            latestLock.unlock()
        }
        if inStep {
            // The places' tallies as the tables hold them, so that the change set names every
            // place that moves from here (a state just folded has them unsettled).
            state.settlePlaces()
            state.changes = ChangeSet(decisions: state.decisions.count, daysBefore: state.dayRange)
        }
        let before = state.lastSeq
        // Each window is read whole before it is applied, so that the log's read transaction
        // lasts the reading only: on SQLite, one held while the events were folded held up a
        // collector's commits beside it (docs/PERFORMANCE.md). For the same reason a server's
        // catch-up under the idle policy reads at the background priority, not to wait for a core
        // in the middle of a read.
        while state.lastSeq < end {
            let through = min(state.lastSeq + window, end)
            let records: ArraySlice<LogRecord>
            if let kept = appended?.records(from: state.lastSeq + 1, through: through) {
                records = kept
            } else {
                let last = appended?.readThrough(from: state.lastSeq + 1, through: through) ?? through
                var read: [LogRecord] = []
                read.reserveCapacity(Int(last - state.lastSeq))
                try ThreadPriority.outsideIdle {
                    try store.scan(LogScope(afterSeq: state.lastSeq, throughSeq: last)) { read.append($0) }
                }
                records = read[...]
            }
            if records.isEmpty { break }
            for (index, record) in records.enumerated() {
                if index % Self.giveWaySlice == 0 { giveWayToCommit(applied: before, end: logEnd) }
                state.apply(record)
            }
        }
        // Nothing new and the tables in step: the same models, with their indexes already built.
        if inStep, state.lastSeq == before, let latest {
            state.changes = nil
            return (latest, true)
        }
        // Settled while the change set is attached, so that it names the places that moved.
        state.settlePlaces()
        let changes = state.changes
        state.changes = nil
        let models = ReadModels(state: state)
        if let changes, marks.values.contains(where: { $0 != state.lastSeq }) {
            // Built before the transaction: while it runs, other writers wait.
            let rows = ChangedRows(changes, models)
            // Only the last write of a catch-up saves the state: saving costs the whole state,
            // and the writes before it would each save nearly the same one.
            let last = end == logEnd
            let encoded = last && (replaceSavedState || FoldSnapshot.isDue(lastSeq: state.lastSeq, saved: savedSeq))
                ? FoldSnapshot.Encoded(models.state) : nil
            try store.writeTables { tx in
                // Another process may have moved the tables since they were read: the changes
                // apply only on top of where they began.
                let current = try tx.checkpoints(named: ReadModelName.allCases.map(\.checkpointName))
                guard ReadModelName.allCases.allSatisfy({ current[$0.checkpointName] == before }) else { return }
                try rows.write(in: tx) { giveWayToCommit(applied: before, end: logEnd) }
                savedSeq = try FoldSnapshot.savedSeq(tx)
                if last && (replaceSavedState || FoldSnapshot.isDue(lastSeq: models.state.lastSeq, saved: savedSeq)) {
                    let snapshot = encoded ?? FoldSnapshot.Encoded(models.state)
                    try snapshot.save(in: tx, replacingBoth: dropSavedStates)
                    dropSavedStates = false
                    savedSeq = snapshot.seq
                    replaceSavedState = false
                }
            }
        } else if !inStep {
            let lagging = marks.filter { $0.value != state.lastSeq }.map(\.key).sorted { $0.rawValue < $1.rawValue }
            if !lagging.isEmpty { _ = try engine.write(lagging, models) }
        }
        latestLock.lock()
        latestModels = models
        latestLock.unlock()
        // No progress (the log ended early) also ends the catch-up.
        return (models, state.lastSeq >= logEnd || state.lastSeq == before)
    }
}
