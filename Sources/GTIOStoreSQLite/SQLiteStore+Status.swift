import Foundation
import GRDB
import GTIOStore
import GTIOCatalog

extension SQLiteStore {
    /// Counts and extents of the log, its quarantine and its consumers.
    public func status() throws -> StoreStatus {
        try readDatabase { db in
            let row = try Row.fetchOne(db, sql: "SELECT COUNT(*), IFNULL(MAX(seq), 0), MIN(at), MAX(at) FROM events")!
            let firstAt: Int64? = row[2], lastAt: Int64? = row[3]
            let checkpoints = try Row.fetchAll(db, sql: "SELECT name, seq FROM checkpoints ORDER BY name")
                .map { (name: $0[0] as String, seq: $0[1] as Int64) }
            return StoreStatus(
                path: path,
                events: row[0],
                lastSeq: row[1],
                firstAt: firstAt.map(Timestamp.init(milliseconds:)),
                lastAt: lastAt.map(Timestamp.init(milliseconds:)),
                batches: try Int64.fetchOne(db, sql: "SELECT COUNT(*) FROM batches") ?? 0,
                quarantined: try Int64.fetchOne(db, sql: "SELECT COUNT(*) FROM quarantine WHERE status = 'open'") ?? 0,
                sizeBytes: fileSize(path) + fileSize(path + "-wal"),
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
            // One look-up per type in the (type, at) index for each end.
            var first: Int64?, last: Int64?
            for type in EventType.allCases {
                if let low = try Int64.fetchOne(db, sql: "SELECT MIN(at) FROM events WHERE type = ?", arguments: [type.rawValue]),
                   atMost.map({ low <= $0 }) ?? true {
                    first = min(first ?? low, low)
                }
                let high = try atMost.map {
                    try Int64.fetchOne(db, sql: "SELECT MAX(at) FROM events WHERE type = ? AND at <= ?", arguments: [type.rawValue, $0])
                } ?? Int64.fetchOne(db, sql: "SELECT MAX(at) FROM events WHERE type = ?", arguments: [type.rawValue])
                if let high { last = max(last ?? high, high) }
            }
            guard let first, let last else { return nil }
            return first...last
        }
    }
}
