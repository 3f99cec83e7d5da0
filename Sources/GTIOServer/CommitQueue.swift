import Foundation
import GTIOProjections
import GTIOStore
import Logging
import ServiceLifecycle

/// Group commit: requests hand their batches to one writer thread, which gathers what arrived
/// within a bounded wait into one transaction, so that one fsync acknowledges many requests.
///
/// A request's batch stays its own batch in the log (its source names the request), only the
/// transaction is shared; every request waits until its events are committed before it is
/// answered. The queue is bounded in events: when full, `submit` refuses at once (503) rather
/// than let memory grow. On graceful shutdown it stops taking batches, commits what it holds,
/// and returns.
final class CommitQueue: Service, @unchecked Sendable {
    // @unchecked: `pending`, `pendingEvents`, `accepting`, `stopping` and `fullDisk` are only
    // touched while holding `condition`.
    private let condition = NSCondition()
    private var pending: [(batch: EventBatch, reply: CheckedContinuation<AppendOutcome, any Error>)] = []
    private var pendingEvents = 0
    private var accepting = true
    private var stopping = false
    private var fullDisk: (path: String, at: Date)?

    private let store: any EventLog
    private let capacity: Int
    private let wait: Double
    private let metrics: ServerMetrics
    private let logger: Logger
    private let committed: @Sendable () -> Void
    /// Marked around each commit, for the read models' catch-ups to give way to it.
    private let activity: CommitActivity

    /// - Parameters:
    ///   - capacity: events that may wait for a commit at once.
    ///   - wait: seconds the writer waits after a first batch for others to join it.
    ///   - activity: told when each commit begins and ends.
    ///   - committed: called on the writer thread after each commit (to nudge the read models).
    init(
        store: any EventLog, capacity: Int, wait: Double, metrics: ServerMetrics, logger: Logger,
        activity: CommitActivity, committed: @escaping @Sendable () -> Void
    ) {
        self.activity = activity
        self.store = store
        self.capacity = capacity
        self.wait = wait
        self.metrics = metrics
        self.logger = logger
        self.committed = committed
    }

    /// The store's path and when the last commit failed because its disk was full; nil when
    /// the last commit succeeded. Only a commit tells whether space came back.
    var diskFull: (path: String, at: Date)? {
        condition.lock()
        defer { condition.unlock() }
        return fullDisk
    }

    private func noteCommit(_ error: (any Error)?) {
        condition.lock()
        defer { condition.unlock() }
        if case .diskFull(let path)? = error as? StoreError {
            fullDisk = (path, Date())
        } else {
            fullDisk = nil
        }
    }

    /// Appends `batch` in the next commit and returns what the append did, once committed.
    func submit(_ batch: EventBatch) async throws -> AppendOutcome {
        try await withCheckedThrowingContinuation { reply in
            condition.lock()
            guard accepting else {
                condition.unlock()
                reply.resume(throwing: ServerError.shuttingDown)
                return
            }
            // One request larger than the whole queue still goes through when the queue is empty.
            guard pending.isEmpty || pendingEvents + batch.read <= capacity else {
                condition.unlock()
                metrics.queueRefusals.increment()
                reply.resume(throwing: ServerError.queueFull(retryAfter: 1))
                return
            }
            pending.append((batch, reply))
            pendingEvents += batch.read
            metrics.queueDepth.record(pendingEvents)
            condition.signal()
            condition.unlock()
        }
    }

    func run() async throws {
        await WorkerThread.run(named: "gtio-commit", stop: { self.stop() }) {
            // What commits leave to do (SQLite's checkpoints) runs beside the writer, not on it:
            // every request of a commit waits for the writer. Should it fail to start, the
            // writer does it itself, as in any other process, only slower.
            var upkeep: (any LogUpkeep)?
            do {
                upkeep = try self.store.startUpkeepAside()
            } catch {
                self.logger.warning(
                    "checkpoints stay on the committing thread (commits wait for them)",
                    metadata: ["error": "\(error)"])
            }
            // Raised after the checkpoint thread started, which would otherwise inherit it: on
            // a machine whose cores are busy with requests, commits come first.
            if !ThreadPriority.raiseCallingThread() {
                self.logger.notice(
                    "the commit thread runs at the process's priority: raising it \(ThreadPriority.urgentSteps) nice steps, for more commits on busy cores, needs CAP_SYS_NICE or an RLIMIT_NICE that allows it (systemd: LimitNICE=-\(ThreadPriority.urgentSteps) for a server at nice 0)")
            }
            self.writeLoop(upkeep)
            upkeep?.stop()
        }
    }

    /// The events that make a commit worth its fixed cost (the transaction, the fsync) without
    /// waiting for more.
    static let fullGroup = 256

    /// Takes no more batches; the writer commits those it holds and ends.
    func stop() {
        condition.lock()
        accepting = false
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    private func writeLoop(_ upkeep: (any LogUpkeep)?) {
        while let group = nextGroup() {
            let started = DispatchTime.now().uptimeNanoseconds
            activity.begin()
            let result = Result { try store.write { tx in try tx.append(group.map(\.batch)) } }
            activity.end()
            metrics.commitDuration.recordNanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - started))
            switch result {
            case .success(let outcomes):
                var events = 0
                for (entry, outcome) in zip(group, outcomes) {
                    metrics.appended.increment(by: outcome.appended)
                    metrics.duplicates.increment(by: outcome.duplicates)
                    metrics.rejected.increment(by: outcome.rejected)
                    events += outcome.read
                    entry.reply.resume(returning: outcome)
                }
                metrics.commitEvents.record(events)
                metrics.commitRequests.record(group.count)
                upkeep?.committed()
                committed()
                noteCommit(nil)
            case .failure(let error):
                noteCommit(error)
                let answer = (error as? StoreError).map(ServerError.init) ?? .storeFailed("\(error)")
                for entry in group { entry.reply.resume(throwing: answer) }
            }
        }
    }

    /// The batches of the next commit: waits for a first one, then up to `wait` seconds for
    /// others (not when stopping, or when the queue is already full); nil once stopped and empty.
    private func nextGroup() -> [(batch: EventBatch, reply: CheckedContinuation<AppendOutcome, any Error>)]? {
        condition.lock()
        defer { condition.unlock() }
        // Batches that came while the last commit ran have waited for it already: when they
        // are enough to fill a commit, they go at once rather than wait for more.
        let waited = pendingEvents >= Self.fullGroup
        while pending.isEmpty && !stopping { condition.wait() }
        if pending.isEmpty { return nil }
        if wait > 0 && !waited {
            let deadline = Date(timeIntervalSinceNow: wait)
            while !stopping && pendingEvents < capacity / 2 && condition.wait(until: deadline) {}
        }
        let group = pending
        pending = []
        pendingEvents = 0
        metrics.queueDepth.record(0)
        return group
    }
}
