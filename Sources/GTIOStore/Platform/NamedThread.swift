import Foundation

/// Threads under names the system shows (`top -H`, `perf`, `/proc/<pid>/task`), so that an
/// operator looking at a busy server can tell its threads apart.
public enum NamedThread {
    /// Starts `body` on a new thread named `name`: at most 15 bytes, Linux's limit. A named
    /// thread serves the whole process, so it does not keep the idle policy of a thread that
    /// happened to start it (`ThreadPriority.leaveInheritedIdle`).
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
