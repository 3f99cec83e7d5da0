import Foundation
import GTIOProjections
import GTIOStore
import Logging
import ServiceLifecycle

/// Keeps the store's read models current while the server runs: after each commit the
/// collector nudges it, and it applies the new events on its own thread, so appends never wait
/// for the read models and several commits in a row are applied together. A failed catch-up is
/// tried again.
///
/// The server takes the projector's lead (`ReadModelFollower.role`, as `gtio project --follow`
/// does) while no other process holds it: `ingest`, `resolve` and queries beside the server then
/// leave the tables to it rather than each reading the fold's state back, and it applies their
/// events as soon as it hears of them (`AppendWatch`). While another process leads, the server
/// leaves the tables to that one: its own catch-ups would only take turns with the leader for the
/// tables' write lock and find nothing left to apply. It still keeps the read models in memory,
/// for the moderators' decisions to check against.
final class ReadModelProjector: Service, @unchecked Sendable {
    // @unchecked: `live`, `dirty`, `stopping`, `failure`, `deferring` and `watch` are only
    // touched while holding `condition`; `lease` only on the projector's thread.
    private let condition = NSCondition()
    private var live: LiveReadModels?
    private var dirty = true
    private var stopping = false
    private var failure: String?
    private var deferring = false
    private var watch: (any AppendWatch)?
    /// The projector's lead, while this server holds it.
    private var lease: (any StoreLease)?

    private let store: any EventStore
    private let metrics: ServerMetrics
    private let logger: Logger
    private let interval: Double
    private let moved: @Sendable () -> Void
    /// How catch-ups give way to the collector's commits.
    private let giveWay: LiveReadModels.GiveWay
    /// Runs the catch-ups under the idle policy, and moves them out of it when they starve there.
    private let starvation: StarvationGuard

    /// - Parameters:
    ///   - interval: seconds between the starts of two catch-ups at most once: under a
    ///   stream of commits, fewer and larger catch-ups write each touched row once per interval
    ///   instead of once per commit, and hold the tables' write lock less often.
    ///   - moved: called after each catch-up that may have moved the tables.
    ///   - giveWay: how catch-ups give way to the collector's commits.
    init(
        store: any EventStore, metrics: ServerMetrics, logger: Logger, interval: Double, giveWay: LiveReadModels.GiveWay,
        moved: @escaping @Sendable () -> Void
    ) {
        self.giveWay = giveWay
        self.moved = moved
        self.store = store
        self.metrics = metrics
        self.logger = logger
        self.interval = interval
        starvation = StarvationGuard(patience: Self.patience) { [metrics] in metrics.starvedCatchUps.increment() }
    }

    /// How long a catch-up may wait for cores under the idle policy before its thread moves to
    /// the background priority: a few intervals, far beyond what one takes on cores with room
    /// (tens of milliseconds), short enough that a decision waiting for it is not held long.
    static let patience = 1.0

    /// New events were committed: apply them soon.
    func nudge() {
        condition.lock()
        dirty = true
        condition.signal()
        condition.unlock()
    }

    /// The read models in memory, brought up to the end of the log (waiting for a catch-up in
    /// progress): what a moderator's decision checks against. Nil until they are loaded.
    func current() throws -> ReadModels? {
        condition.lock()
        let live = self.live
        condition.unlock()
        return try live?.catchUp()
    }

    /// Whether the read models are loaded.
    var isLoaded: Bool {
        condition.lock()
        defer { condition.unlock() }
        return live != nil
    }

    /// Why the last catch-up failed, nil when it succeeded.
    var lastFailure: String? {
        condition.lock()
        defer { condition.unlock() }
        return failure
    }

