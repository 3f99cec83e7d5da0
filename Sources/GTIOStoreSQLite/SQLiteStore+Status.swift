import Foundation
import GRDB
import GTIOStore
import GTIOCatalog

extension SQLiteStore {
    /// Counts and extents of the log, its quarantine and its consumers.
    ///
    /// Each end of the log is a look-up in the `seq` key or a search of one day's entries, so
    /// status costs about the same at any size: the append refuses a gap in `seq`, and nothing
    /// deletes an event, so the count is the span of `seq`.
    public func status() throws -> StoreStatus {
        try readDatabase { db in
            let row = try Row.fetchOne(db, sql: "SELECT (SELECT MIN(seq) FROM events), (SELECT MAX(seq) FROM events)")!
            let firstSeq: Int64? = row[0], lastSeq: Int64? = row[1]
            let times = try EventDays.timeExtent(throughSeq: nil, atMost: nil, in: db)
            let firstAt = times?.lowerBound, lastAt = times?.upperBound
            let checkpoints = try Row.fetchAll(db, sql: "SELECT name, seq FROM checkpoints ORDER BY name")
                .map { (name: $0[0] as String, seq: $0[1] as Int64) }
            return StoreStatus(
                path: path,
                events: firstSeq.flatMap { first in lastSeq.map { $0 - first + 1 } } ?? 0,
                lastSeq: lastSeq ?? 0,
                firstAt: firstAt.map(Timestamp.init(milliseconds:)),
                lastAt: lastAt.map(Timestamp.init(milliseconds:)),
                batches: try Int64.fetchOne(db, sql: "SELECT COUNT(*) FROM batches") ?? 0,
                quarantined: try Int64.fetchOne(db, sql: "SELECT COUNT(*) FROM quarantine WHERE status = 'open'") ?? 0,
                sizeBytes: [path, path + "-wal", tablesPath, tablesPath + "-wal"].reduce(0) { $0 + (FileSize.of($1) ?? 0) },
                checkpoints: checkpoints)
        }
    }
}

extension SQLiteStore {
    public func timeExtent(throughSeq: Int64?, atMost: Int64?) throws -> ClosedRange<Int64>? {
        try readDatabase { db in try EventDays.timeExtent(throughSeq: throughSeq, atMost: atMost, in: db) }
    }
}
