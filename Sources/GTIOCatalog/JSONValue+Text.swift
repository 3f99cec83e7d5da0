extension JSONValue {
    /// JSON text, indented by two spaces per level, members in their order.
    public func prettyPrinted(indent: String = "") -> String {
        let inner = indent + "  "
        switch self {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number):
            if let integer = number.integer { return String(integer) }
            return String(number.value)
        case .string(let text): return Self.quoted(text)
        case .array(let elements):
            if elements.isEmpty { return "[]" }
            // Arrays of scalars stay on one line: enums read better that way.
            if elements.allSatisfy({ if case .array = $0 { return false }; if case .object = $0 { return false }; return true }) {
                return "[" + elements.map { $0.prettyPrinted() }.joined(separator: ", ") + "]"
            }
            return "[\n" + elements.map { inner + $0.prettyPrinted(indent: inner) }.joined(separator: ",\n") + "\n\(indent)]"
        case .object(let object):
            if object.members.isEmpty { return "{}" }
            return "{\n" + object.members.map { inner + Self.quoted($0.key) + ": " + $0.value.prettyPrinted(indent: inner) }
                .joined(separator: ",\n") + "\n\(indent)}"
        }
    }

    /// `text` as a JSON string literal.
    public static func quoted(_ text: String) -> String {
        // Most text has nothing to escape: quoted whole, where a scalar at a time was most of
        // writing a long answer as JSON.
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 < 0x20 }) else {
            return "\"" + text + "\""
        }
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// The same value with every object's members sorted by key, for order-blind comparison.
    public var normalized: JSONValue {
        switch self {
        case .array(let elements): .array(elements.map(\.normalized))
        case .object(let object):
            .object(JSONObject(object.members.map { ($0.key, $0.value.normalized) }.sorted { $0.0 < $1.0 }))
        default: self
        }
    }
}

extension JSONValue {
    /// JSON text without spaces, members in their order: how an object reads as a property value.
    public var compact: String {
        switch self {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .number(let number): Self.text(of: number)
        case .string(let text): Self.quoted(text)
        case .array(let elements): "[" + elements.map(\.compact).joined(separator: ",") + "]"
        case .object(let object): "{" + object.members.map { Self.quoted($0.key) + ":" + $0.value.compact }.joined(separator: ",") + "}"
        }
    }

    /// A number as a property value reads: without a fraction when whole (`120.0` → `120`, `1e16`
    /// → `10000000000000000`), else the shortest text that reads back as the same double (`12.5`,
    /// `0.1`, `1e-07`).
    public static func text(of number: JSONNumber) -> String {
        if let integer = number.integer { return String(integer) }
        return text(of: number.value)
    }

    /// A double as a property value reads, by the same rule (a typed column keeps no integer form).
    public static func text(of value: Double) -> String {
        guard value.isFinite, value == value.rounded() else { return String(value) }
        if abs(value) < 0x1p63 { return String(Int64(value)) }
        return wholeDigits(of: value)
    }

    /// The decimal digits of a whole double too large for `Int64` (`1e21` →
    /// `1000000000000000000000`): its significand doubled once per binary exponent step, in
    /// limbs of nine digits. Such values are rare, so plain and exact beats fast.
    static func wholeDigits(of value: Double) -> String {
        let significand = UInt64(1) << 52 | value.significandBitPattern
        var limbs: [UInt64] = [significand % 1_000_000_000, significand / 1_000_000_000 % 1_000_000_000,
                               significand / 1_000_000_000_000_000_000]
        for _ in 0..<(Int(value.exponent) - 52) {
            var carry: UInt64 = 0
            for index in limbs.indices {
                let doubled = limbs[index] * 2 + carry
                limbs[index] = doubled % 1_000_000_000
                carry = doubled / 1_000_000_000
            }
            if carry > 0 { limbs.append(carry) }
        }
        while limbs.count > 1, limbs.last == 0 { limbs.removeLast() }
        var digits = value < 0 ? "-" : ""
        digits += String(limbs.last!)
        for limb in limbs.dropLast().reversed() {
            let part = String(limb)
            digits += String(repeating: "0", count: 9 - part.count) + part
        }
        return digits
    }
}
