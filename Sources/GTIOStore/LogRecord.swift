import GTIOCatalog

/// An event as read models see it: its position and typed columns, never the JSON original.
public struct LogRecord: Sendable, Equatable {
    public var seq: Int64
    public var type: EventType
    public var at: Int64
    public var user: String?
    public var device: String?
    public var subject: String?
    public var object: String?
    public var value: String?
    public var flag: Bool?
    public var number: Double?
    public var text: String?
    /// The users a `quickadd.shown` suggested; empty for every other type.
    public var list: [String]
    /// Its nested and multi-valued fields (a post's brands and place).
    public var properties: [EventProperty]

    public init(
        seq: Int64, type: EventType, at: Int64, user: String? = nil, device: String? = nil,
        subject: String? = nil, object: String? = nil, value: String? = nil, flag: Bool? = nil,
        number: Double? = nil, text: String? = nil, list: [String] = [], properties: [EventProperty] = []
    ) {
        self.seq = seq
        self.type = type
        self.at = at
        self.user = user
        self.device = device
        self.subject = subject
        self.object = object
        self.value = value
        self.flag = flag
        self.number = number
        self.text = text
        self.list = list
        self.properties = properties
    }

    /// The record of a validated event at `seq` (for tests and in-memory logs).
    public init(seq: Int64, _ event: ValidatedEvent) {
        self.init(
            seq: seq, type: event.type, at: event.at.milliseconds, user: event.user, device: event.device,
            subject: event.subject, object: event.object, value: event.value, flag: event.flag, number: event.number,
            text: event.text, list: event.list, properties: event.properties)
    }
}

extension LogRecord {
    /// The record of the row a raw scan is on: its typed columns as values.
    public init(_ row: EventRow) throws {
        self.init(
            seq: row.seq, type: row.type, at: row.at, user: row.text(.user), device: row.text(.device),
            subject: row.text(.subject), object: row.text(.object), value: row.text(.value), flag: row.flag,
            number: row.number, text: row.text(.text), list: try row.listed(),
            properties: row.type.columns.contains(.properties) ? try row.properties() : [])
    }
}

/// Which part of the log a scan reads: the events in view of an as-of query.
public struct LogScope: Sendable, Equatable {
    /// Only events with `seq` greater than this.
    public var afterSeq: Int64 = 0
    /// Only events with `seq` up to this.
    public var throughSeq: Int64?
    /// Only events with `at` up to this (UTC ms).
    public var atMost: Int64?
    /// Only events with `at` from this on (UTC ms): an insight's window.
    public var atLeast: Int64?
    /// Only events of these types; nil for all.
    public var types: [EventType]?
    /// The columns the reader will ask the rows for; a backend may leave the others NULL.
    public var columns: LogColumns = .all

    public init(
        afterSeq: Int64 = 0, throughSeq: Int64? = nil, atMost: Int64? = nil, atLeast: Int64? = nil, types: [EventType]? = nil,
        columns: LogColumns = .all
    ) {
        self.afterSeq = afterSeq
        self.throughSeq = throughSeq
        self.atMost = atMost
        self.atLeast = atLeast
        self.types = types
        self.columns = columns
    }
}

/// The columns of an event that a scan reads beside its seq, type and time (and its lists and
/// properties, which are read only when asked for anyway). A reader that needs a few of them
/// says so: on SQLite each column a row carries out of the scan costs, about a quarter of a
/// window's scan for all of them against the user alone.
public struct LogColumns: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let user = LogColumns(rawValue: 1 << 0)
    public static let device = LogColumns(rawValue: 1 << 1)
    public static let subject = LogColumns(rawValue: 1 << 2)
    public static let object = LogColumns(rawValue: 1 << 3)
    public static let value = LogColumns(rawValue: 1 << 4)
    public static let text = LogColumns(rawValue: 1 << 5)
    public static let flag = LogColumns(rawValue: 1 << 6)
    public static let number = LogColumns(rawValue: 1 << 7)
    public static let all = LogColumns(rawValue: .max)

    /// The column a text column of a row is read from.
    public init(_ column: EventRow.TextColumn) {
        switch column {
        case .user: self = .user
        case .device: self = .device
        case .subject: self = .subject
        case .object: self = .object
        case .value: self = .value
        case .text: self = .text
        }
    }

    /// The column a catalog field is kept in; none for lists and nested fields, kept beside.
    public init(_ column: EventColumn) {
        switch column {
        case .subject: self = .subject
        case .object: self = .object
        case .value: self = .value
        case .text: self = .text
        case .flag: self = .flag
        case .number: self = .number
        case .list, .properties: self = []
        }
    }
}
