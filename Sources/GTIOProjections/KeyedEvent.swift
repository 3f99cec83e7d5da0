import GTIOCatalog
import GTIOStore

/// An event as the fold applies it: its typed columns, with its ids as dense keys (0 for none)
/// so that the fold indexes arrays where it would hash strings; `KeyTable` holds the ids.
public struct KeyedEvent: Sendable {
    public var seq: Int64
    public var type: EventType
    public var at: Int64
    public var user = 0
    public var device = 0
    public var subject = 0
    /// Only a review's `object` is an id (its post); elsewhere it is free text the fold never reads.
    public var object = 0
    public var value: String?
    public var flag: Bool?
    public var text: String?
    /// The users a `quickadd.shown` suggested; empty for every other type.
    public var list: [Int] = []

    public init(seq: Int64, type: EventType, at: Int64) {
        self.seq = seq
        self.type = type
        self.at = at
    }
}
