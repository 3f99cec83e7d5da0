import Foundation
import GRDB
import GTIOStore

/// Checkpoints the log's write-ahead log on a thread and connection of its own, so that the
/// commits of a process that appends without pause (the collector) do not also copy the log's
/// new pages back into its file.
///
/// SQLite's writer checkpoints after the commit that takes the write-ahead log past 1,000
/// pages, and every request of that commit waits for it. Here a passive checkpoint, which never
/// blocks the writer, runs within `pause` of a commit. The writer keeps a checkpoint of its own
/// at `backstopPages`, which finds the pages copied already: only a checkpoint that copied every
/// page lets the next write start the write-ahead log again from its beginning, and a writer
/// that never pauses may not leave this one time to, so the backstop keeps the file bounded.
///
/// While it runs, the writer also keeps a smaller page cache. A collector's commits are small
/// and their ids wait outside the index (`RecentIDs`), so they touch few pages; and the process
/// lives for days beside a fold of the whole log, where every megabyte it holds counts against
/// its memory (docs/PERFORMANCE.md). And the index's next run of ids is read and sorted beside
/// the writer too (`RunSorter`), rather than inside the commit that starts it, and the filter
/// that spares the writer most look-ups of new ids in the index (`IDFilterLoader`).
final class WALCheckpointer: LogUpkeep, @unchecked Sendable {
    // @unchecked: `pending`, `stopping` and `completed` are only touched while holding
    // `condition`; the connection only by the checkpointing thread.

    /// The write-ahead log's pages at which the writer checkpoints while this one runs.
    static let backstopPages = 8_000
    /// Where the writer checkpoints otherwise: SQLite's default.
    static let writerPages = 1_000
    /// The writer's page cache while this one runs, in KiB (`SQLiteStore.logWriterCacheKiB` otherwise).
    static let writerCacheKiB = 8192
    /// How long the thread waits after a checkpoint before the next: commits gather meanwhile.
    static let pause = 0.01

    private let writer: DatabasePool
    private let recentIDs: RecentIDs
    private let connection: DatabaseQueue
    private let condition = NSCondition()
    private var pending = false
    private var stopping = false
    private let finished = DispatchSemaphore(value: 0)
    private var completed = 0

    /// Checkpoints that found every page of the write-ahead log copied when they ended (for tests).
    var completedCheckpoints: Int {
        condition.lock()
        defer { condition.unlock() }
        return completed
    }

    /// - Parameter recentIDs: the writer's waiting ids, whose runs are sorted aside meanwhile.
    init(path: String, writer: DatabasePool, recentIDs: RecentIDs) throws {
        self.writer = writer
        self.recentIDs = recentIDs
        connection = try DatabaseQueue(path: path)
        // On the writer's queue, where the waiting ids are touched.
        try writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_autocheckpoint = \(Self.backstopPages)")
            try db.execute(sql: "PRAGMA cache_size = -\(Self.writerCacheKiB)")
            recentIDs.runSorter = RunSorter(reader: writer)
            recentIDs.filterLoader = IDFilterLoader(reader: writer)
        }
        NamedThread.start("gtio-checkpoint") { [self] in run() }
    }

    func committed() {
        condition.lock()
        pending = true
        condition.signal()
        condition.unlock()
    }

    func stop() {
        condition.lock()
        let running = !stopping
        stopping = true
        condition.signal()
        condition.unlock()
        guard running else { return }
        finished.wait()
        _ = try? writer.writeWithoutTransaction { db in
            recentIDs.runSorter = nil
            recentIDs.filterLoader = nil
            try db.execute(sql: "PRAGMA wal_autocheckpoint = \(Self.writerPages)")
            try db.execute(sql: "PRAGMA cache_size = -\(SQLiteStore.logWriterCacheKiB)")
        }
    }

    private func run() {
        defer { finished.signal() }
        while true {
            condition.lock()
            while !pending && !stopping { condition.wait() }
            let done = stopping
            pending = false
            condition.unlock()
            if done { return }
            // A failed checkpoint (another process checkpointing, say) leaves the pages to the
            // next one or to the writer's backstop: nothing is lost either way.
            if let result = try? connection.writeWithoutTransaction({ try $0.checkpoint(.passive) }),
               result.walFrameCount == result.checkpointedFrameCount {
                condition.lock()
                completed += 1
                condition.unlock()
            }
            Thread.sleep(forTimeInterval: Self.pause)
        }
    }
}
