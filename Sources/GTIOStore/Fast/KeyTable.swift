import GTIOCatalog

/// Dense integer keys for ids of the log: each distinct id gets one when first seen, so that
/// the fold indexes arrays where it would hash strings. A fold keeps three: users, devices, and
/// every other id (posts, reviews, products, moderation items), so that the tables indexed by
/// user or device key span those alone.
public struct KeyTable: Sendable {
    /// The id of each key; key 0 stands for "none".
    public private(set) var ids: [String] = [""]
    private var index = IDIndex()

    public init() {}

    /// The table that keyed `ids` in this order (key 1 first): what a fold saved of it. Nil
    /// when an id comes twice, as no table keys one id twice, or when there are more than keys
    /// fit.
    package init?(ids: consuming [String]) {
        guard ids.count < Int(Int32.max), let index = IDIndex(keying: ids) else { return nil }
        // Moved, not copied: a copy of millions of ids retained each one.
        var all = consume ids
        all.insert("", at: 0)
        self.ids = all
        self.index = index
    }

    /// One more than the largest key.
    public var count: Int { ids.count }

    /// The key of `id`, nil when the log in view never mentioned it.
    public func key(_ id: String) -> Int? { index.key(id) }

    public subscript(key: Int) -> String { ids[key] }

    /// The id of `key`, nil for key 0 (an event without that id).
    public func id(_ key: Int) -> String? { key == 0 ? nil : ids[key] }

    package mutating func intern(_ id: String?) -> Int {
        guard let id else { return 0 }
        return index.key(id) { Self.append(id, to: &ids) }
    }

    /// The key of the id with these UTF-8 bytes (0 for none), adding it when new.
    package mutating func intern(utf8 bytes: UnsafeBufferPointer<UInt8>?) -> Int {
        guard let bytes else { return 0 }
        return index.key(utf8: bytes) { Self.append($0, to: &ids) }
    }

    /// A static on `ids` alone: the index calls it while it is itself being changed.
    private static func append(_ id: String, to ids: inout [String]) -> Int {
        // Keys fit 31 bits: `IDIndex` stores them as Int32 and `KeyPair` packs two into an Int.
        precondition(ids.count < Int(Int32.max), "more than 2^31 distinct ids in one log")
        ids.append(id)
        return ids.count - 1
    }

    /// `record` with its ids keyed, adding the ids not seen before (records built in memory):
    /// users in `users`, its device in `devices`, any other id in this table.
    public mutating func keyed(_ record: LogRecord, users: inout KeyTable, devices: inout KeyTable) -> KeyedEvent {
        var event = KeyedEvent(seq: record.seq, type: record.type, at: record.at)
        event.user = users.intern(record.user)
        event.device = devices.intern(record.device)
        event.subject = record.type.targetsUser ? users.intern(record.subject) : intern(record.subject)
        if record.type.objectIsID { event.object = intern(record.object) }
        event.value = record.value
        event.flag = record.flag
        event.number = record.number
        event.text = record.text
        event.list = record.list.map { users.intern($0) }
        event.properties = record.properties
        return event
    }

    /// Appends the event of a scan's row to `events`, keyed straight from the row's bytes: only
    /// a new id is made a `String`, and of the type's columns only `columns` are read (the fold
    /// passes those its rules read). Users are keyed in `users`, other ids in this table; its
    /// device goes to `devices`, and the event holds its number there until the fold keys it.
    mutating func key(
        _ row: EventRow, columns: EventColumns, into events: inout [KeyedEvent], users: inout KeyTable, devices: inout ChunkDevices
    ) throws {
        let type = row.type
        // Built from locals in one go, in place: filling a `var` event field by field, or
        // returning it, cost a copy and a destroy of the whole event per row.
        let user = users.intern(utf8: row.bytes(.user)), device = devices.add(row.bytes(.device))
        let subject = !columns.contains(.subject) ? 0
            : type.targetsUser ? users.intern(utf8: row.bytes(.subject)) : intern(utf8: row.bytes(.subject))
        let object = type.objectIsID && columns.contains(.object) ? intern(utf8: row.bytes(.object)) : 0
        let list = columns.contains(.list) ? try Self.listKeys(row, in: &users) : []
        events.append(KeyedEvent(
            seq: row.seq, type: type, at: row.at, user: user, device: device, subject: subject, object: object,
            value: columns.contains(.value) ? row.text(.value) : nil, flag: columns.contains(.flag) ? row.flag : nil,
            number: columns.contains(.number) ? row.number : nil, text: columns.contains(.text) ? row.text(.text) : nil,
            list: list, properties: columns.contains(.properties) ? try row.properties() : []))
    }

    /// The keys of the users a row lists: apart, so that no closure captures the event.
    private static func listKeys(_ row: EventRow, in users: inout KeyTable) throws -> [Int] {
        var keys: [Int] = []
        try row.forEachListed { keys.append(users.intern(utf8: $0)) }
        return keys
    }

    /// Appends ids that another copy of this table keyed since they parted (a scan keys on its
    /// own thread and sends its new ids along with the events that need them). Only `ids` grow:
    /// lookups by id are stale until the scan's table replaces this one, as the fold does.
    public mutating func adopt(_ newIDs: [String]) {
        ids.append(contentsOf: newIDs)
    }
}

extension EventType {
    /// Whether the `object` column holds an id the fold keys: a review's post, a post's product.
    var objectIsID: Bool { self == .reviewAdded || self == .postCreated }
}
