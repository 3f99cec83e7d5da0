import Foundation
import GRDB
import GTIOCatalog
import GTIOStore
import GTIOTestSupport
import Testing
@testable import GTIOStoreSQLite

/// `events_window`: the narrow index a scan reads when it needs no column beyond the type,
/// time, actor and `value`, and where the log's first and last times are found.
@Suite struct WindowIndexTests {
    let folder = TemporaryDirectory()

    /// A screen with a name, a sign-up with a provider, a heart without a value, an app opening
    /// without a user, and a late event (seq 5 dated before the others).
    func store(_ name: String = "log.gtio") throws -> SQLiteStore {
        let store = try SQLiteStore(path: folder.file(name))
        let lines = [
            #"{"id":"a","type":"track","at":"2012-04-23T10:00:00Z","user":"u1","device":"d1","data":{"name":"Looks.Popular","screen":"9.1"}}"#,
            #"{"id":"b","type":"user.signed_up","at":"2012-04-23T11:00:00Z","user":"u2","device":"d2","data":{"provider":"facebook","name":"Bea"}}"#,
            #"{"id":"c","type":"post.hearted","at":"2012-04-24T09:00:00Z","user":"u1","data":{"post":"p1"}}"#,
            #"{"id":"d","type":"app.opened","at":"2012-04-24T09:30:00Z","device":"d3","data":{"first_launch":true}}"#,
            #"{"id":"e","type":"track","at":"2012-04-22T08:00:00Z","user":"u3","data":{"name":"Feed"}}"#,
        ]
        _ = try store.append(batch(try lines.map { try EventValidator.validate($0).get() }))
        return store
    }

    /// Each event of `scope` as "seq type user device value".
    func scanned(_ store: SQLiteStore, _ scope: LogScope) throws -> [String] {
        var found: [String] = []
        try store.scanRows(scope) { row in
            func text(_ column: EventRow.TextColumn, _ selected: LogColumns) -> String {
                scope.columns.contains(selected) ? row.text(column) ?? "-" : "?"
            }
            found.append("\(row.seq) \(row.type.rawValue) \(text(.user, .user)) \(text(.device, .device)) \(text(.value, .value))")
        }
        return found
    }

    func plan(_ store: SQLiteStore, _ columns: LogColumns) throws -> String {
        let sql = SQLiteStore.scanSQL(LogScope(throughSeq: 5, atMost: 0, atLeast: 0, columns: columns))
        return try store.pool.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN \(sql)", arguments: [0, 5, 0, 0]).map { $0["detail"] as String }
                .joined(separator: "; ")
        }
    }

    @Test func aNarrowScanReadsTheIndexAndAWideOneTheRows() throws {
        let store = try store()
        #expect(try plan(store, [.user, .value]) == "SEARCH events USING COVERING INDEX events_window (seq>? AND seq<?)")
        #expect(try plan(store, [.device]) == "SEARCH events USING COVERING INDEX events_window (seq>? AND seq<?)")
        #expect(try plan(store, [.user, .subject]) == "SEARCH events USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)")
        #expect(try plan(store, .all) == "SEARCH events USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)")
    }

    @Test func bothReadTheSameEvents() throws {
        let store = try store()
        let day = Timestamp(date: "2012-04-23")!.milliseconds
        let window = LogScope(atMost: day + 2 * 86_400_000 - 1, atLeast: day, columns: [.user, .device, .value])
        let expected = ["1 track u1 d1 Looks.Popular", "2 user.signed_up u2 d2 facebook", "3 post.hearted u1 - -", "4 app.opened - d3 -"]
        #expect(try scanned(store, window) == expected)
        var wide = window
        wide.columns = [.user, .device, .value, .subject]
        #expect(try scanned(store, wide) == expected)
        var tracks = window
        tracks.types = [.track]
        tracks.atLeast = nil
        #expect(try scanned(store, tracks) == ["1 track u1 d1 Looks.Popular", "5 track u3 - Feed"])
    }

    @Test func aStoreFromBeforeTheIndexGetsItOnce() throws {
        let path = folder.file("old.gtio")
        do {
            let store = try store("old.gtio")
            try store.pool.write { db in
                try db.execute(sql: """
                    DROP INDEX events_window;
                    CREATE INDEX events_at ON events (at);
                    DELETE FROM grdb_migrations WHERE identifier = 'v8 narrow index for scans of a window'
                    """)
            }
        }
        let reopened = try SQLiteStore(path: path)
        let indexes = try reopened.pool.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'events' ORDER BY name")
        }
        #expect(indexes == ["events_window"])
        #expect(try plan(reopened, [.user]) == "SEARCH events USING COVERING INDEX events_window (seq>? AND seq<?)")
        #expect(try scanned(reopened, LogScope(columns: [.user])) == [
            "1 track u1 ? ?", "2 user.signed_up u2 ? ?", "3 post.hearted u1 ? ?", "4 app.opened - ? ?", "5 track u3 ? ?",
        ])
        guard case .intact = try reopened.verify() else { Issue.record("the chain must not change"); return }
    }
}
