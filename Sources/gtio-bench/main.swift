// Benchmarks that compare the ingest path with its parts and with SQLite at its rawest.
// Usage: gtio-bench validate FILE | gtio-bench raw-sqlite FILE STORE
import Foundation
import GRDBSQLite
import GTIOCatalog

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func lines(of path: String) -> [Data] {
    guard let data = FileManager.default.contents(atPath: path) else {
        FileHandle.standardError.write("gtio-bench: cannot read \(path)\n".data(using: .utf8)!)
        exit(2)
    }
    return data.split(separator: UInt8(ascii: "\n"))
}

/// Parse and validate only: the producer side of ingest.
func validate(_ path: String) {
    let all = lines(of: path)
    let bytes = all.reduce(0) { $0 + $1.count }
    var valid = 0
    let elapsed = seconds {
        for line in all {
            line.withUnsafeBytes { raw in
                if case .success = EventValidator.validate(raw.bindMemory(to: UInt8.self)) { valid += 1 }
            }
        }
    }
    print(String(format: "validate: %d lines (%d valid) in %.2f s: %.0f lines/s, %.1f MB/s",
                 all.count, valid, elapsed, Double(all.count) / elapsed, Double(bytes) / 1e6 / elapsed))
}

/// One plain insert loop through the C API, WAL, the same lines as TEXT with a few columns
/// and no dedup: the ceiling any ingest on this machine works under.
func rawSQLite(_ path: String, store: String) {
    let all = lines(of: path)
    unlink(store); unlink(store + "-wal"); unlink(store + "-shm")
    var db: OpaquePointer?
    guard sqlite3_open(store, &db) == SQLITE_OK else { exit(1) }
    sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;", nil, nil, nil)
    sqlite3_exec(db, "CREATE TABLE events (seq INTEGER PRIMARY KEY, id TEXT, type TEXT, at INTEGER, original TEXT)", nil, nil, nil)
    var statement: OpaquePointer?
    sqlite3_prepare_v2(db, "INSERT INTO events VALUES (?, ?, ?, ?, ?)", -1, &statement, nil)
    let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    let elapsed = seconds {
        sqlite3_exec(db, "BEGIN", nil, nil, nil)
        for (index, line) in all.enumerated() {
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
    }
    sqlite3_finalize(statement)
    sqlite3_close(db)
    print(String(format: "raw SQLite insert loop: %d rows in %.2f s: %.0f rows/s", all.count, elapsed, Double(all.count) / elapsed))
}

let arguments = CommandLine.arguments
switch (arguments.count, arguments.count > 1 ? arguments[1] : "") {
case (3, "validate"): validate(arguments[2])
case (4, "raw-sqlite"): rawSQLite(arguments[2], store: arguments[3])
default:
    FileHandle.standardError.write("usage: gtio-bench validate FILE | gtio-bench raw-sqlite FILE STORE\n".data(using: .utf8)!)
    exit(2)
}
