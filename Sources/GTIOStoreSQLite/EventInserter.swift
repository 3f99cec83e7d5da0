import GRDB
import GTIOCatalog
import GTIOStore

/// Inserts events into the log's tables with cached statements: the event row, its list
/// items and its properties, and at the end the days they fall on. What an append and a copy
/// of committed batches share.
struct EventInserter {
    private let event: SQLiteStatementBinding
    private let listItem: SQLiteStatementBinding
    private let property: SQLiteStatementBinding
    /// The days of the events inserted so far, for `recordDays`.
    private var days = EventDays()

    static let insertPropertySQL = "INSERT INTO event_properties (seq, name, position, text, number) VALUES (?, ?, ?, ?, ?)"

    init(_ db: Database) throws {
        event = SQLiteStatementBinding(try db.cachedStatement(sql: """
            INSERT INTO events (seq, id, type, at, recorded, user, device, v, subject, object, value, flag, number, text, original, batch, hash)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """))
        listItem = SQLiteStatementBinding(try db.cachedStatement(sql: "INSERT INTO event_lists (seq, position, user) VALUES (?, ?, ?)"))
        property = SQLiteStatementBinding(try db.cachedStatement(sql: Self.insertPropertySQL))
    }

    /// Inserts `value` as the event at `seq`, the log's next; its id must already be in `event_ids`.
    /// Call `recordDays` once all are in.
    mutating func insert(_ value: ValidatedEvent, seq: Int64, recorded: Int64, batch: Int64, hash: [UInt8], in db: Database) throws {
        // seq is left to SQLite (max + 1): see the "v3" migration; checked just after.
        event.bind(1, nil as Int64?)
        event.bind(2, value.id)
        event.bind(3, value.type.rawValue)
        event.bind(4, value.at.milliseconds)
        event.bind(5, recorded)
        event.bind(6, value.user)
        event.bind(7, value.device)
        event.bind(8, value.version)
        event.bind(9, value.subject)
        event.bind(10, value.object)
        event.bind(11, value.value)
        event.bind(12, value.flag.map { $0 ? 1 : 0 } as Int64?)
        event.bind(13, value.number)
        event.bind(14, value.text)
        event.bind(16, batch)
        event.bind(17, hash)
        // The original line, the row's largest value, is read in place rather than copied.
        var original = value.original
        try original.withUTF8 { text in
            event.bindStatic(15, text: text)
            try event.step(db)
        }
        guard db.lastInsertedRowID == seq else {
            throw StoreError.database("the log assigned seq \(db.lastInsertedRowID) where \(seq) was due; nothing appended")
        }
        for (position, user) in value.list.enumerated() {
            listItem.bind(1, seq)
            listItem.bind(2, Int64(position))
            listItem.bind(3, user)
            try listItem.step(db)
        }
        try Self.insert(value.properties, of: seq, with: property, in: db)
        days.add(seq: seq, at: value.at.milliseconds)
    }

    /// Brings `event_days` up to date with the events inserted, in the same transaction.
    func recordDays(in db: Database) throws {
        try days.record(in: db)
    }

    /// Inserts the properties of the event at `seq` with `statement` (`insertPropertySQL`).
    static func insert(_ properties: [EventProperty], of seq: Int64, with statement: SQLiteStatementBinding, in db: Database) throws {
        for property in properties {
            statement.bind(1, seq)
            statement.bind(2, property.name)
            statement.bind(3, Int64(property.position))
            statement.bind(4, property.text)
            statement.bind(5, property.number)
            try statement.step(db)
        }
    }
}
