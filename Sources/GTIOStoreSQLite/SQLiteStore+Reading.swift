import GRDB
import GTIOStore
import GTIOCatalog

extension SQLiteStore {
    public func readEvents(in range: ClosedRange<Int64>, _ body: (StoredEvent) throws -> Void) throws {
        try readDatabase { db in
            let cursor = try Row.fetchCursor(
                db, sql: "SELECT * FROM events WHERE seq BETWEEN ? AND ? ORDER BY seq",
                arguments: [range.lowerBound, range.upperBound])
            while let row = try cursor.next() {
                try body(try Self.storedEvent(row, in: db))
            }
        }
    }

    /// The events that match `filter`, oldest first.
    public func events(matching filter: EventFilter) throws -> [StoredEvent] {
        try readDatabase { db in
            let (sql, arguments) = filter.sql()
            var events = try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments.map(\.databaseValue)))
                .map { try Self.storedEvent($0, in: db) }
            if filter.newestFirst { events.reverse() }
            return events
        }
    }

    /// The event at `seq`, nil past the end of the log.
    public func event(at seq: Int64) throws -> StoredEvent? {
        try readDatabase { db in
            try Row.fetchOne(db, sql: "SELECT * FROM events WHERE seq = ?", arguments: [seq])
                .map { try Self.storedEvent($0, in: db) }
        }
    }

    static func storedEvent(_ row: Row, in db: Database) throws -> StoredEvent {
        let seq: Int64 = row["seq"]
        let typeName: String = row["type"]
        guard let type = EventType.named(typeName) else {
            throw StoreError.database("event \(seq) has type \(typeName), unknown to this gtio")
        }
        var list: [String] = []
        if type == .quickaddShown {
            list = try String.fetchAll(
                db, sql: "SELECT user FROM event_lists WHERE seq = ? ORDER BY position", arguments: [seq])
        }
        let flag: Int64? = row["flag"]
        let event = ValidatedEvent(
            id: row["id"], type: type, at: Timestamp(milliseconds: row["at"]), user: row["user"],
            device: row["device"], version: row["v"], subject: row["subject"], object: row["object"],
            value: row["value"], flag: flag.map { $0 != 0 }, number: row["number"], text: row["text"],
            list: list, original: row["original"])
        return StoredEvent(seq: seq, recorded: Timestamp(milliseconds: row["recorded"]), batch: row["batch"], event: event)
    }
}
