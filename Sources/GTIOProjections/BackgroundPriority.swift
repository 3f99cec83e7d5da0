#if canImport(Glibc)
import Glibc
#endif

/// A lower scheduling priority for work that may wait while other threads of the process may not.
enum BackgroundPriority {
    /// Lowers the calling thread's priority by 10 nice steps, so that while the cores are busy
    /// it runs on what the process's other threads leave. On Linux the nice value belongs to
    /// each thread, and threads it starts inherit it; elsewhere (where it belongs to the whole
    /// process) this does nothing.
    static func lowerCallingThread() {
        #if canImport(Glibc)
        _ = nice(10)
        #endif
    }
}
