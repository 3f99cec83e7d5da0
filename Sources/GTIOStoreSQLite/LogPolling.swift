import Foundation
import GRDB
import GTIOStore
import Synchronization

/// Word of new events on an SQLite store, by asking SQLite every few milliseconds whether
/// another connection committed to the log's file: SQLite tells no other process of a commit.
///
/// The question is `PRAGMA data_version` on a connection of the watch's own, whose answer
/// changes only when another connection committed to the log's file; the log's end is read only
/// then. Reading the end at every poll, through the store's pool, kept an idle `gtio project
/// --follow` at ~1.5 % of a core (docs/PERFORMANCE.md).
final class LogPolling: AppendWatch {
    private let store: SQLiteStore
    private let interval: Double
    private let closed = Atomic<Bool>(false)
    /// Asks `data_version`; a `DatabaseQueue` serializes its own use.
    private let connection: DatabaseQueue
    /// The version when the log's end was last read, and that end.
    private let seen = Mutex<(version: Int64, last: Int64)?>(nil)

    init(store: SQLiteStore, interval: Double = 0.02) throws {
        self.store = store
        self.interval = interval
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(300)
        do {
            connection = try DatabaseQueue(path: store.path, configuration: configuration)
        } catch let error as DatabaseError {
            throw SQLiteStore.translate(error, path: store.path)
        }
    }

    func wait(after seq: Int64, timeout: Double) throws -> Int64 {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let last = try lastSeq()
            if last > seq || closed.load(ordering: .relaxed) || Date() >= deadline { return last }
            Thread.sleep(forTimeInterval: min(interval, max(0, deadline.timeIntervalSinceNow)))
        }
    }

    /// The log's end, read again only when another connection committed since it was last read.
    private func lastSeq() throws -> Int64 {
        // The version is asked before the end is read: a commit between the two shows in the
        // next version, and the end is read again then.
        let version: Int64
        do {
            version = try connection.inDatabase { db in
                try Int64.fetchOne(db.cachedStatement(sql: "PRAGMA data_version")) ?? 0
            }
        } catch let error as DatabaseError {
            throw SQLiteStore.translate(error, path: store.path)
        }
        if let seen = seen.withLock({ $0 }), seen.version == version { return seen.last }
        let last = try store.lastSeq()
        seen.withLock { $0 = (version, last) }
        return last
    }

    func close() { closed.store(true, ordering: .relaxed) }
}
