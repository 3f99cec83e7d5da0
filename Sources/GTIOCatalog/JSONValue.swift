/// A parsed JSON value that keeps what EVENTS.md needs and Foundation loses:
/// whether a number was written as an integer, and the order of object keys.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// A short name of the value's JSON type, for rejection reasons.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A JSON number with its lexical kind: `1` is an integer, `1.0` and `1e0` are not (EVENTS.md §4).
public struct JSONNumber: Sendable, Equatable {
    /// The value as a double.
    public var value: Double
    /// The value when it was written without fraction or exponent and fits 64 bits.
    public var integer: Int64?

    public init(value: Double, integer: Int64?) {
        self.value = value
        self.integer = integer
    }
}

/// A JSON object as its members in source order; lookups take the last member
/// of a name, so duplicate keys resolve as "the last wins" (EVENTS.md §4).
public struct JSONObject: Sendable, Equatable {
    public var members: [(key: String, value: JSONValue)]

    public init(_ members: [(key: String, value: JSONValue)] = []) {
        self.members = members
    }

    /// The value of the last member named `key`, or nil. `null` counts as absent (EVENTS.md §4).
    public subscript(key: String) -> JSONValue? {
        // Events have about ten members: a backwards scan beats hashing every key.
        for member in members.reversed() where member.key == key {
            if case .null = member.value { return nil }
            return member.value
        }
        return nil
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}
