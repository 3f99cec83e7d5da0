import GRDB
import GRDBSQLite
import GTIOCatalog

/// Where each UTC day's events lie in the log and when the first and last of them happened, for
/// the `event_days` table: an append gathers its batch's and records them in its transaction.
struct EventDays: Equatable {
    /// One day's events: their lowest and highest seq, and their earliest and latest `at`.
    struct Span: Equatable {
        var seqs: ClosedRange<Int64>
        var times: ClosedRange<Int64>

        func widened(seq: Int64, at: Int64) -> Span {
            Span(seqs: min(seqs.lowerBound, seq)...max(seqs.upperBound, seq),
                 times: min(times.lowerBound, at)...max(times.upperBound, at))
        }
    }

    /// Each day's span (days since 1970, UTC).
    private(set) var spans: [Int64: Span] = [:]

    mutating func add(seq: Int64, at: Int64) {
        let day = Timestamp(milliseconds: at).day
        spans[day] = spans[day]?.widened(seq: seq, at: at) ?? Span(seqs: seq...seq, times: at...at)
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
        for row in try Row.fetchAll(db, sql: "SELECT day, first_seq, last_seq, first_at, last_at FROM event_days") {
            let first: Int64 = row[1], last: Int64 = row[2], earliest: Int64 = row[3], latest: Int64 = row[4]
            days.spans[row[0]] = Span(seqs: first...max(first, last), times: earliest...max(earliest, latest))
        }
        return days
    }

    /// Widens the table's rows by these days' spans, adding the days it lacks.
    func record(in db: Database) throws {
        guard !spans.isEmpty else { return }
        let statement = try db.cachedStatement(sql: """
            INSERT INTO event_days (day, first_seq, last_seq, first_at, last_at) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (day) DO UPDATE SET
                first_seq = MIN(first_seq, excluded.first_seq), last_seq = MAX(last_seq, excluded.last_seq),
                first_at = MIN(first_at, excluded.first_at), last_at = MAX(last_at, excluded.last_at)
            """)
        for (day, span) in spans {
            try statement.execute(arguments: [day, span.seqs.lowerBound, span.seqs.upperBound, span.times.lowerBound, span.times.upperBound])
        }
    }

    /// The earliest and latest `at` among the events up to `throughSeq` (nil: all) whose `at`
    /// is at most `atMost`; nil when there are none.
    ///
    /// The log keeps no index on `at`. Each end is the first (or last) day in view that has an
    /// event in view: when all of that day's events are in view, its row gives the time; when
    /// only some are (an as-of view that ends inside the day), its events are searched among
    /// its seqs in the window index, about a day of the log's entries.
    static func timeExtent(throughSeq: Int64?, atMost: Int64?, in db: Database) throws -> ClosedRange<Int64>? {
        let through = throughSeq ?? .max, latest = atMost ?? .max
        let lastDay = Timestamp(milliseconds: latest).day
        func end(_ order: String, _ aggregate: String, stored: (Span) -> Int64) throws -> Int64? {
            let days = try Row.fetchCursor(db.cachedStatement(sql: """
                SELECT day, first_seq, last_seq, first_at, last_at FROM event_days
                WHERE first_seq <= ? AND day <= ? ORDER BY day \(order)
                """), arguments: [through, lastDay])
            let search = try db.cachedStatement(sql: """
                SELECT \(aggregate)(at) FROM events INDEXED BY \(SQLiteStore.windowIndex)
                WHERE seq BETWEEN ? AND ? AND at BETWEEN ? AND ?
                """)
            while let day = try days.next() {
                let span = Span(seqs: (day[1] as Int64)...(day[2] as Int64), times: (day[3] as Int64)...(day[4] as Int64))
                if span.seqs.upperBound <= through, span.times.upperBound <= latest { return stored(span) }
                let start = (day[0] as Int64) * Timestamp.millisecondsPerDay
                let found = try Int64.fetchOne(search, arguments: [
                    span.seqs.lowerBound, min(span.seqs.upperBound, through), start, min(start + Timestamp.millisecondsPerDay - 1, latest),
                ])
                if let found { return found }
            }
            return nil
        }
        guard let first = try end("ASC", "MIN", stored: \.times.lowerBound),
              let last = try end("DESC", "MAX", stored: \.times.upperBound)
        else { return nil }
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
