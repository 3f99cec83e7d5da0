import Foundation
import GRDB
import GTIOStore
import GTIOCatalog

extension SQLiteStore {
    /// Counts and extents of the log, its quarantine and its consumers.
    ///
    /// Each end of the log is one look-up in an index, so status costs the same at any size:
    /// the append refuses a gap in `seq`, and nothing deletes an event, so the count is the
    /// span of `seq`.
    public func status() throws -> StoreStatus {
        try readDatabase { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT (SELECT MIN(seq) FROM events), (SELECT MAX(seq) FROM events),
                       (SELECT MIN(at) FROM events), (SELECT MAX(at) FROM events)
                """)!
            let firstSeq: Int64? = row[0], lastSeq: Int64? = row[1]
            let firstAt: Int64? = row[2], lastAt: Int64? = row[3]
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
                sizeBytes: [path, path + "-wal", tablesPath, tablesPath + "-wal"].reduce(0) { $0 + fileSize($1) },
                checkpoints: checkpoints)
        }
    }

    private func fileSize(_ path: String) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
    }
}

extension SQLiteStore {
    public func timeExtent(throughSeq: Int64?, atMost: Int64?) throws -> ClosedRange<Int64>? {
        try readDatabase { db in
            if let throughSeq {
                // No index orders events by time within a seq range: a scan, for at-seq views only.
                var sql = "SELECT MIN(at), MAX(at) FROM events WHERE seq <= ?"
                var arguments: StatementArguments = [throughSeq]
                if let atMost { sql += " AND at <= ?"; arguments += [atMost] }
                let row = try Row.fetchOne(db, sql: sql, arguments: arguments)!
                guard let first: Int64 = row[0], let last: Int64 = row[1] else { return nil }
                return first...last
            }
            // Each end is one look-up in the index on `at`.
            let first = try Int64.fetchOne(db, sql: "SELECT MIN(at) FROM events")
            let last = try atMost.map { try Int64.fetchOne(db, sql: "SELECT MAX(at) FROM events WHERE at <= ?", arguments: [$0]) }
                ?? Int64.fetchOne(db, sql: "SELECT MAX(at) FROM events")
            guard let first, let last, first <= last else { return nil }
            return first...last
        }
    }
}
