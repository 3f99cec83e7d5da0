import GRDB
import GTIOStore
import GTIOCatalog

extension SQLiteStore {
    public func readEvents(in range: ClosedRange<Int64>, _ body: (StoredEvent) throws -> Void) throws {
        try readDatabase { db in
            let cursor = try Row.fetchCursor(
                db, sql: "SELECT \(Self.storedEventColumns) FROM events WHERE seq BETWEEN ? AND ? ORDER BY seq",
                arguments: [range.lowerBound, range.upperBound])
            while let row = try cursor.next() {
                try body(try Self.storedEvent(row, in: db))
            }
        }
    }

    /// The events that match `filter`, oldest first.
    public func events(matching filter: EventFilter) throws -> [StoredEvent] {
        try readDatabase { db in
            let (sql, arguments) = filter.sql(columns: Self.storedEventColumns)
            var events = try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments.map(\.databaseValue)))
                .map { try Self.storedEvent($0, in: db) }
            if filter.newestFirst { events.reverse() }
            return events
        }
    }

    /// The event at `seq`, nil past the end of the log.
    public func event(at seq: Int64) throws -> StoredEvent? {
        try readDatabase { db in
            try Row.fetchOne(db, sql: "SELECT \(Self.storedEventColumns) FROM events WHERE seq = ?", arguments: [seq])
                .map { try Self.storedEvent($0, in: db) }
        }
    }

    /// The columns of `events` that `storedEvent(_:in:)` reads, in the order it reads them: by
    /// place, as a row fetched whole finds a column by name only by comparing lowercased names
    /// (a fifth of `events --limit 0`, docs/PERFORMANCE.md).
    static let storedEventColumns = "seq, id, type, at, recorded, user, device, v, subject, object, value, flag, number, text, original, batch"

    /// The event of a row of `storedEventColumns` (and maybe more after them).
    static func storedEvent(_ row: Row, in db: Database) throws -> StoredEvent {
        let seq: Int64 = row[0]
        let typeName: String = row[2]
        guard let type = EventType.named(typeName) else {
            throw StoreError.database("event \(seq) has type \(typeName), unknown to this gtio")
        }
        var list: [String] = []
        if type == .quickaddShown {
            list = try String.fetchAll(
                db, sql: "SELECT user FROM event_lists WHERE seq = ? ORDER BY position", arguments: [seq])
        }
        let flag: Int64? = row[11]
        let event = ValidatedEvent(
            id: row[1], type: type, at: Timestamp(milliseconds: row[3]), user: row[5],
            device: row[6], version: row[7], subject: row[8], object: row[9],
            value: row[10], flag: flag.map { $0 != 0 }, number: row[12], text: row[13],
            list: list, original: row[14])
        return StoredEvent(seq: seq, recorded: Timestamp(milliseconds: row[4]), batch: row[15], event: event)
    }
}
