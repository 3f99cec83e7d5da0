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
        var scalars = 0
        for scalar in text.unicodeScalars {
            guard scalar.value < 0x300, scalar.value >= 0xA0 || (scalar.value >= 0x20 && scalar.value < 0x7F) else {
                return text.reduce(0) { $0 + of($1) }
            }
            scalars += 1
        }
        return scalars
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
