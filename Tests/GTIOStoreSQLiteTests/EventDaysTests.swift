import Foundation
import GRDB
import GTIOCatalog
import GTIOStore
import GTIOTestSupport
import Testing
@testable import GTIOStoreSQLite

/// `event_days`: the first and last seq of each UTC day's events, where a scan of a time
/// window begins and ends.
@Suite struct EventDaysTests {
    let folder = TemporaryDirectory()

    func event(_ id: String, _ at: String) throws -> ValidatedEvent {
        try EventValidator.validate(#"{"id":"\#(id)","type":"post.hearted","at":"\#(at)","user":"u1","data":{"post":"p1"}}"#).get()
    }

    func days(_ store: SQLiteStore) throws -> [String] {
        try store.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT day, first_seq, last_seq FROM event_days ORDER BY day").map { row in
                "\(Timestamp.dateString(ofDay: row[0])) \(row[1] as Int64)…\(row[2] as Int64)"
            }
        }
    }

    /// Seqs 1–2 in one batch, 3–4 in the next: seq 3 comes late to the 23rd, and seq 4 is the
    /// only event of a day before all others (a device whose clock was set back).
    func store(_ name: String = "log.gtio") throws -> SQLiteStore {
        let store = try SQLiteStore(path: folder.file(name))
        _ = try store.append(batch([try event("a", "2012-04-23T10:00:00Z"), try event("b", "2012-04-24T09:00:00Z")]))
        _ = try store.append(batch([try event("c", "2012-04-23T23:59:59.999+00:00"), try event("d", "2012-04-20T12:00:00-05:00")]))
        return store
    }

    static let expected = ["2012-04-20 4…4", "2012-04-23 1…3", "2012-04-24 2…2"]

    @Test func eachAppendWidensTheDaysOfItsEvents() throws {
        let store = try store()
        #expect(try days(store) == Self.expected)
        var seqs: [Int64] = []
        let day = Timestamp(date: "2012-04-23")!.milliseconds
        try store.scan(LogScope(atMost: day + 86_399_999, atLeast: day)) { seqs.append($0.seq) }
        #expect(seqs == [1, 3])
        // A duplicate appends nothing and widens nothing.
        _ = try store.append(batch([try event("a", "2012-04-23T10:00:00Z")]))
        #expect(try days(store) == Self.expected)
    }

    @Test func aCopyOfCommittedBatchesKeepsThem() throws {
        let original = try store()
        let copy = try SQLiteStore(path: folder.file("copy.gtio"))
        try copy.appendCommitted(try original.committedBatches(after: 0, maxEvents: 100))
        #expect(try days(copy) == Self.expected)
    }

    @Test func aStoreFromBeforeTheTableGetsThemOnce() throws {
        let path = folder.file("old.gtio")
        do {
            let store = try store("old.gtio")
            try store.pool.write { db in
                try db.execute(sql: """
                    DROP TABLE event_days;
                    DELETE FROM grdb_migrations WHERE identifier IN ('v6 event days', 'v10 each day''s earliest and latest time')
                    """)
            }
        }
        let reopened = try SQLiteStore(path: path)
        #expect(try days(reopened) == Self.expected)
        #expect(try times(reopened) == Self.expectedTimes)
        guard case .intact = try reopened.verify() else { Issue.record("the chain must not change"); return }
    }

    /// A store whose `event_days` has seqs but no times (v6 to v9) gets the times on its first
    /// writable open, and a reader refuses it until then.
    @Test func aStoreFromBeforeTheTimesGetsThemOnce() throws {
        let path = folder.file("v9.gtio")
        do {
            let store = try store("v9.gtio")
            try store.pool.write { db in
                try db.execute(sql: """
                    CREATE TABLE days_v9 (day INTEGER PRIMARY KEY, first_seq INTEGER NOT NULL, last_seq INTEGER NOT NULL);
                    INSERT INTO days_v9 SELECT day, first_seq, last_seq FROM event_days;
                    DROP TABLE event_days;
                    ALTER TABLE days_v9 RENAME TO event_days;
                    DELETE FROM grdb_migrations WHERE identifier = 'v10 each day''s earliest and latest time';
                    """)
            }
        }
        #expect(throws: StoreError.needsUpgrade(path: path)) { try SQLiteStore(path: path, readOnly: true) }
        var heard: [[String]] = []
        let reopened = try SQLiteStore(path: path) { heard.append($0) }
        #expect(heard == [["v10 each day's earliest and latest time"]])
        #expect(try days(reopened) == Self.expected)
        #expect(try times(reopened) == Self.expectedTimes)
        #expect(try reopened.status().firstAt == Timestamp(rfc3339: "2012-04-20T17:00:00Z"))
    }

    func times(_ store: SQLiteStore) throws -> [String] {
        try store.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT day, first_at, last_at FROM event_days ORDER BY day").map { row in
                "\(Timestamp.dateString(ofDay: row[0])) \(Timestamp(milliseconds: row[1]))…\(Timestamp(milliseconds: row[2]))"
            }
        }
    }

    static let expectedTimes = [
        "2012-04-20 2012-04-20T17:00:00.000Z…2012-04-20T17:00:00.000Z",
        "2012-04-23 2012-04-23T10:00:00.000Z…2012-04-23T23:59:59.999Z",
        "2012-04-24 2012-04-24T09:00:00.000Z…2012-04-24T09:00:00.000Z",
    ]

    /// The log's ends from the days' rows and, for a view that ends inside a day, from a search
    /// of that day's entries: each the same as the minimum and maximum over the events in view.
    @Test func theTimeExtentIsTheEventsInViewsOwn() throws {
        let store = try store()
        let all: [(seq: Int64, at: Int64)] = try store.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT seq, at FROM events ORDER BY seq").map { ($0[0], $0[1]) }
        }
        let moments = all.map(\.at) + all.map { $0.at - 1 } + [all.map(\.at).max()! + 1]
        for through in [nil] + all.map({ Optional($0.seq) }) {
            for atMost in [nil] + moments.map({ Optional($0) }) {
                let inView = all.filter { $0.seq <= (through ?? .max) && $0.at <= (atMost ?? .max) }.map(\.at)
                let expected = inView.min().map { $0...inView.max()! }
                #expect(try store.timeExtent(throughSeq: through, atMost: atMost) == expected,
                        "through \(String(describing: through)), at most \(String(describing: atMost))")
            }
        }
    }

    @Test func verifyNamesADayNarrowedOrMissing() throws {
        let store = try store()
        try store.pool.write { try $0.execute(sql: "UPDATE event_days SET last_seq = 1 WHERE last_seq = 3") }
        #expect(try store.verify() == .broken(
            seq: 1,
            problem: "event_days: 2012-04-23 has seqs 1…1 where its events lie at seqs 1…3 (insights over that day would miss events)"))
        try store.pool.write { try $0.execute(sql: "DELETE FROM event_days WHERE first_seq = 4") }
        #expect(try store.verify() == .broken(
            seq: 4, problem: "event_days: 2012-04-20 has no row where its events lie at seqs 4…4 (insights over that day would miss events)"))
    }

    @Test func verifyNamesADaysWrongTime() throws {
        let store = try store()
        try store.pool.write { try $0.execute(sql: "UPDATE event_days SET last_at = last_at - 1 WHERE first_seq = 1") }
        #expect(try store.verify() == .broken(
            seq: 1,
            problem: "event_days: 2012-04-23 has times 2012-04-23T10:00:00.000Z…2012-04-23T23:59:59.998Z where its events happened 2012-04-23T10:00:00.000Z…2012-04-23T23:59:59.999Z (the log's first and last times would be wrong)"))
    }
}
