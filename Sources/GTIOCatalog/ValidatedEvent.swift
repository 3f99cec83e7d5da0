/// An event that passed validation, decoded once into the typed columns the store keeps.
public struct ValidatedEvent: Sendable, Equatable {
    public var id: String
    public var type: EventType
    public var at: Timestamp
    public var user: String?
    public var device: String?
    /// The schema version `v` of `data`, 1 when absent.
    public var version: Int64
    public var subject: String?
    public var object: String?
    public var value: String?
    public var flag: Bool?
    public var number: Double?
    public var text: String?
    public var list: [String]
    /// The elements of its nested and multi-valued fields (a post's brands and place), in the
    /// order of `data`'s fields and of each list. Derived from `original`, which the hash chain
    /// covers, so they are not hashed themselves.
    public var properties: [EventProperty] = []
    /// The line exactly as the producer sent it (less line ending and byte-order mark),
    /// with unknown fields kept.
    public var original: String

    public init(
        id: String, type: EventType, at: Timestamp, user: String? = nil, device: String? = nil,
        version: Int64 = 1, subject: String? = nil, object: String? = nil, value: String? = nil,
        flag: Bool? = nil, number: Double? = nil, text: String? = nil, list: [String] = [],
        original: String
    ) {
        self.id = id
        self.type = type
        self.at = at
        self.user = user
        self.device = device
        self.version = version
        self.subject = subject
        self.object = object
        self.value = value
        self.flag = flag
        self.number = number
        self.text = text
        self.list = list
        self.original = original
    }
}
