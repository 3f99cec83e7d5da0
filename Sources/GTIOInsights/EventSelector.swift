import GTIOCatalog

/// Which events a step or a series counts (INSIGHTS.md §1): a type, a list of types or `*`,
/// optionally followed by filters in brackets joined by *and*: `post.voted[verdict=wear_it]`.
public struct EventSelector: Hashable, Sendable, CustomStringConvertible {
    /// nil for every type.
    public var types: Set<EventType>?
    public var filters: [PropertyFilter]
    /// The selector as typed.
    public var text: String

    public var description: String { text }

    public init(_ text: String) throws(InsightError) {
        self.text = text
        var head = Substring(text), body: Substring?
        if let open = text.firstIndex(of: "[") {
            guard text.hasSuffix("]") else { throw .badSelector(text, reason: "a [ without its closing ]") }
            head = text[..<open]
            body = text[text.index(after: open)..<text.index(before: text.endIndex)]
        }
        if head == "*" {
            types = nil
        } else {
            var found = Set<EventType>()
            for name in head.split(separator: ",", omittingEmptySubsequences: false) {
                if name == "*" { throw .badSelector(text, reason: "* is not mixed with type names") }
                guard let type = EventType(rawValue: String(name)) else {
                    throw .unknownType(String(name), known: EventType.allCases.map(\.rawValue))
                }
                found.insert(type)
            }
            types = found
        }
        filters = []
        if let body {
            for part in Self.filterTexts(body) { filters.append(try PropertyFilter(part)) }
        }
    }

    /// The filters of a bracket: a comma starts a new one only when `PROP=` or `PROP!=` follows.
    static func filterTexts(_ body: Substring) -> [String] {
        var parts: [String] = []
        var current = ""
        var rest = body[...]
        while let comma = rest.firstIndex(of: ",") {
            let after = rest[rest.index(after: comma)...]
            let name = after.prefix { $0 != "=" && $0 != "," }
            let startsFilter = after.dropFirst(name.count).first == "=" && !name.isEmpty
            current += rest[..<comma]
            if startsFilter {
                parts.append(current)
                current = ""
            } else {
                current += ","
            }
            rest = after
        }
        current += rest
        if !current.isEmpty || !parts.isEmpty { parts.append(current) }
        return parts
    }

    /// Whether it takes events of `type` at all.
    func takes(_ type: EventType) -> Bool { types.map { $0.contains(type) } ?? true }
}
