import Foundation
import Synchronization

/// How many events this process has read from the log by scanning it: a fold, a catch-up or a
/// rebuild adds to it, an answer read from the read-model tables does not. `gtio` prints it on
/// exit when `GTIO_SCAN_STATS=1`, which is how the tests show that a query on an up-to-date store
/// folds nothing.
/// It also counts the fold states read back from the store, which stand for folding the log up
/// to their seq and cost what the state weighs.
public enum LogScanCounter {
    private static let scanned = Atomic<Int>(0)
    private static let states = Atomic<Int>(0)

    /// Whether this process reports what it scanned (`GTIO_SCAN_STATS=1`).
    public static var isReported: Bool { ProcessInfo.processInfo.environment["GTIO_SCAN_STATS"] == "1" }

    /// Events scanned so far.
    public static var events: Int { scanned.load(ordering: .relaxed) }

    /// Saved fold states read back so far.
    public static var foldStates: Int { states.load(ordering: .relaxed) }

    package static func add(_ count: Int) {
        scanned.add(count, ordering: .relaxed)
    }

    package static func addFoldState() {
        states.add(1, ordering: .relaxed)
    }
}
