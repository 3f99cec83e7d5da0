/// One element of a nested or multi-valued `data` field, kept as a row of its own so that read
/// models and analysts never parse the stored JSON again: each brand of a post
/// (`brands`, position 0, 1 …), its place (`location.name`, `location.lat`, `location.lon`).
public struct EventProperty: Sendable, Equatable, Hashable {
    /// The field's path in `data`, dotted for a nested one.
    public var name: String
    /// The element's place in a list; 0 for a single value.
    public var position: Int
    /// The value when it is text.
    public var text: String?
    /// The value when it is a number.
    public var number: Double?

    public init(name: String, position: Int = 0, text: String? = nil, number: Double? = nil) {
        self.name = name
        self.position = position
        self.text = text
        self.number = number
    }

    /// The members of an object field (a track's `props`) as properties `FIELD.KEY`: a string as
    /// it is, a boolean `true`/`false`, a number as its shortest text (and its value), an
    /// object as compact JSON, a list as one property per element (an empty one as none), null
    /// as none.
    public static func members(of object: JSONObject, in field: String) -> [EventProperty] {
        var found: [EventProperty] = []
        let members = object.members
        // Duplicate keys: the last wins, as everywhere in the contract. A large object's last
        // keys are found once from its end with a set: looking through the later members for
        // each member made one line of 60,000 members cost seconds.
        var isLast: [Bool]?
        if members.count > 16 {
            var later = Set<String>(minimumCapacity: members.count)
            isLast = Array(members.reversed().map { later.insert($0.key).inserted }.reversed())
        }
        for (index, (key, value)) in members.enumerated() {
            if let isLast {
                guard isLast[index] else { continue }
            } else {
                guard !members[(index + 1)...].contains(where: { $0.key == key }) else { continue }
            }
            let name = field + "." + key
            if case .null = value { continue }
            if case .array(let elements) = value {
                for (position, element) in elements.enumerated() where element != .null {
                    found.append(property(name, position, element))
                }
            } else {
                found.append(property(name, 0, value))
            }
        }
        return found
    }

    private static func property(_ name: String, _ position: Int, _ value: JSONValue) -> EventProperty {
        switch value {
        case .string(let text): EventProperty(name: name, position: position, text: text)
        case .number(let number): EventProperty(name: name, position: position, text: JSONValue.text(of: number), number: number.value)
        case .bool(let flag): EventProperty(name: name, position: position, text: flag ? "true" : "false")
        default: EventProperty(name: name, position: position, text: value.compact)
        }
    }

    /// The names the validator extracts, for documentation and completion.
    public static let brands = "brands"
    public static let locationName = "location.name"
    public static let locationLatitude = "location.lat"
    public static let locationLongitude = "location.lon"
}
