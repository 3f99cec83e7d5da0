import GRDB
import GRDBSQLite
import GTIOCatalog

/// The first and last seq of each UTC day among some events, for the `event_days` table: an
/// append gathers its batch's and records them in its transaction.
struct EventDays: Equatable {
    /// The first and last seq of each day (days since 1970, UTC).
    private(set) var seqs: [Int64: ClosedRange<Int64>] = [:]

    mutating func add(seq: Int64, at: Int64) {
        let day = Timestamp(milliseconds: at).day
        seqs[day] = seqs[day].map { min($0.lowerBound, seq)...max($0.upperBound, seq) } ?? seq...seq
    }

    /// The days of every event of the log, read from the index on `at`.
    static func ofLog(in db: Database) throws -> EventDays {
        var days = EventDays()
        let rows = try db.makeStatement(sql: "SELECT at, seq FROM events INDEXED BY events_at")
        let handle = rows.sqliteStatement
        while try SQLiteStore.nextRow(handle, in: db) {
            days.add(seq: sqlite3_column_int64(handle, 1), at: sqlite3_column_int64(handle, 0))
        }
        return days
    }

    /// The days as the `event_days` table holds them.
    static func stored(in db: Database) throws -> EventDays {
        var days = EventDays()
        for row in try Row.fetchAll(db, sql: "SELECT day, first_seq, last_seq FROM event_days") {
            let first: Int64 = row[1], last: Int64 = row[2]
            days.seqs[row[0]] = first...max(first, last)
        }
        return days
    }

    /// Widens the table's rows by these days' seqs, adding the days it lacks.
    func record(in db: Database) throws {
        guard !seqs.isEmpty else { return }
        let statement = try db.cachedStatement(sql: """
            INSERT INTO event_days (day, first_seq, last_seq) VALUES (?, ?, ?)
            ON CONFLICT (day) DO UPDATE SET first_seq = MIN(first_seq, excluded.first_seq), last_seq = MAX(last_seq, excluded.last_seq)
            """)
        for (day, range) in seqs {
            try statement.execute(arguments: [day, range.lowerBound, range.upperBound])
        }
    }

    /// The seqs between which lie all events whose `at` is in `times`; nil when no day of
    /// theirs has any. Whole days are looked up, so the seqs may reach past the events.
    static func seqs(atLeast: Int64, atMost: Int64, in db: Database) throws -> ClosedRange<Int64>? {
        guard atLeast <= atMost else { return nil }
        let row = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT MIN(first_seq), MAX(last_seq) FROM event_days WHERE day BETWEEN ? AND ?"),
            arguments: [Timestamp(milliseconds: atLeast).day, Timestamp(milliseconds: atMost).day])
        guard let row, let first = row[0] as Int64?, let last = row[1] as Int64? else { return nil }
        return first...last
    }
}
