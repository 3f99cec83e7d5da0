import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The calling thread's scheduling priority against the process's other threads: work that
/// may lag gives way to work a person or a client waits for.
///
/// On Linux the nice value belongs to each thread, and threads it starts inherit it; elsewhere
/// it belongs to the whole process, and these leave it alone.
public enum ThreadPriority {
    /// The nice value of a background thread on Linux: against a thread at 0 that wants the
    /// same core it gets about a tenth of it (the scheduler weighs nice 10 at 110 and 0 at
    /// 1,024), and all of an idle core.
    public static let backgroundNice: Int32 = 10

    /// How many nice steps `raiseCallingThread` puts a thread above the process's main thread:
    /// against threads 10 steps below it that want the same core, it gets about nine tenths of it.
    public static let urgentSteps: Int32 = 10

    /// Lowers the calling thread 10 nice steps below where it is, for work beside the thread
    /// that starts it (a state encoded while tables are written, memory freed after an answer):
    /// while the cores are busy it runs on what the others leave.
    public static func lowerCallingThread() {
        #if canImport(Glibc)
        _ = nice(10)
        #endif
    }

    /// Puts the calling thread at `backgroundNice`, for a thread of its own whose work may lag
    /// (the read models' catch-ups); one already lower stays as it is (raising it back would
    /// need privileges a server does not have).
    public static func moveCallingThreadToBackground() {
        #if canImport(Glibc)
        // On Linux `PRIO_PROCESS` with 0 names the calling thread, not the whole process.
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        _ = setpriority(which, 0, max(getpriority(which, 0), backgroundNice))
        #else
        Thread.current.qualityOfService = .utility
        #endif
    }

    /// A thread that `moveCallingThreadToIdle` moved, which another thread can move back.
    public struct IdleThread: Sendable {
        /// The kernel's id of the thread. Not its `pthread_t`: glibc remembers the policy it last
        /// set through one and answers that, not what the thread set for itself since.
        fileprivate let id: pid_t
    }

    /// Linux's idle scheduling policy, which Swift's Glibc module leaves out (`<sched.h>` names
    /// it for `_GNU_SOURCE` only); its value is part of the kernel's interface.
    private static let idlePolicy: Int32 = 5

    /// Whether a thread of this process that took the idle policy may leave it again, for the
    /// background priority: Linux allows it with `CAP_SYS_NICE` or an `RLIMIT_NICE` that reaches
    /// `backgroundNice`. Asked of the kernel on a thread of its own, since a thread that took the
    /// policy without that right keeps it.
    public static let mayLeaveIdle: Bool = {
        #if os(Linux)
        nonisolated(unsafe) var left = false
        let done = DispatchSemaphore(value: 0)
        Thread {
            let which = __priority_which_t(PRIO_PROCESS.rawValue)
            _ = setpriority(which, 0, max(getpriority(which, 0), backgroundNice))
            if setPolicy(idlePolicy) { left = setPolicy(SCHED_OTHER) }
            done.signal()
        }.start()
        done.wait()
        return left
        #else
        return false
        #endif
    }()

    /// Moves the calling thread, at the background priority already, to Linux's idle policy: it
    /// then runs only on a core no other thread wants, and a thread that wakes takes its core at
    /// once, where at nice 10 it would wait for the scheduler's next turn. Done only where the
    /// process may move it back (`mayLeaveIdle`), since an idle thread gets almost nothing of
    /// cores that other work keeps busy; nil, with the thread as it was, otherwise.
    public static func moveCallingThreadToIdle() -> IdleThread? {
        #if os(Linux)
        guard mayLeaveIdle, let id = callingThreadID(), setPolicy(idlePolicy) else { return nil }
        return IdleThread(id: id)
        #else
        return nil
        #endif
    }

    /// Moves the calling thread, if it inherited the idle policy from the thread that started it,
    /// to the background priority (the normal policy at the nice value it inherited). For a
    /// helper whose starter waits for it: the starter's `StarvationGuard` moves only the starter,
    /// and a helper left under the idle policy could starve it. A process only takes the idle
    /// policy where it may leave it (`mayLeaveIdle`), so the kernel allows this.
    public static func leaveInheritedIdle() {
        #if os(Linux)
        _ = leaveIdle()
        #endif
    }

    /// Runs `body` at the background priority when the calling thread is under the idle policy,
    /// and moves it back after. For what must not wait for a core with something held that
    /// others need: on SQLite, a read of the log keeps the write-ahead log from starting over
    /// until it ends, and each commit behind it then checkpoints (docs/PERFORMANCE.md).
    public static func outsideIdle<T>(_ body: () throws -> T) rethrows -> T {
        #if os(Linux)
        guard leaveIdle() else { return try body() }
        defer { _ = setPolicy(idlePolicy) }
        #endif
        return try body()
    }

    /// Moves `idle` back from the idle policy to the background priority (the normal policy at
    /// the nice value it kept); from any thread. False when the kernel refused.
    @discardableResult
    public static func moveToBackground(_ idle: IdleThread) -> Bool {
        #if os(Linux)
        setPolicy(SCHED_OTHER, of: idle.id)
        #else
        false
        #endif
    }

    /// Moves `idle` to the idle policy again (after `moveToBackground`); from any thread.
    @discardableResult
    public static func moveToIdle(_ idle: IdleThread) -> Bool {
        #if os(Linux)
        setPolicy(idlePolicy, of: idle.id)
        #else
        false
        #endif
    }

    /// Whether `idle` is under the idle policy now; from any thread.
    public static func isIdle(_ idle: IdleThread) -> Bool {
        #if os(Linux)
        sched_getscheduler(idle.id) == idlePolicy
        #else
        false
        #endif
    }

    #if os(Linux)
    /// Puts the thread `id` (0: the calling thread) under `policy`; false when the kernel refused.
    private static func setPolicy(_ policy: Int32, of id: pid_t = 0) -> Bool {
        var parameters = sched_param()
        return sched_setscheduler(id, policy, &parameters) == 0
    }

    /// Moves the calling thread from the idle policy to the normal one; false when it was not
    /// under the idle policy, or the kernel refused.
    private static func leaveIdle() -> Bool {
        sched_getscheduler(0) == idlePolicy && setPolicy(SCHED_OTHER)
    }

    /// The calling thread's id in the kernel, read from `/proc/thread-self` (a link to
    /// `<pid>/task/<tid>`): Swift's Glibc module leaves `gettid` out.
    private static func callingThreadID() -> pid_t? {
        var link = [CChar](repeating: 0, count: 64)
        let length = readlink("/proc/thread-self", &link, link.count - 1)
        guard length > 0 else { return nil }
        let text = String(decoding: link[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.split(separator: "/").last.flatMap { pid_t($0) }
    }
    #endif

    /// Raises the calling thread's priority `urgentSteps` above the process's main thread (so a
    /// server started under `nice` keeps the operator's baseline), for the one thread every
    /// client waits for: the collector's commit thread. Linux allows it to a process with
    /// `CAP_SYS_NICE` or an `RLIMIT_NICE` that reaches that far (systemd's `LimitNICE=`); false,
    /// with the thread as it was, when it is not allowed or not supported.
    public static func raiseCallingThread() -> Bool {
        #if canImport(Glibc)
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        // The main thread's id is the process's: its nice value is the process's baseline.
        errno = 0
        let baseline = getpriority(which, id_t(getpid()))
        guard errno == 0 else { return false }
        return setpriority(which, 0, max(baseline - urgentSteps, -20)) == 0
        #else
        return false
        #endif
    }
}
