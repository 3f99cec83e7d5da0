import Foundation

/// Runs a thread's work under Linux's idle policy without letting it starve.
///
/// Under the idle policy a thread only runs on a core that no other thread wants, and a thread
/// that wakes takes that core at once: work that may lag (the server's read-model catch-ups)
/// then delays the work clients wait for least (docs/PERFORMANCE.md). But an idle thread gets
/// almost nothing of cores that other work keeps busy (another process's rebuild, a report), and
/// its work, and whoever waits for it, would stall for as long. So when a piece of work has
/// lasted `patience`, the guard moves the thread to the background priority (nice 10, which
/// gets a share of busy cores), and the thread takes the idle policy again once that piece is
/// done.
public final class StarvationGuard: @unchecked Sendable {
    // @unchecked: every stored property but `patience` and `starved` is only touched while
    // holding `condition`.
    private let condition = NSCondition()
    private var idle: ThreadPriority.IdleThread?
    /// When the work in progress began, nil between pieces of work.
    private var began: Date?
    /// Whether the thread is at the background priority because its work outlasted `patience`.
    private var rescued = false
    private var stopping = false
    private var rescues = 0

    /// How long a piece of work may last before its thread leaves the idle policy.
    public let patience: Double
    private let starved: @Sendable () -> Void

    /// - Parameter starved: called each time a piece of work outlasted `patience` under the idle
    ///   policy (the server counts them for `/metrics`).
    public init(patience: Double, starved: @escaping @Sendable () -> Void = {}) {
        self.patience = patience
        self.starved = starved
    }

    /// Moves the calling thread, at the background priority already, to the idle policy, where
    /// the process may also move it back; false, with the thread as it was, otherwise.
    public func enter() -> Bool {
        guard let thread = ThreadPriority.moveCallingThreadToIdle() else { return false }
        condition.lock()
        idle = thread
        // Work under way (loading, at the thread's earlier priority) counts from now.
        if began != nil { began = Date() }
        condition.signal()
        condition.unlock()
        return true
    }

    /// How many pieces of work had their thread moved out of the idle policy.
    public var rescueCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return rescues
    }

    /// A piece of work begins on the guarded thread.
    public func workBegan() {
        condition.lock()
        began = Date()
        condition.signal()
        condition.unlock()
    }

    /// The piece of work ended: a rescued thread (the caller) goes back to the idle policy.
    public func workEnded() {
        condition.lock()
        defer { condition.unlock() }
        began = nil
        if rescued, let idle, ThreadPriority.moveToIdle(idle) { rescued = false }
        condition.signal()
    }

    /// How often the guard looks again at a thread it moved while that work goes on.
    static let recheck = 0.05

    /// Watches the guarded thread's work until `stop`. Runs on a thread of normal priority, which
    /// one starved under the idle policy could not be.
    public func run() {
        condition.lock()
        defer { condition.unlock() }
        while !stopping {
            guard let idle, let began else {
                condition.wait()
                continue
            }
            if rescued {
                // The work goes on. A read outside the idle policy (`ThreadPriority.outsideIdle`)
                // that was under way when the thread was moved puts it back under the policy as
                // it ends: keep it out until the work ends.
                if ThreadPriority.isIdle(idle) { ThreadPriority.moveToBackground(idle) }
                _ = condition.wait(until: Date().addingTimeInterval(Self.recheck))
                continue
            }
            let deadline = began.addingTimeInterval(patience)
            if Date() < deadline {
                _ = condition.wait(until: deadline)
                continue
            }
            if ThreadPriority.moveToBackground(idle) {
                rescued = true
                rescues += 1
                starved()
            } else {
                // The kernel refused what it allowed when the thread entered: stop guarding
                // rather than ask again and again.
                self.idle = nil
            }
        }
    }

    public func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }
}
