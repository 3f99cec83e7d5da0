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
