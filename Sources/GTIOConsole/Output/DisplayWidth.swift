import CReadline
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How many terminal columns text takes: East Asian wide characters and most emoji two,
/// combining marks none. Measured with the C library's `wcwidth` under a UTF-8 locale.
enum DisplayWidth {
    private static let localeReady: Bool = {
        // wcwidth answers -1 for every non-ASCII character in the default "C" locale.
        setlocale(LC_CTYPE, "C.UTF-8") != nil
    }()

    static func of(_ character: Character) -> Int {
        _ = localeReady
        var width = 0
        for scalar in character.unicodeScalars {
            let columns = Int(gtio_wcwidth(scalar.value))
            width = max(width, columns)  // a cluster is as wide as its widest scalar
        }
        if character.unicodeScalars.count == 1, width < 0 { return 1 }
        return max(width, character.isASCII ? 1 : 0)
    }

    /// Printable ASCII, the most of what tables hold, is one column a byte: counted without
    /// walking characters (a 40,000-row queue spent a third of its time here).
    static func of(_ text: String) -> Int {
        var text = text
        let ascii = text.withUTF8 { bytes in bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }
        if ascii { return text.utf8.count }
        // Latin letters with their accents precomposed (names, mostly) are one column a scalar
        // too: below U+0300, where combining marks begin, nothing printable is wide or joins.
        // Other text whose every scalar stands alone is as wide as its scalars; only text with
        // a scalar that may join another is walked a character (grapheme cluster) at a time.
        var columns = 0
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x300, value >= 0xA0 || (value >= 0x20 && value < 0x7F) {
                columns += 1
            } else if standsAlone(value) {
                columns += of(Character(scalar))
            } else {
                return text.reduce(0) { $0 + of($1) }
            }
        }
        return columns
    }

    /// Whether a character holding this scalar holds it alone, whatever its neighbours, as long
    /// as they also stand alone: none of these extends, joins, prepends to or pairs with
    /// another scalar (Unicode's grapheme cluster rules). Punctuation, currency signs, kana,
    /// CJK ideographs, Hangul syllables, fullwidth forms and most emoji (not their skin-tone
    /// modifiers, which extend the one before, nor flags' regional indicators, which pair).
    private static func standsAlone(_ value: UInt32) -> Bool {
        switch value {
        case 0x2010...0x2027, 0x2030...0x205E, 0x20A0...0x20C0: true
        case 0x3041...0x3096, 0x30A0...0x30FF, 0x4E00...0x9FFF, 0xAC00...0xD7A3, 0xFF01...0xFF60: true
        case 0x1F300...0x1F3FA, 0x1F400...0x1F64F, 0x1F680...0x1F6FF, 0x1F900...0x1F9FF: true
        default: false
        }
    }

    /// The longest prefix of `text` that fits `width` columns.
    static func prefix(_ text: String, fitting width: Int) -> String {
        var used = 0
        var end = text.startIndex
        for index in text.indices {
            let next = of(text[index])
            if used + next > width { break }
            used += next
            end = text.index(after: index)
        }
        return String(text[..<end])
    }
}
