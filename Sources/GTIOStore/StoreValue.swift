/// One value of a row read from a store's tables, whatever the backend: what SQL itself has.
public enum StoreValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// The value as an integer, or 0 for NULL (a count the table left empty).
    public var int: Int { Int(int64 ?? 0) }

    /// The value as an integer, nil for NULL.
    public var int64: Int64? {
        switch self {
        case .integer(let value): value
        case .real(let value): Int64(value)
        default: nil
        }
    }

    /// The value as a number, nil for NULL.
    public var double: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .real(let value): value
        default: nil
        }
    }

    /// The value as text, nil for NULL.
    public var string: String? {
        switch self {
        case .text(let value): value
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .blob(let bytes): String(decoding: bytes, as: UTF8.self)
        case .null: nil
        }
    }

    /// A stored boolean: any non-zero integer is true.
    public var bool: Bool { (int64 ?? 0) != 0 }
}

extension StoreValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension StoreValue: CustomStringConvertible {
    /// As SQL would write it: NULL, a number, or quoted text.
    public var description: String {
        switch self {
        case .null: "NULL"
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let value): String(reflecting: value)
        case .blob(let bytes): "<\(bytes.count) bytes>"
        }
    }
}
