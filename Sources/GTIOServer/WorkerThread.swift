import Foundation
import GTIOStore
import ServiceLifecycle

#if canImport(Glibc)
import Glibc
#endif

/// A service's loop on a thread of its own, because it makes blocking store calls that must not
/// hold a thread of Swift's cooperative pool: runs `loop` until it returns, asking it to end
/// with `stop` on graceful shutdown or cancellation.
enum WorkerThread {
    /// How the loop's thread competes for the cores with the server's other threads.
    enum Priority {
        case normal
        /// Runs on what the rest leaves: work that may lag (the read models' catch-ups) gives way
        /// to work a client waits for (commits, requests). The threads it starts inherit it.
        case background
    }

    /// The nice value of a `background` thread on Linux, where it is per thread: against a
    /// thread at 0 that wants the same core it gets about a tenth of it (the scheduler weighs
    /// nice 10 at 110 and 0 at 1,024), and all of an idle core.
    static let backgroundNice: Int32 = 10

    /// How many nice steps `raiseCallingThread` puts a thread above the process's main thread:
    /// against threads 10 steps below it that want the same core, it gets about nine tenths of it.
    static let urgentSteps: Int32 = 10

    /// - Parameter name: at most 15 bytes, Linux's limit for a thread's name.
    static func run(
        named name: String, priority: Priority = .normal, stop: @escaping @Sendable () -> Void,
        _ loop: @escaping @Sendable () -> Void
    ) async {
        await withGracefulShutdownHandler {
            await withTaskCancellationHandler {
                await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
                    NamedThread.start(name) {
                        if priority == .background { lowerCallingThread() }
                        loop()
                        finished.resume()
                    }
                }
            } onCancel: {
                stop()
            }
        } onGracefulShutdown: {
            stop()
        }
    }

    /// Raises the calling thread's scheduling priority `urgentSteps` above the process's main
    /// thread (so a server started under `nice` keeps the operator's baseline), for the one
    /// thread every client waits for: the commit thread. Linux allows it to a process with
    /// `CAP_SYS_NICE` or an `RLIMIT_NICE` that reaches that far (systemd's `LimitNICE=`); false,
    /// with the thread as it was, when it is not allowed or not supported.
    static func raiseCallingThread() -> Bool {
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

    /// Lowers the calling thread's scheduling priority; one already lower stays as it is (raising
    /// it back would need privileges the server does not have).
    private static func lowerCallingThread() {
        #if canImport(Glibc)
        // On Linux `PRIO_PROCESS` with 0 names the calling thread, not the whole process.
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        _ = setpriority(which, 0, max(getpriority(which, 0), backgroundNice))
        #else
        Thread.current.qualityOfService = .utility
        #endif
    }
}
