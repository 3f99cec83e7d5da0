import GTIOCatalog

/// Holds `event_properties` to the original lines of the events they were extracted from.
///
/// The properties are outside the hash chain (they derive from `original`, which it covers),
/// so a row changed, added or removed there would alter an insight's brands or places without
/// breaking the chain or a signature. `verify` runs this once the chain is proven: each
/// original is validated again and the properties it gives must be the rows stored for its seq.
public struct PropertyAudit {
    /// The next event whose type keeps properties, in seq order: its seq and original line.
    public typealias NextEvent = () throws -> (seq: Int64, original: String)?
    /// The next stored property row, in (seq, name, position) order.
    public typealias NextProperty = () throws -> (seq: Int64, property: EventProperty)?

    /// The types whose events may have property rows, for the backend's query.
    public static let types: [EventType] = EventType.allCases.filter { $0.columns.contains(.properties) }

    /// Walks both in seq order; nil when every event's rows are exactly its original's
    /// properties and no row belongs to any other seq, else the first seq where they differ.
    public static func compare(events nextEvent: NextEvent, properties nextProperty: NextProperty) throws -> LogVerdict? {
        var pending = try nextProperty()
        while let event = try nextEvent() {
            if let stray = pending, stray.seq < event.seq { return strayRow(stray) }
            var stored: [EventProperty] = []
            while let row = pending, row.seq == event.seq {
                stored.append(row.property)
                pending = try nextProperty()
            }
            // A line the validator now refuses (its rules changed since) gives no expectation.
            guard case .success(let validated) = EventValidator.validate(event.original) else { continue }
            let expected = validated.properties.sorted(by: Self.precedes)
            if let problem = difference(expected: expected, stored: stored) {
                return .broken(seq: event.seq, problem: "event_properties: \(problem) (insights by that property would be wrong)")
            }
        }
        return pending.map(strayRow)
    }

    /// The stored order of rows: by name, then position.
    static func precedes(_ a: EventProperty, _ b: EventProperty) -> Bool {
        (a.name, a.position) < (b.name, b.position)
    }

    private static func strayRow(_ row: (seq: Int64, property: EventProperty)) -> LogVerdict {
        .broken(seq: row.seq, problem: "event_properties: a row \(row.property.name)[\(row.property.position)] that no property of this event's original line gives")
    }

    private static func difference(expected: [EventProperty], stored: [EventProperty]) -> String? {
        for (index, want) in expected.enumerated() {
            guard index < stored.count else { return "\(describe(want)) is missing" }
            let have = stored[index]
            if (have.name, have.position) != (want.name, want.position) {
                return Self.precedes(have, want) ? "\(describe(have)) is not in the original line" : "\(describe(want)) is missing"
            }
            if have != want { return "\(describe(have)) where the original line gives \(value(want))" }
        }
        return stored.count > expected.count ? "\(describe(stored[expected.count])) is not in the original line" : nil
    }

    private static func describe(_ property: EventProperty) -> String {
        "\(property.name)[\(property.position)] = \(value(property))"
    }

    /// The text in quotes, the number bare, both when it has both.
    private static func value(_ property: EventProperty) -> String {
        let parts = [property.text.map { "\"\($0)\"" }, property.number.map { "\($0)" }].compactMap { $0 }
        return parts.isEmpty ? "null" : parts.joined(separator: " / ")
    }
}
