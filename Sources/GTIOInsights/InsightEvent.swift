import GTIOCatalog

/// One event as an insight sees it: its place in the log, who acted, and the values of the
/// properties the insight asked for, read once while the scan was on its row.
public struct InsightEvent: Sendable {
    public var seq: Int64
    public var type: EventType
    public var at: Int64
    public var user: String?
    public var device: String?
    /// The values of each property asked for, in the order asked, each once; empty when absent.
    public var values: [[String]]
    /// The numeric property's value, when one was asked for and the event has a JSON number.
    public var number: Double?

    /// The actor of a funnel, retention or path.
    func actor(_ kind: InsightActor) -> String? { kind == .user ? user : device }
}

/// Who goes through funnels and paths: a signed-in user, or a device.
public enum InsightActor: String, Sendable, CaseIterable {
    case user, device
}
