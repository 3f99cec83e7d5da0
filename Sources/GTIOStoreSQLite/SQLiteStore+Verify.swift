import Foundation
import GRDB
import GTIOStore
import GRDBSQLite

extension SQLiteStore {
    /// Hashes every stored event after `seq` in seq order, straight from SQLite's column bytes
    /// (no Swift strings), calling `body` with each seq, the hash the chain gives it, and the
    /// hash stored with it (nil before the chain existed, or when it is missing).
    static func chainStoredEvents(
        after seq: Int64, from previous: [UInt8], in db: Database,
        _ body: (Int64, [UInt8], UnsafeRawBufferPointer?) throws -> Bool
    ) throws {
        let hasHashColumn = try db.columns(in: "events").contains { $0.name == "hash" }
        let statement = try db.makeStatement(sql: """
            SELECT seq, id, type, at, recorded, user, device, v, subject, object, value, flag, number, text, original, batch\(hasHashColumn ? ", hash" : "")
            FROM events WHERE seq > ? ORDER BY seq
            """)
        let handle = statement.sqliteStatement
        sqlite3_bind_int64(handle, 1, seq)
        let lists = try db.makeStatement(sql: "SELECT user FROM event_lists WHERE seq = ? ORDER BY position")
        var chain = EventHashChain()
        var hash = previous
        func text(_ column: Int32) {
            guard let pointer = sqlite3_column_text(handle, column) else { return chain.null() }
            chain.text(UnsafeRawBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(handle, column))))
        }
        func integer(_ column: Int32) {
            chain.integer(sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : sqlite3_column_int64(handle, column))
        }
        while try nextRow(handle, in: db) {
            let seq = sqlite3_column_int64(handle, 0)
            chain.begin()
            text(1); text(2); integer(3); text(5); text(6); integer(7); text(8); text(9); text(10); integer(11)
            chain.number(sqlite3_column_type(handle, 12) == SQLITE_NULL ? nil : sqlite3_column_double(handle, 12))
            text(13); text(14)
            let isShown = sqlite3_column_bytes(handle, 2) == 14
                && memcmp(sqlite3_column_text(handle, 2), "quickadd.shown", 14) == 0
            let list = isShown ? try String.fetchAll(lists, arguments: [seq]) : []
            chain.integer(Int64(list.count))
            for user in list { chain.text(user) }
            hash = chain.finish().withUnsafeBytes { digest in
                EventHashChain.link(
                    after: hash, seq: seq, recorded: sqlite3_column_int64(handle, 4), batch: sqlite3_column_int64(handle, 15),
                    digest: digest)
            }
            let stored = hasHashColumn && sqlite3_column_type(handle, 16) == SQLITE_BLOB
                ? UnsafeRawBufferPointer(start: sqlite3_column_blob(handle, 16), count: Int(sqlite3_column_bytes(handle, 16)))
                : nil
            guard try body(seq, hash, stored) else { return }
        }
    }

    /// Walks the whole log: a gap in seq, a missing or wrong hash, or a log shorter than its
    /// batches say, reported at the first seq where it happens.
    public func verify(progress: (Int64) -> Void ) throws -> LogVerdict {
        try readDatabase { db in
            var expected: Int64 = 1
            var head = EventHashChain.genesis
            var verdict: LogVerdict?
            try SQLiteStore.chainStoredEvents(after: 0, from: EventHashChain.genesis, in: db) { seq, hash, stored in
                if seq != expected {
                    verdict = .broken(seq: expected, problem: "missing: the log jumps from seq \(expected - 1) to \(seq)")
                    return false
                }
                guard let stored else {
                    verdict = .broken(seq: seq, problem: "no hash recorded for this event")
                    return false
                }
                if !stored.elementsEqual(hash) {
                    verdict = .broken(seq: seq, problem: "changed: its content does not match the hash chain")
                    return false
                }
                if seq & 0xFFFF == 0 { progress(seq) }
                head = hash
                expected += 1
                return true
            }
            if let verdict { return verdict }
            if let odd = try Int64.fetchOne(db, sql: "SELECT MIN(seq) FROM events WHERE seq <= 0") {
                return .broken(seq: odd, problem: "inserted: no event is ever appended at a seq below 1")
            }
            let last = expected - 1
            let batchesEnd = try Int64.fetchOne(db, sql: "SELECT IFNULL(MAX(last_seq), 0) FROM batches") ?? 0
            if batchesEnd > last {
                return .broken(seq: last + 1, problem: "missing: batches appended up to seq \(batchesEnd) but the log ends at \(last)")
            }
            return .intact(events: last, head: head)
        }
    }
}
