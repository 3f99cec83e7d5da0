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

    @Test func theDatabaseRefusesUpdatesDeletesAndGaps() throws {
        let store = try store()
        _ = try store.append(batch([heart("a"), heart("b")]))
        for sql in [
            "UPDATE events SET user = 'mallory' WHERE seq = 1",
            "DELETE FROM events WHERE seq = 2",
            "DELETE FROM event_ids",
            "UPDATE batches SET appended = 0",
            "INSERT INTO events (seq, id, type, at, recorded, v, original, batch) VALUES (9, 'z', 'track', 0, 0, 1, '{}', 1)",
            "INSERT OR REPLACE INTO events (seq, id, type, at, recorded, v, original, batch) VALUES (1, 'z', 'track', 0, 0, 1, '{}', 1)",
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

    @Test func checkpointsCommitOrRollBackWithTheirTransaction() throws {
        let store = try store()
        #expect(try store.checkpoint(named: "looks") == 0)
        try store.pool.write { try SQLiteStore.setCheckpoint($0, name: "looks", seq: 7) }
        #expect(try store.checkpoint(named: "looks") == 7)
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try store.pool.write { db in
                try SQLiteStore.setCheckpoint(db, name: "looks", seq: 9)
                throw Boom()
            }
        }
        #expect(try store.checkpoint(named: "looks") == 7)
    }
}
