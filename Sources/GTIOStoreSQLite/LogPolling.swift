import Foundation
import GTIOStore
import Synchronization

/// Word of new events on an SQLite store, by reading the log's last seq every few
/// milliseconds: SQLite tells no other process of a commit, and the read costs microseconds.
final class LogPolling: AppendWatch {
    private let store: SQLiteStore
    private let interval: Double
    private let closed = Atomic<Bool>(false)

    init(store: SQLiteStore, interval: Double = 0.02) {
        self.store = store
        self.interval = interval
    }

    func wait(after seq: Int64, timeout: Double) throws -> Int64 {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let last = try store.lastSeq()
            if last > seq || closed.load(ordering: .relaxed) || Date() >= deadline { return last }
            Thread.sleep(forTimeInterval: min(interval, max(0, deadline.timeIntervalSinceNow)))
        }
    }

    func close() { closed.store(true, ordering: .relaxed) }
}
