import Foundation
import GRDB
import GTIOTestSupport
import Testing
import GTIOStore
@testable import GTIOStoreSQLite

@Suite struct StoreOpeningTests {
    let folder = TemporaryDirectory()

    @Test func aMissingFolderIsNamed() {
        let path = folder.file("nope/log.gtio")
        #expect(throws: StoreError.folderMissing(path: path, folder: folder.file("nope"))) { try SQLiteStore(path: path) }
    }

    @Test func aFileThatIsNotSQLiteIsRefusedUntouched() throws {
        let path = folder.write("notes.txt", "dear diary\n")
        #expect(throws: StoreError.notADatabase(path: path)) { try SQLiteStore(path: path) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "dear diary\n")
    }

    @Test func anotherSQLiteDatabaseIsRefusedUntouched() throws {
        let path = folder.file("other.db")
        let other = try DatabaseQueue(path: path)
        try other.write { try $0.execute(sql: "CREATE TABLE recipes (name TEXT)") }
        try other.close()
        #expect(throws: StoreError.notAGTIOStore(path: path)) { try SQLiteStore(path: path) }
        // Not switched to WAL, no tables added.
        let check = try DatabaseQueue(path: path)
        #expect(try check.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "delete")
        #expect(try check.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sqlite_master") } == 1)
    }

