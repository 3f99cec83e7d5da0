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

    /// The days of every event of the log, read in seq order (from the window index once the
    /// log has one, whose entries are a sixth of a row).
    static func ofLog(in db: Database) throws -> EventDays {
        var days = EventDays()
        let rows = try db.makeStatement(sql: "SELECT at, seq FROM events ORDER BY seq")
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

    /// The earliest and latest `at` among the events up to `throughSeq` (nil: all) whose `at`
    /// is at most `atMost`; nil when there are none.
    ///
    /// The log keeps no index on `at`: each end is found among the seqs of its day alone, the
    /// first (or last) day in view that has such an event, read from the window index. A day's
    /// seqs are where its events lie, so the search reads about a day of the log's entries.
    static func timeExtent(throughSeq: Int64?, atMost: Int64?, in db: Database) throws -> ClosedRange<Int64>? {
        let through = throughSeq ?? .max, latest = atMost ?? .max
        let lastDay = Timestamp(milliseconds: latest).day
        func end(_ order: String, _ aggregate: String) throws -> Int64? {
            let days = try Row.fetchCursor(db.cachedStatement(sql: """
                SELECT day, first_seq, last_seq FROM event_days WHERE first_seq <= ? AND day <= ? ORDER BY day \(order)
                """), arguments: [through, lastDay])
            let search = try db.cachedStatement(sql: """
                SELECT \(aggregate)(at) FROM events INDEXED BY \(SQLiteStore.windowIndex)
                WHERE seq BETWEEN ? AND ? AND at BETWEEN ? AND ?
                """)
            while let day = try days.next() {
                let start = (day[0] as Int64) * Timestamp.millisecondsPerDay
                let found = try Int64.fetchOne(search, arguments: [
                    day[1] as Int64, min(day[2] as Int64, through), start, min(start + Timestamp.millisecondsPerDay - 1, latest),
                ])
                if let found { return found }
            }
            return nil
        }
        guard let first = try end("ASC", "MIN"), let last = try end("DESC", "MAX") else { return nil }
        return first...last
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
