import Foundation

/// Work begun on a thread of its own, whose outcome its starter takes when it needs it, so that
/// two passes over a store run on two cores.
///
/// The starter must take the outcome (`outcome()`) before anything the work reads goes away:
/// the thread is not otherwise waited for.
public final class WorkAside<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `result` is written once by the thread, before `finished` is signalled, and
    // read only after a wait on it.
    private let finished = DispatchSemaphore(value: 0)
    private var result: Result<Value, any Error>?

    /// Starts `work` on a thread named `name` (at most 15 bytes).
    public init(named name: String, _ work: @escaping @Sendable () throws -> Value) {
        NamedThread.start(name) { [self] in
            result = Result { try work() }
            finished.signal()
        }
    }

    /// Waits for the work to end: its value, or its error thrown. May be asked again.
    public func outcome() throws -> Value {
        finished.wait()
        defer { finished.signal() }
        return try result!.get()
    }
}