    /// The tables file is attached by a URI: every byte a URI's path may not hold as it is
    /// goes percent-encoded, as Foundation's `urlPathAllowed` would have it.
    @Test func theTablesFileURIEncodesWhatFoundationWould() {
        let everyASCII = String(decoding: (1...127).map { UInt8($0) }, as: UTF8.self)
        for path in ["/tmp/plain/log.gtio-tables", "/tmp/a b/c?d#e%f.gtio-tables", "/tmp/café/日志.gtio-tables", everyASCII] {
            let foundation = "file:" + path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)! + "?mode=ro"
            #expect(TablesFile.attachURI(path) == foundation, "\(path)")
        }
        #expect(TablesFile.attachURI("/tmp/a b/c?d#e%f") == "file:/tmp/a%20b/c%3Fd%23e%25f?mode=ro")
    }

    @Test func aStoreWhosePathNeedsEncodingOpensForReading() throws {
        let path = folder.file("odd ?#% café/log.gtio")
        try FileManager.default.createDirectory(atPath: folder.file("odd ?#% café"), withIntermediateDirectories: true)
        _ = try SQLiteStore(path: path).status()
        let reader = try SQLiteStore(path: path, readOnly: true)
        #expect(try reader.readTables { try $0.hasTable("checkpoints") })
        #expect(try reader.readTables { try $0.hasTable("no_such_table") } == false)
    }

    @Test func anUnwritableFolderIsNamed() {
        // /proc exists but takes no new files, even for root.
        #expect(throws: StoreError.readOnly(path: "/proc/log.gtio")) { try SQLiteStore(path: "/proc/log.gtio") }
    }

    /// A log a newer gtio migrated further may keep more beside each event: this build reads
    /// it but refuses to append to it, rather than leave what it does not know of empty.
    @Test func aLogMigratedByANewerGtioIsReadButNotWritten() throws {
        let path = folder.file("newer.gtio")
        do {
            let store = try SQLiteStore(path: path)
            try store.pool.write { try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99 from the future')") }
        }
        #expect(throws: StoreError.newerStore(path: path)) { try SQLiteStore(path: path) }
        #expect(try SQLiteStore(path: path, readOnly: true).status().events == 0)
    }

    /// A table with a blob column keeps its rows by rowid (a look-up by key in a `WITHOUT ROWID`
    /// tree reads whole rows); one that a build before made without rowid is made again by the
    /// next writable open, its rows and indexes kept.
    @Test func tablesOfBlobsAreKeptByRowid() throws {
        let path = folder.file("blobs.gtio")
        func definition(_ store: SQLiteStore, _ name: String) throws -> String? {
            try store.pool.read { try String.fetchOne($0, sql: "SELECT sql FROM tables.sqlite_master WHERE name = ?", arguments: [name]) }
        }
        do {
            var heard: [[String]] = []
            let store = try SQLiteStore(path: path) { heard.append($0) }
            // A new store is made, not upgraded.
            #expect(heard.isEmpty)
            try store.writeTables { tx in
                try tx.create(TableLayout(name: "rm_parts", columns: [("part", .integer), ("bytes", .blob)], keyCount: 1))
                try tx.create(TableLayout(name: "rm_small", columns: [("key", .text), ("n", .integer)], keyCount: 1))
            }
            #expect(try definition(store, "rm_parts") == "CREATE TABLE rm_parts (part INTEGER, bytes BLOB, PRIMARY KEY (part))")
            #expect(try definition(store, "rm_small") == "CREATE TABLE rm_small (key TEXT, n INTEGER, PRIMARY KEY (key)) WITHOUT ROWID")
            // As a build before made it.
            try store.tablesWriter!.write { db in
                try db.execute(sql: """
                    DROP TABLE rm_parts;
                    CREATE TABLE rm_parts (part INTEGER, bytes BLOB, PRIMARY KEY (part)) WITHOUT ROWID;
                    CREATE INDEX rm_parts_bytes ON rm_parts (bytes);
                    INSERT INTO rm_parts VALUES (-1, x'ff'), (0, x'00'), (1, x'0102');
                    DELETE FROM grdb_migrations WHERE identifier = 'v2 tables of blobs kept by rowid';
                    """)
            }
        }
        var heard: [[String]] = []
        let store = try SQLiteStore(path: path) { heard.append($0) }
        #expect(heard == [["v2 tables of blobs kept by rowid"]])
        #expect(try definition(store, "rm_parts") == "CREATE TABLE rm_parts (part INTEGER, bytes BLOB, PRIMARY KEY (part))")
        #expect(try definition(store, "rm_parts_bytes") == "CREATE INDEX rm_parts_bytes ON rm_parts (bytes)")
        #expect(try definition(store, "rm_small") == "CREATE TABLE rm_small (key TEXT, n INTEGER, PRIMARY KEY (key)) WITHOUT ROWID")
        let rows = try store.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT part, hex(bytes), rowid FROM rm_parts ORDER BY part").map { "\($0[0] as Int64) \($0[1] as String) \($0[2] as Int64)" }
        }
        // The key is the rowid itself.
        #expect(rows == ["-1 FF -1", "0 00 0", "1 0102 1"])
    }

    @Test func anEmptyFileBecomesAStore() throws {
        let path = folder.write("empty.gtio", "")
        #expect(try SQLiteStore(path: path).status().events == 0)
    }

    @Test func usesWALAndItsApplicationID() throws {
        let store = try SQLiteStore(path: folder.file("log.gtio"))
        #expect(try store.pool.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")
        #expect(try store.pool.read { try Int32.fetchOne($0, sql: "PRAGMA application_id") } == 0x4754_494F)
    }

    @Test func aNewTablesFileHasLargerPagesThanTheLog() throws {
        let path = folder.file("log.gtio")
        let store = try SQLiteStore(path: path)
        #expect(try store.pool.read { try Int.fetchOne($0, sql: "PRAGMA main.page_size") } == 4096)
        #expect(try store.pool.read { try Int.fetchOne($0, sql: "PRAGMA tables.page_size") } == 16384)
        #expect(try store.tablesWriter?.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")
    }

    @Test func aTablesFileKeepsThePagesItWasMadeWith() throws {
        let path = folder.file("old.gtio")
        // A tables file as a build before made it: SQLite's default pages, in WAL.
        let old = try DatabaseQueue(path: path + "-tables")
        try old.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA page_size = 4096")
            try db.execute(sql: "PRAGMA journal_mode = WAL")
        }
        try old.close()
        let store = try SQLiteStore(path: path)
        try store.writeTables { _ in }
        #expect(try store.pool.read { try Int.fetchOne($0, sql: "PRAGMA tables.page_size") } == 4096)
    }
}
