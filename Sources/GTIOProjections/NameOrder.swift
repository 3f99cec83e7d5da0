/// The order of people listed by display name (followers, following): the lowercased names
/// compared by Unicode code points, then the ids.
///
/// "Lowercased" is Unicode's full lowercase mapping, context included: a capital sigma ending a
/// word becomes a final sigma (ς, U+03C2), as it does in Python, JavaScript, Java and Rust.
/// Swift's `lowercased()` maps every capital sigma to σ (U+03C3), so "ΟΔΟΣ" and "οδοσ" would tie
/// where the others put "οδος" first.
enum NameOrder {
    /// Sorts `entries` by the lowercased `name` of each, then by `id`, both by code points.
    static func sorted<Entry>(_ entries: [Entry], name: (Entry) -> String, id: (Entry) -> String) -> [Entry] {
        // UTF-8 byte order is code point order, so the keys compare as bytes, built once each.
        entries.map { entry in (key: Array(lowercased(name(entry)).utf8), id: Array(id(entry).utf8), entry: entry) }
            .sorted { a, b in
                if a.key != b.key { return a.key.lexicographicallyPrecedes(b.key) }
                return a.id.lexicographicallyPrecedes(b.id)
            }
            .map(\.entry)
    }

    /// `text` under Unicode's full lowercase mapping, with the Final_Sigma condition (The
    /// Unicode Standard, §3.13, table 3-17).
    static func lowercased(_ text: String) -> String {
        let sigma: Unicode.Scalar = "\u{3A3}"
        guard text.unicodeScalars.contains(sigma) else { return text.lowercased() }
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        for (index, scalar) in scalars.enumerated() {
            if scalar == sigma && endsAWord(at: index, in: scalars) {
                result.append("\u{3C2}")
            } else {
                result.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
            }
        }
        return String(result)
    }

    /// Whether the letter at `index` follows a cased letter and is followed by none, skipping
    /// case-ignorable characters (apostrophes, combining marks) either way.
    private static func endsAWord(at index: Int, in scalars: [Unicode.Scalar]) -> Bool {
        var before = index - 1
        while before >= 0 && scalars[before].properties.isCaseIgnorable { before -= 1 }
        guard before >= 0, scalars[before].properties.isCased else { return false }
        var after = index + 1
        while after < scalars.count && scalars[after].properties.isCaseIgnorable { after += 1 }
        return after == scalars.count || !scalars[after].properties.isCased
    }
}
