import Foundation
import GTIOStore
import ServiceLifecycle

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

    /// - Parameter name: at most 15 bytes, Linux's limit for a thread's name.
    static func run(
        named name: String, priority: Priority = .normal, stop: @escaping @Sendable () -> Void,
        _ loop: @escaping @Sendable () -> Void
    ) async {
        await withGracefulShutdownHandler {
            await withTaskCancellationHandler {
                await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
                    NamedThread.start(name) {
                        if priority == .background { ThreadPriority.moveCallingThreadToBackground() }
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
}
