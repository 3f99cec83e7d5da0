/// Text compared and hashed by its UTF-8 bytes, as SQLite compares it and as the rules compare
/// names ("exactly"). Swift's `String` equality is canonical equivalence, under which "é"
/// (U+00E9) and "e" followed by U+0301 are one string: as keys of a dictionary or a set, two
/// places, brands or reasons that the rules keep apart would be counted as one.
struct ExactText: Hashable, Sendable {
    var text: String

    init(_ text: String) { self.text = text }

    static func == (a: ExactText, b: ExactText) -> Bool { a.text.utf8.elementsEqual(b.text.utf8) }

    func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

extension Sequence<String> {
    /// The distinct strings, told apart by their bytes, in code point order (which is the order
    /// of their UTF-8 bytes).
    func distinctInCodePointOrder() -> [String] {
        var distinct: [String] = []
        for text in sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        where distinct.last.map({ !$0.utf8.elementsEqual(text.utf8) }) ?? true {
            distinct.append(text)
        }
        return distinct
    }
}
