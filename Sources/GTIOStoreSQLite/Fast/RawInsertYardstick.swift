import Foundation
import GRDBSQLite

/// The ceiling any ingest on this machine works under: one plain insert loop through SQLite's C
/// API, in WAL with full sync, the same lines as TEXT with a few columns and no dedup.
/// For `gtio-bench raw-sqlite`, so that the benchmark sees no SQLite of its own.
public enum RawInsertYardstick {
    /// Inserts `lines` into a new database at `path` (replacing one there), 50,000 rows a
    /// transaction; the seconds the inserts took, nil when SQLite cannot open the file.
    public static func run(_ lines: [Data], into path: String) -> Double? {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        // The library's settings as the store runs under them.
        SQLiteLibrary.configure()
        var db: OpaquePointer?
        guard sqlite3_open(path, &db) == SQLITE_OK else { return nil }
        defer { sqlite3_close(db) }
        sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;", nil, nil, nil)
        sqlite3_exec(db, "CREATE TABLE events (seq INTEGER PRIMARY KEY, id TEXT, type TEXT, at INTEGER, original TEXT)", nil, nil, nil)
        var statement: OpaquePointer?
        sqlite3_prepare_v2(db, "INSERT INTO events VALUES (?, ?, ?, ?, ?)", -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        let start = DispatchTime.now().uptimeNanoseconds
        sqlite3_exec(db, "BEGIN", nil, nil, nil)
        for (index, line) in lines.enumerated() {
            if index > 0 && index % 50_000 == 0 { sqlite3_exec(db, "COMMIT; BEGIN", nil, nil, nil) }
            sqlite3_bind_int64(statement, 1, Int64(index + 1))
            line.withUnsafeBytes { raw in
                let base = raw.baseAddress!.assumingMemoryBound(to: CChar.self)
                sqlite3_bind_text(statement, 2, base + 7, 13, transient)
                sqlite3_bind_text(statement, 3, base + 30, 10, transient)
                sqlite3_bind_int64(statement, 4, Int64(index))
                sqlite3_bind_text(statement, 5, base, Int32(raw.count), transient)
            }
            sqlite3_step(statement)
            sqlite3_reset(statement)
        }
        sqlite3_exec(db, "COMMIT", nil, nil, nil)
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
}
