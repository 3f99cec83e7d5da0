import Foundation
import GRDB
import GTIOStore
import GTIOTestSupport
import Testing
@testable import GTIOStoreSQLite

/// The log's checkpoints run beside the writer while the upkeep runs (`WALCheckpointer`), and
/// the writer's own go back to SQLite's default once it stops; so does the writer's page cache.
@Suite struct WALCheckpointerTests {
    let folder = TemporaryDirectory()

    private func appendHearts(_ range: Range<Int>, to store: SQLiteStore) throws {
        _ = try store.append(batch(range.map { heart("e\($0)", user: "u\($0 % 50)", post: "p\($0 % 70)") }))
    }

    private func walSize(_ store: SQLiteStore) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: store.path + "-wal")[.size] as? Int ?? 0
    }

    private func writerCheckpointsAt(_ store: SQLiteStore) throws -> Int? {
        try store.pool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") }
    }

    /// The writer's page cache, in KiB.
    private func writerCacheKiB(_ store: SQLiteStore) throws -> Int? {
        try store.pool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA cache_size") }.map { -$0 }
    }

    @Test func theWriterKeepsASmallerCacheWhileTheUpkeepRuns() throws {
        let store = try SQLiteStore(path: folder.file("log.gtio"))
        #expect(try writerCacheKiB(store) == 32_768)
        let upkeep = try #require(try store.startUpkeepAside())
        #expect(try writerCacheKiB(store) == 8_192)
        try appendHearts(0..<100, to: store)
        upkeep.stop()
        #expect(try writerCacheKiB(store) == 32_768)
    }

    @Test func aCommitIsCheckpointedBesideTheWriterAndTheNextWriteReusesTheLog() throws {
        let store = try SQLiteStore(path: folder.file("log.gtio"))
        let upkeep = try #require(try store.startUpkeepAside() as? WALCheckpointer)
        #expect(try writerCheckpointsAt(store) == WALCheckpointer.backstopPages)

        try appendHearts(0..<600, to: store)
        let written = try walSize(store)
        #expect(written > 0)
        // A passive checkpoint copies no page past what a reader still looks at (the index's run
        // of ids is read aside, on a loaded machine slowly): as a collector's next commits would,
        // word of one is given again until a checkpoint finds every page copied.
        #expect(eventually(10) {
            upkeep.committed()
            return upkeep.completedCheckpoints >= 1
        })

        // Every page was copied into the file: the next write starts the write-ahead log over
        // rather than growing it.
        try appendHearts(600..<800, to: store)
        #expect(try walSize(store) == written)

        upkeep.stop()
        #expect(try writerCheckpointsAt(store) == WALCheckpointer.writerPages)
    }

    @Test func withoutWordOfACommitNothingIsCheckpointedBeforeTheBackstop() throws {
        let store = try SQLiteStore(path: folder.file("log.gtio"))
        let upkeep = try #require(try store.startUpkeepAside() as? WALCheckpointer)
        defer { upkeep.stop() }
        // Past SQLite's 1,000 pages, where the writer would have checkpointed and started over.
        for start in stride(from: 0, to: 24_000, by: 4_000) { try appendHearts(start..<start + 4_000, to: store) }
        let written = try walSize(store)
        #expect(written > 1_000 * 4_096)
        try appendHearts(24_000..<24_200, to: store)
        #expect(try walSize(store) > written)
        #expect(upkeep.completedCheckpoints == 0)
    }
}
