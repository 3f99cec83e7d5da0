import Foundation
import GRDB
import GTIOCatalog
import GTIOTestSupport
import Testing
import GTIOStore
@testable import GTIOStoreSQLite

/// What the SQLite backend adds to the shared store suite: its own guards, seen from SQL.
@Suite struct SQLiteStoreTests {
    let folder = TemporaryDirectory()

    func store() throws -> SQLiteStore { try SQLiteStore(path: folder.file("log.gtio")) }

    @Test func theTypedColumnsArePlainSQLForAnalysts() throws {
        let store = try store()
        _ = try store.append(batch(try SharedFiles.exampleLines.map { try EventValidator.validate($0).get() }))
        let row = try store.pool.read { db in
            try Row.fetchOne(db, sql: "SELECT type, at, user, subject, value, flag FROM events WHERE type = 'post.created'")!
        }
        #expect(row[0] == "post.created")
        #expect(row[1] == Timestamp(rfc3339: "2012-04-24T12:10:50.283Z")!.milliseconds)
        #expect(row[2] == "ua4b66f8c")
        #expect(row[3] == "p2545f4914f6d")
        #expect(row[4] == "outfit")
        #expect(row[5] == 1)
    }

    /// A view's tables in memory fail as a store does, with a store error naming SQLite's
    /// reason, not with GRDB's own error type (which nothing above the store may see).
    @Test func aViewsTablesInMemoryFailWithStoreErrors() throws {
        let tables = try SQLiteStore.memoryTables()
        do {
            _ = try tables.readTables { try $0.rows("SELECT post FROM rm_nothing", []) }
            Issue.record("a missing table was read")
        } catch let error as StoreError {
            #expect("\(error)" == "store error: a view's tables in memory: no such table: rm_nothing")
        }
        #expect(throws: StoreError.self) { try tables.writeTables { try $0.deleteAll(from: "rm_nothing") } }
    }

    @Test func theDatabaseRefusesUpdatesDeletesAndGaps() throws {
        let store = try store()
        // The ids in `event_ids` at once, so that there are rows to refuse deleting there.
        store.recentIDs.minimumRun = 1
        _ = try store.append(batch([heart("a"), heart("b")]))
        #expect(try store.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM event_ids") } == 2)
        for sql in [
            "UPDATE events SET user = 'mallory' WHERE seq = 1",
            "DELETE FROM events WHERE seq = 2",
            "DELETE FROM event_ids",
            "DELETE FROM event_ids_through",
            "UPDATE event_ids_through SET seq = 1",
            "UPDATE event_ids_through SET seq = 3",
            "INSERT INTO event_ids_through (seq) VALUES (2)",
            "UPDATE batches SET appended = 0",
            "INSERT INTO events (seq, id, type, at, recorded, v, original, batch) VALUES (9, 'z', 'track', 0, 0, 1, '{}', 1)",
            "INSERT OR REPLACE INTO events (seq, id, type, at, recorded, v, original, batch) VALUES (1, 'z', 'track', 0, 0, 1, '{}', 1)",
            "UPDATE log_identity SET id = 'other'",
            "DELETE FROM log_identity",
            "INSERT INTO log_identity (id) VALUES ('other')",
        ] {
            #expect(throws: DatabaseError.self, "\(sql)") { try store.pool.write { try $0.execute(sql: sql) } }
        }
        #expect(try store.event(at: 1)?.event.user == "u1")
        #expect(try store.lastSeq() == 2)
    }

