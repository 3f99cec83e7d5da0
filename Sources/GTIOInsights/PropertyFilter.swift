import GTIOCatalog

/// `PROP=VALUE` or `PROP!=VALUE`: values compare as exact text; on a multi-valued property `=`
/// means any element matches and `!=` that none does; an absent value reads `(none)`.
public struct PropertyFilter: Hashable, Sendable {
    public var property: InsightProperty
    public var value: String
    public var negated: Bool

    public init(_ text: String) throws(InsightError) {
        guard let equals = text.firstIndex(of: "=") else { throw .badFilter(text) }
        var name = text[..<equals]
        negated = name.hasSuffix("!")
        if negated { name = name.dropLast() }
        guard !name.isEmpty else { throw .badFilter(text) }
        property = try InsightProperty(String(name))
        value = String(text[text.index(after: equals)...])
    }

    /// Whether an event whose property has `values` (empty: absent) passes.
    func keeps(_ values: [String]) -> Bool {
        // Exact text: by bytes, where `String`'s `==` would take "é" and "e" + U+0301 for one.
        let found = values.isEmpty ? value == InsightProperty.none : values.contains { $0.isExactly(value) }
        return negated ? !found : found
    }
}
