import GTIOCatalog

/// An event as the fold applies it: its typed columns, with its ids as dense keys (0 for none)
/// so that the fold indexes arrays where it would hash strings. `user`, `list` and a follow's or
/// block's `subject` are keys in the fold's table of users, `device` in its table of devices,
/// any other id in its table of the rest.
public struct KeyedEvent: Sendable {
    public var seq: Int64
    public var type: EventType
    public var at: Int64
    public var user: Int
    /// A key in a table of devices alone.
    public var device: Int
    public var subject: Int
    /// Only a review's `object` (its post) and a post's (its product) are ids; elsewhere it is
    /// free text the fold never reads.
    public var object: Int
    public var value: String?
    public var flag: Bool?
    public var number: Double?
    public var text: String?
    /// The users a `quickadd.shown` suggested; empty for every other type.
    public var list: [Int]
    /// Its nested and multi-valued fields (a post's brands and place); empty for most events.
    public var properties: [EventProperty]

    public init(
        seq: Int64, type: EventType, at: Int64, user: Int = 0, device: Int = 0, subject: Int = 0, object: Int = 0,
        value: String? = nil, flag: Bool? = nil, number: Double? = nil, text: String? = nil, list: [Int] = [],
        properties: [EventProperty] = []
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
}
