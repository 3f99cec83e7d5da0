import Synchronization

/// Ctrl-C while a query runs: the console's signal handler raises this, and long scans of the
/// log check it and stop with `StoreError.interrupted`, so the session goes on.
public enum Interruption {
    private static let flag = Atomic<Bool>(false)

    /// Called from a signal handler: an atomic store, nothing else.
    public static func request() { flag.store(true, ordering: .relaxed) }
    public static func reset() { flag.store(false, ordering: .relaxed) }
    public static var isRequested: Bool { flag.load(ordering: .relaxed) }
}