    func run() async throws {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                // It loads the read models at the server's priority, since the server is not
                // ready until they are loaded, and only then gives way (`catchUp`).
                await WorkerThread.run(named: "gtio-projector", stop: { self.stop() }) { self.loop() }
            }
            group.addTask {
                await WorkerThread.run(named: "gtio-log-watch", priority: .background, stop: { self.stop() }) { self.watchLog() }
            }
            group.addTask {
                // At the server's priority: a catch-up starved under the idle policy is rescued from here.
                await WorkerThread.run(named: "gtio-idle-guard", stop: { self.starvation.stop() }) { self.starvation.run() }
            }
        }
    }

    /// Applies what is left and ends.
    func stop() {
        condition.lock()
        stopping = true
        let watch = self.watch
        condition.broadcast()
        condition.unlock()
        watch?.close()
    }

    private var isStopping: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopping
    }

    /// Nudges the loop whenever events are committed, by this server or any other process:
    /// writers beside the server leave the tables to it while it leads, and their events would
    /// otherwise wait for the loop's idle look at the log.
    private func watchLog() {
        guard let watch = try? store.watchAppends() else { return }  // the idle look remains
        condition.lock()
        self.watch = watch
        let stopped = stopping
        condition.unlock()
        defer { watch.close() }
        if stopped { return }
        var seen = (try? store.lastSeq()) ?? 0
        while !isStopping {
            guard let last = try? watch.wait(after: seen, timeout: Self.idleCheck) else {
                Thread.sleep(forTimeInterval: Self.idleCheck)
                continue
            }
            if last > seen { nudge() }
            seen = max(seen, last)
        }
    }

    /// The most events one catch-up writes at a time: a backlog left by a load the projector
    /// could not keep up with is written in steps this size, so that the server's memory stays
    /// within its bound however far behind the read models fell.
    static let eventsPerWrite: Int64 = 65_536

    /// A backlog this small is applied without waiting for the interval.
    static let fewEvents: Int64 = 64

    /// Seconds between the loop's own looks at the log while it hears of no commit: what applies
    /// other writers' events if the watch fails (a dropped connection), and the first pause
    /// before a failed catch-up is tried again.
    static let idleCheck = 1.0

    private func loop() {
        var started = Date.distantPast
        var retry = Self.idleCheck
        var applied: Int64?
        // The guard watches the thread whenever it is not waiting here: under the idle policy
        // any of its work (a look at the log, taking the lead, a catch-up) could starve.
        while true {
            starvation.workEnded()
            condition.lock()
            // A commit of this server's wakes the loop; without one it looks at the log now and
            // then, for other writers' events and to try again after a failure (backing off).
            let failed = failure != nil
            let idleUntil = Date().addingTimeInterval(failed ? retry : Self.idleCheck)
            while !dirty && !stopping && condition.wait(until: idleUntil) {}
            // While another process leads, each idle look also asks whether it still does, so
            // that the server takes the lead as soon as that one ends, not at its next commit.
            var due = dirty || stopping || failed || deferring
            condition.unlock()
            starvation.workBegan()
            let end = try? store.lastSeq()
            if !due, let applied, let end, end != applied { due = true }
            guard due else { continue }
            // A few events (a decision, a lone request) are applied at once, since someone may
            // wait for them: a decision beside the server waits for the tables to take the one
            // before it. More wait for the interval, so that a stream of commits is applied in
            // fewer, larger catch-ups.
            let few = applied.flatMap { applied in end.map { $0 - applied <= Self.fewEvents } } ?? false
            starvation.workEnded()
            condition.lock()
            let next = started.addingTimeInterval(interval)
            while !few && !stopping && condition.wait(until: next) {}
            let last = stopping
            dirty = false
            condition.unlock()
            starvation.workBegan()
            started = Date()
            applied = catchUp()
            // After a failure, the next try comes in a second, then in 2, 4 … up to a minute.
            retry = applied == nil && failed ? min(retry * 2, 60) : Self.idleCheck
            if last { break }
        }
        lease?.release()
        lease = nil
        starvation.workEnded()
    }

    /// Whether this server applies the log to the tables: it holds the projector's lead, or
    /// takes it now that no other process does. False while another process leads.
    private func leads() throws -> Bool {
        if let lease, lease.isHeld { return true }
        lease?.release()
        lease = try store.lead(ReadModelFollower.role)
        return lease != nil
    }

    /// Brings the tables up to the end of the log, unless another process leads them; the seq
    /// they reached, nil when the catch-up failed.
    private func catchUp() -> Int64? {
        do {
            let models: LiveReadModels
            condition.lock()
            let existing = live
            condition.unlock()
            if let existing {
                models = existing
            } else {
                let started = Date()
                models = try LiveReadModels(store: store)
                models.eventsPerWrite = Self.eventsPerWrite
                models.giveWay = giveWay
                logger.info("read models loaded", metadata: ["seconds": "\(Date().timeIntervalSince(started))"])
                // Loaded: from now on the catch-ups may lag, and give way to commits and requests.
                ThreadPriority.moveCallingThreadToBackground()
                if starvation.enter() {
                    logger.info("read models: catch-ups run under the idle policy, at nice \(ThreadPriority.backgroundNice) once one waits \(Self.patience) s for cores")
                }
            }
            let led = try !leads()
            condition.lock()
            let wasDeferring = deferring
            deferring = led
            condition.unlock()
            if led != wasDeferring {
                logger.info(led ? "read models: left to the projector that leads" : "read models: applied by this server again")
            }
            let appliedSeq = led ? try StoredReadModels(source: store).lastSeq : try models.catchUp().state.lastSeq
            moved()
            condition.lock()
            live = models
            failure = nil
            condition.unlock()
            metrics.readModelLag.record(max(0, try store.lastSeq() - appliedSeq))
            return appliedSeq
        } catch {
            condition.lock()
            failure = "\(error)"
            condition.unlock()
            logger.error("read models could not catch up", metadata: ["error": "\(error)"])
            return nil
        }
    }
}
