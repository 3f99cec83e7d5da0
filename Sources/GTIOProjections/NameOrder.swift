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
        var keyed = entries.map { entry in (key: key(name(entry)), id: Array(id(entry).utf8), entry: entry) }
        keyed.sort { a, b in
            let order = compare(a.key, b.key)
            return order != 0 ? order < 0 : compare(a.id, b.id) < 0
        }
        return keyed.map(\.entry)
    }

    /// The UTF-8 of `name` lowercased: ASCII text lowercased byte by byte (which the full
    /// mapping does to it too, no context rule touching ASCII), other text by `lowercased`.
    static func key(_ name: String) -> [UInt8] {
        var bytes = Array(name.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return Array(lowercased(name).utf8) }
        for index in bytes.indices where bytes[index] &- 0x41 < 26 { bytes[index] |= 0x20 }
        return bytes
    }

    /// `key` as text, for a table whose rows are read in this order: both backends compare
    /// text byte by byte, as `sorted` compares keys.
    static func text(_ name: String) -> String {
        String(decoding: key(name), as: UTF8.self)
    }

    /// -1, 0 or 1 as `a` sorts before, with or after `b`, byte by byte, a prefix first.
    private static func compare(_ a: [UInt8], _ b: [UInt8]) -> Int {
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                for index in 0..<min(a.count, b.count) where a[index] != b[index] {
                    return a[index] < b[index] ? -1 : 1
                }
                return a.count < b.count ? -1 : a.count > b.count ? 1 : 0
            }
        }
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
