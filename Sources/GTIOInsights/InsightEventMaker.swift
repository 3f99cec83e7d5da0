import GTIOCatalog
import GTIOStore

/// Makes what an insight sees of a scan's row: its actor's key, the values of the properties
/// asked for and the number of the numeric one. Sendable, so that each reading thread of a
/// segmented read makes its own events.
struct InsightEventMaker: Sendable {
    let properties: [InsightProperty]
    let numeric: InsightProperty?
    /// The actor keyed: the other key is left 0.
    let actor: InsightActor?
    /// The first sign-up of each user, when a property needs it.
    let signups: [String: (provider: String, day: Int64)]
    /// Whether a property reads the user's id itself.
    let needsUser: Bool

    /// The event of `row`, its actor keyed in `users` or `devices` (new ids are added).
    func event(_ row: EventRow, users: inout KeyTable, devices: inout KeyTable) throws -> InsightEvent {
        var extracted: [EventProperty]?
        func props() throws -> [EventProperty] {
            if let extracted { return extracted }
            let found = row.type.columns.contains(.properties) ? try row.properties() : []
            extracted = found
            return found
        }
        let user = needsUser ? row.text(.user) : nil
        var values: [[String]] = []
        values.reserveCapacity(properties.count)
        for property in properties {
            values.append(try InsightReader.values(of: property, row, user: user, props: props, signups: signups))
        }
        let number = try numeric.flatMap { try InsightReader.number(of: $0, row, props: props) }
        return InsightEvent(
            seq: row.seq, type: row.type, at: row.at, user: actor == .user ? users.intern(utf8: row.bytes(.user)) : 0,
            device: actor == .device ? devices.intern(utf8: row.bytes(.device)) : 0, values: values, number: number)
    }
}
