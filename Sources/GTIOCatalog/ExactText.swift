/// Text compared and hashed by its UTF-8 bytes, as SQLite compares it and as the rules compare
/// names ("exactly"). Swift's `String` equality is canonical equivalence, under which "é"
/// (U+00E9) and "e" followed by U+0301 are one string: as keys of a dictionary or a set, two
/// places, brands, reasons or property values that the rules keep apart would count as one.
public struct ExactText: Hashable, Sendable {
    public var text: String

    public init(_ text: String) { self.text = text }

    public static func == (a: ExactText, b: ExactText) -> Bool {
        var a = a.text, b = b.text
        return a.withUTF8 { a in b.withUTF8 { b in a.count == b.count && a.elementsEqual(b) } }
    }

    public func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

extension Sequence<String> {
    /// The distinct strings, told apart by their bytes, in code point order (which is the order
    /// of their UTF-8 bytes).
    public func distinctInCodePointOrder() -> [String] {
        var distinct: [String] = []
        for text in sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        where !(distinct.last?.isExactly(text) ?? false) {
            distinct.append(text)
        }
        return distinct
    }
}

extension String {
    /// Whether `other` has the same bytes: `==` says whether the two are canonically equivalent.
    public func isExactly(_ other: String?) -> Bool {
        guard let other else { return false }
        return ExactText(self) == ExactText(other)
    }
}
