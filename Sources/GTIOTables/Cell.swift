import GTIOCatalog

/// One value in a result table, typed so each format can print it its own way.
public enum Cell: Sendable, Equatable {
    case null
    case text(String)
    case integer(Int64)
    case number(Double)
    case bool(Bool)
    case timestamp(Timestamp)

    public init(_ text: String?) { self = text.map(Cell.text) ?? .null }
    public init(_ integer: Int64?) { self = integer.map(Cell.integer) ?? .null }
    public init(_ number: Double?) { self = number.map(Cell.number) ?? .null }
    public init(_ flag: Bool?) { self = flag.map(Cell.bool) ?? .null }
    public init(_ timestamp: Timestamp?) { self = timestamp.map(Cell.timestamp) ?? .null }

    /// The value as CSV and JSON strings show it (EVENTS.md §4: `YYYY-MM-DDTHH:MM:SS.mmmZ`,
    /// `true`/`false`, floats in their shortest exact form, which keeps every significant digit).
    public var plainText: String {
        switch self {
        case .null: ""
        case .text(let text): text
        case .integer(let value): String(value)
        case .number(let value): Self.format(value)
        case .bool(let flag): flag ? "true" : "false"
        case .timestamp(let moment): moment.description
        }
    }

    public static func format(_ value: Double) -> String {
        if value.isNaN || value.isInfinite { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) + ".0" }
        return String(value)
    }

    /// Whether tables right-align it.
    public var isNumeric: Bool {
        switch self {
        case .integer, .number: true
        default: false
        }
    }
}
