import Foundation
import ServiceLifecycle

/// A service's loop on a thread of its own, because it makes blocking store calls that must not
/// hold a thread of Swift's cooperative pool: runs `loop` until it returns, asking it to end
/// with `stop` on graceful shutdown or cancellation.
enum WorkerThread {
    static func run(named name: String, stop: @escaping @Sendable () -> Void, _ loop: @escaping @Sendable () -> Void) async {
        await withGracefulShutdownHandler {
            await withTaskCancellationHandler {
                await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
                    let thread = Thread {
                        loop()
                        finished.resume()
                    }
                    thread.name = name
                    thread.start()
                }
            } onCancel: {
                stop()
            }
        } onGracefulShutdown: {
            stop()
        }
    }
}
