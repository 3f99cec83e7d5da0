import Foundation

/// Threads under names the system shows (`top -H`, `perf`, `/proc/<pid>/task`), so that an
/// operator looking at a busy server can tell its threads apart.
public enum NamedThread {
    /// Starts `body` on a new thread named `name`: at most 15 bytes, Linux's limit. It does not
    /// keep the idle policy of the thread that started it (`ThreadPriority.leaveInheritedIdle`):
    /// a helper its starter waits for would starve the starter where the starter's
    /// `StarvationGuard` cannot see it, and a thread that serves the whole process would keep a
    /// policy chosen for one piece of work.
    public static func start(_ name: String, _ body: @escaping @Sendable () -> Void) {
        precondition(name.utf8.count <= 15, "a thread's name is at most 15 bytes: \(name)")
        let thread = Thread {
            ThreadPriority.leaveInheritedIdle()
            nameCallingThread(name)
            body()
        }
        thread.name = name
        thread.start()
    }

    /// Names the calling thread as the system shows it. On Linux, Foundation's `Thread.name`
    /// did not always reach the system's thread, which then kept the name of the thread that
    /// started it; and `pthread_setname_np` is not visible to Swift there, so the thread's
    /// `comm` file takes the name.
    private static func nameCallingThread(_ name: String) {
        #if os(Linux)
        try? Data(name.utf8).write(to: URL(fileURLWithPath: "/proc/thread-self/comm"))
        #else
        Thread.current.name = name
        #endif
    }
}