    @Test func theSqlite3ShellIsRefusedToo() throws {
        let store = try store()
        _ = try store.append(batch([heart("a")]))
        for sql in ["UPDATE events SET user = 'mallory';", "DELETE FROM events;"] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
            process.arguments = [store.path, sql]
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus != 0)
            #expect(message.contains("the event log is append-only"))
        }
        #expect(try store.event(at: 1)?.event.user == "u1")
    }

    @Test func theTablesLiveInTheirOwnFileWhichTheLogsConnectionsOnlyRead() throws {
        let store = try store()
        _ = try store.append(batch([heart("a")]))
        try store.writeTables { try $0.setCheckpoint("looks", seq: 1) }
        let logTables = try store.pool.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        }
        #expect(Set(logTables) == TablesFile.logTables)
        #expect(store.tablesPath == folder.file("log.gtio-tables"))
        #expect(try DatabaseQueue(path: store.tablesPath).read { try Int.fetchOne($0, sql: "SELECT seq FROM checkpoints") } == 1)
        #expect(throws: DatabaseError.self, "the log's writer sees the tables read-only") {
            try store.pool.write { try $0.execute(sql: "UPDATE checkpoints SET seq = 0") }
        }
    }

    @Test func aPathWithURICharactersStillFindsItsTables() throws {
        let store = try SQLiteStore(path: folder.file("odd ?#%20 ü.gtio"))
        try store.writeTables { try $0.setCheckpoint("looks", seq: 0) }
        #expect(try store.readTables { try $0.rows("SELECT name FROM checkpoints", []) } == [[.text("looks")]])
        #expect(FileManager.default.fileExists(atPath: folder.file("odd ?#%20 ü.gtio-tables")))
    }

    @Test func sqlRefusesToAttachOrDetachAndTheTablesStayAttached() throws {
        let store = try store()
        try store.writeTables { try $0.setCheckpoint("looks", seq: 0) }
        for statement in ["DETACH tables", " /* a */ -- b\n attach '\(folder.file("x.db"))' AS x"] {
            #expect(throws: StoreError.writeRefused(String(statement.prefix(40)))) { try store.readOnlySQL(statement) }
        }
        #expect(try store.readOnlySQL("SELECT name FROM checkpoints").rows == [[.text("looks")]])
        #expect(!FileManager.default.fileExists(atPath: folder.file("x.db")))
    }

    /// A store written before the tables had a file of their own: the log's migrations v1–v6,
    /// with a read model's table and the checkpoints in the log's file.
    func legacyStore() throws -> String {
        let path = folder.file("old.gtio")
        do {
            let store = try SQLiteStore(path: path)
            _ = try store.append(batch([heart("a"), heart("b")]))
            store.settle()
        }
        try FileManager.default.removeItem(atPath: TablesFile.path(ofStore: path))
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: """
                DELETE FROM grdb_migrations WHERE identifier LIKE 'v7 %';
                DROP TABLE log_identity;
                CREATE TABLE checkpoints (name TEXT PRIMARY KEY, seq INTEGER NOT NULL, updated INTEGER NOT NULL);
                INSERT INTO checkpoints VALUES ('read_model.looks', 2, 0);
                CREATE TABLE rm_things (thing TEXT PRIMARY KEY, hearts INTEGER) WITHOUT ROWID;
                CREATE INDEX rm_things_hearts ON rm_things (hearts);
                INSERT INTO rm_things VALUES ('a', 1), ('b', 2);
                """)
        }
        return path
    }

    @Test func anOlderStoreIsUpgradedByMovingItsTablesIntoTheTablesFile() throws {
        let path = try legacyStore()
        #expect(throws: StoreError.needsUpgrade(path: path)) { try SQLiteStore(path: path, readOnly: true) }
        let store = try SQLiteStore(path: path)
        #expect(try store.checkpoints(named: ["read_model.looks"]) == ["read_model.looks": 2])
        let moved = try store.readTables { try $0.rows("SELECT thing, hearts FROM rm_things ORDER BY thing", []) }
        #expect(moved == [[.text("a"), .integer(1)], [.text("b"), .integer(2)]])
        let (inLog, indexes) = try store.pool.read { db in
            (try String.fetchAll(db, sql: "SELECT name FROM main.sqlite_master WHERE name IN ('checkpoints', 'rm_things')"),
             try String.fetchAll(db, sql: "SELECT name FROM tables.sqlite_master WHERE type = 'index' AND name = 'rm_things_hearts'"))
        }
        #expect(inLog.isEmpty)
        #expect(indexes == ["rm_things_hearts"])
        #expect(try store.lastSeq() == 2)
        #expect(try SQLiteStore(path: path, readOnly: true).lastSeq() == 2)
    }

    @Test func aPartialIndexHoldsOnlyItsRowsAndServesTheQueriesThatImplyItsCondition() throws {
        let store = try store()
        let notes = TableLayout(name: "rm_notes", columns: [("id", .text), ("place", .text)], keyCount: 1,
                                indexes: [.init(["place"], where: "place IS NOT NULL")])
        var rows = PackedRows(width: 2)
        for index in 0..<100 {
            rows.append("n\(index)")
            rows.append(index % 10 == 0 ? "p\(index)" : nil as String?)
        }
        // Created with the table, and again by a load, which drops it while the rows go in.
        try store.writeTables { tx in try tx.create(notes) }
        try store.writeTables { tx in try tx.load(rows, into: notes) }
        let (definition, plan, indexed) = try store.pool.read { db in
            (try String.fetchOne(db, sql: "SELECT sql FROM tables.sqlite_master WHERE name = 'rm_notes_place'"),
             try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT id FROM tables.rm_notes WHERE place = ?", arguments: ["p10"])
                .map { $0["detail"] as String },
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM tables.rm_notes INDEXED BY rm_notes_place WHERE place >= ''"))
        }
        #expect(definition == "CREATE INDEX rm_notes_place ON rm_notes (place) WHERE place IS NOT NULL")
        #expect(plan == ["SEARCH tables.rm_notes USING COVERING INDEX rm_notes_place (place=?)"])
        #expect(indexed == 10)
    }

    @Test func tablesBesideAnotherLogOrAnOlderCopyOfTheirOwnAreRefused() throws {
        let first = try store(), other = folder.file("other.gtio")
        _ = try first.append(batch([heart("a")]))
        first.settle()
        try FileManager.default.copyItem(atPath: first.path, toPath: folder.file("older.gtio"))
        _ = try first.append(batch([heart("b")]))
        try first.writeTables { try $0.setCheckpoint("looks", seq: 2) }
        first.settle()
        _ = try SQLiteStore(path: other)
        try FileManager.default.removeItem(atPath: TablesFile.path(ofStore: other))
        try FileManager.default.copyItem(atPath: first.tablesPath, toPath: TablesFile.path(ofStore: other))
        for readOnly in [false, true] {
            #expect(throws: StoreError.foreignTables(
                path: other, tables: other + "-tables",
                reason: "they were built from another log (the store file was replaced or removed without them)")
            ) { try SQLiteStore(path: other, readOnly: readOnly) }
        }
        try FileManager.default.removeItem(atPath: first.path)
        try FileManager.default.copyItem(atPath: folder.file("older.gtio"), toPath: first.path)
        #expect(throws: StoreError.foreignTables(
            path: first.path, tables: first.tablesPath,
            reason: "they stand at seq 2, past the log's end at seq 1 (the store file was replaced by an older copy)")
        ) { try SQLiteStore(path: first.path) }
    }
}
