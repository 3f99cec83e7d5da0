import GTIOCatalog

/// The event a raw scan is on, read in place from the backend's row buffer: its bytes are only
/// valid during the scan's call for this row, so keep what you need as values, not the row.
/// A fold keys ids straight from these bytes and makes a `String` only of an id it has not seen.
public struct EventRow {
    /// The columns of an event that hold text.
    public enum TextColumn: Int, Sendable {
        case user, device, subject, object, value, text
    }

    public let seq: Int64
    public let type: EventType
    public let at: Int64
    private let cursor: any EventRowCursor

    /// The row `cursor` is on; a backend makes one per row of its scan.
    public init(seq: Int64, type: EventType, at: Int64, cursor: any EventRowCursor) {
        self.seq = seq
        self.type = type
        self.at = at
        self.cursor = cursor
    }

    /// The flag column, nil when NULL.
    public var flag: Bool? { cursor.flag() }

    /// The number column, nil when NULL.
    public var number: Double? { cursor.number() }

    /// Its nested and multi-valued fields (a post's brands and place), in order.
    public func properties() throws -> [EventProperty] {
        var found: [EventProperty] = []
        try cursor.forEachProperty(seq: seq) { found.append($0) }
        return found
    }

    /// The column's UTF-8 bytes, nil when it is NULL.
    public func bytes(_ column: TextColumn) -> UnsafeBufferPointer<UInt8>? {
        cursor.bytes(column)
    }

    public func text(_ column: TextColumn) -> String? {
        bytes(column).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the UTF-8 bytes of each user a `quickadd.shown` listed, in order.
    public func forEachListed(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        guard type == .quickaddShown else { return }
        try cursor.forEachListed(seq: seq, body)
    }

    /// The users a `quickadd.shown` listed; empty for every other type.
    public func listed() throws -> [String] {
        var users: [String] = []
        try forEachListed { users.append(String(decoding: $0, as: UTF8.self)) }
        return users
    }
}

/// A backend's cursor over the rows of a raw scan: the text columns of the row it is on, read
/// only when asked (a column read costs more than the fold's use of most of them).
public protocol EventRowCursor: AnyObject {
    /// The UTF-8 bytes of `column` in the current row, nil when NULL; valid until the cursor moves.
    func bytes(_ column: EventRow.TextColumn) -> UnsafeBufferPointer<UInt8>?
    /// The flag column of the current row, nil when NULL.
    func flag() -> Bool?
    /// The number column of the current row, nil when NULL.
    func number() -> Double?
    /// Calls `body` with each property of event `seq`, in order.
    func forEachProperty(seq: Int64, _ body: (EventProperty) throws -> Void) throws
    /// Calls `body` with each user event `seq` listed, in order.
    func forEachListed(seq: Int64, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws
}
