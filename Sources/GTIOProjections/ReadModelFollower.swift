import Foundation
import GTIOStore

/// Keeps a store's read models current from a process of its own (`gtio project --follow`):
/// one leader at a time among every such process on every host, woken by each commit that adds
/// events. A follower that is not the leader waits to take over; the leader's catch-ups are
/// transactions that move the checkpoints, and apply nothing unless the checkpoints still stand
/// where the leader read them (`LiveReadModels.catchUp`), so a leader killed part-way, or two
/// processes that both believe they lead, never apply an event twice.
public final class ReadModelFollower: @unchecked Sendable {
    // @unchecked: `watch` and `stopping` are only touched while holding `lock`.
    /// The role whose lead a follower takes.
    public static let role = "projector"

    /// What the follower did, for its log.
    public enum Step: Sendable, Equatable {
        /// Another process leads; this one waits to take over.
        case waiting
        /// This process took the lead with the read models at `from` and the log at `through`:
        /// it catches them up before it says `leading`.
        case catchingUp(from: Int64, through: Int64)
        /// A long first catch-up has folded `events` of the log's `of` so far.
        case folded(events: Int, of: Int64)
        /// This process leads, with the read models at `seq`.
        case leading(seq: Int64)
        /// A catch-up applied `events` new events, through `seq`, in `seconds`.
        case caughtUp(events: Int64, seq: Int64, seconds: Double)
        /// The lead was lost (the server dropped the connection that held it).
        case lostLead
        /// Something failed; the follower tries again after a pause.
        case failed(String)
    }

    private let store: any EventStore
    private let report: @Sendable (Step) -> Void
    private let lock = NSLock()
    private var watch: (any AppendWatch)?
    private var stopping = false
    /// How often a waiting follower tries to take the lead: the longest a takeover waits.
    private let retry: Double

    public init(store: any EventStore, retry: Double = 0.2, report: @escaping @Sendable (Step) -> Void) {
        self.store = store
        self.retry = retry
        self.report = report
    }

    /// Follows the log until `stop`: waits for the lead, then catches up after every commit.
    /// Failures are reported and retried; what a person must fix (a store this process may not
    /// write) is thrown.
    public func run() throws {
        var waiting = false
        while !isStopping {
            do {
                guard let lease = try store.lead(Self.role) else {
                    if !waiting { report(.waiting) }
                    waiting = true
                    pause(retry)
                    continue
                }
                waiting = false
                defer { lease.release() }
                try follow(holding: lease)
            } catch let error as StoreError where error.isUsageError || error.refusesWrites {
                throw error
            } catch {
                report(.failed("\(error)"))
                pause(1)
            }
        }
    }

    /// Ends `run` soon: a wait for new events returns at once.
    public func stop() {
        let watch = lock.withLock {
            stopping = true
            return self.watch
        }
        watch?.close()
    }

    private var isStopping: Bool { lock.withLock { stopping } }

    private func follow(holding lease: any StoreLease) throws {
        // Listen before the first catch-up, so that a commit between the two is heard.
        let watch = try store.watchAppends()
        let stopped = lock.withLock {
            self.watch = watch
            return stopping
        }
        defer {
            lock.withLock { self.watch = nil }
            watch.close()
        }
        if stopped { return }
        // Tables of another definition are dropped first, so that where they stand is where
        // this catch-up starts from.
        try ReadModelSchema.migrate(store)
        let before = try ReadModelEngine(store: store).checkpoints().values.min() ?? 0
        let end = try store.lastSeq()
        if end > before { report(.catchingUp(from: before, through: end)) }
        // A first catch-up can fold the whole log (minutes at 20 M events): say how far it is.
        var said = Date()
        let models = try LiveReadModels(store: store) { events in
            guard Date().timeIntervalSince(said) >= Self.progressInterval else { return }
            said = Date()
            report(.folded(events: events, of: end))
        }
        var applied = try models.catchUp().state.lastSeq
        // The first catch-up may have rewritten every table (a new leader over a store that lagged, a
        // changed definition): give its space back now rather than when the projector stops.
        if applied - before > Self.largeCatchUp { store.settle() }
        report(.leading(seq: applied))
        while !isStopping {
            let last = try watch.wait(after: applied, timeout: 1)
            guard lease.isHeld else {
                report(.lostLead)
                return
            }
            guard last > applied, !isStopping else { continue }
            let started = Date()
            let seq = try models.catchUp().state.lastSeq
            if seq - applied > Self.largeCatchUp { store.settle() }
            if seq > applied { report(.caughtUp(events: seq - applied, seq: seq, seconds: Date().timeIntervalSince(started))) }
            applied = seq
        }
    }

    /// Seconds between two reports of a long first catch-up's progress.
    static let progressInterval = 10.0

    /// Events past which a catch-up's writes are large enough to settle the store after it.
    static let largeCatchUp: Int64 = 100_000

    private func pause(_ seconds: Double) {
        let until = Date().addingTimeInterval(seconds)
        while !isStopping && Date() < until { Thread.sleep(forTimeInterval: min(0.05, seconds)) }
    }
}
