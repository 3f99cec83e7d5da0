import GTIOCatalog

/// One event as an insight sees it: its place in the log, who acted, and the values of the
/// properties the insight asked for, read once while the scan was on its row.
public struct InsightEvent: Sendable {
    public var seq: Int64
    public var type: EventType
    public var at: Int64
    /// Its user's key, 0 for none: the same user has the same key throughout one read, which
    /// is all an insight needs of who acted (a key is found from the row's bytes, where a
    /// `String` would be made and hashed for every event).
    public var user: Int
    /// Its device's key, 0 for none (or when the read did not ask for devices).
    public var device: Int
    /// The values of each property asked for, in the order asked, each once; empty when absent.
    public var values: [[String]]
    /// The numeric property's value, when one was asked for and the event has a JSON number.
    public var number: Double?

    /// The key of the actor of a funnel, retention or path; nil when the event has none.
    func actor(_ kind: InsightActor) -> Int? {
        let key = kind == .user ? user : device
        return key == 0 ? nil : key
    }
}

/// Who goes through funnels and paths: a signed-in user, or a device.
public enum InsightActor: String, Sendable, CaseIterable {
    case user, device
}
