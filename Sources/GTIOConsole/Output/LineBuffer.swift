/// The lines of a table being written, as UTF-8 bytes, each trimmed of its trailing spaces when
/// it ends.
///
/// Bytes rather than a `String`: appending to a string checks and updates its storage at every
/// piece, and a table of tens of thousands of rows appends several pieces a cell
/// (docs/PERFORMANCE.md).
struct LineBuffer {
    var bytes: [UInt8] = []
    /// Where the line being written began in `bytes`.
    private var lineStart = 0

    init() {
        bytes.reserveCapacity(1 << 16 + 1 << 12)
    }

    mutating func appendSpaces(_ count: Int) {
        var left = count
        // Copied from a row of spaces: appending a repeated element goes a byte at a time.
        while left > 0 {
            let piece = min(left, Self.spaces.count)
            bytes.append(contentsOf: Self.spaces[..<piece])
            left -= piece
        }
    }

    private static let spaces = [UInt8](repeating: UInt8(ascii: " "), count: 256)

    /// Appends `value` in decimal, as `String(value)` writes it.
    mutating func append(_ value: Int64) {
        let count = Self.digits(value)
        let end = bytes.count + count
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "-"), count: count))
        var rest = value.magnitude
        var index = end - 1
        repeat {
            bytes[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
            index -= 1
        } while rest > 0
    }

    /// Appends `text` in a column `width` wide: cut with an ellipsis when longer, padded with
    /// spaces on the left (`right`) or the right. Its width is measured once.
    mutating func append(_ text: String, fitting width: Int, right: Bool) {
        var text = text
        var used = DisplayWidth.of(text)
        if used > width {
            text = DisplayWidth.prefix(text, fitting: max(0, width - 1)) + "…"
            used = DisplayWidth.of(text)
        }
        let padding = max(0, width - used)
        if right { appendSpaces(padding) }
        bytes.append(contentsOf: text.utf8)
        if !right { appendSpaces(padding) }
    }

    /// Ends the line: drops its trailing spaces (a space is one byte in UTF-8 and never part of
    /// another character's bytes) and appends a line feed.
    mutating func endLine() {
        while bytes.count > lineStart, bytes[bytes.count - 1] == UInt8(ascii: " ") { bytes.removeLast() }
        bytes.append(UInt8(ascii: "\n"))
        lineStart = bytes.count
    }

    /// Hands `out` the lines written so far, which the buffer then forgets.
    mutating func take(_ out: ([UInt8]) -> Void) {
        out(bytes)
        bytes.removeAll(keepingCapacity: true)
        lineStart = 0
    }

    /// How many characters `String(value)` has.
    static func digits(_ value: Int64) -> Int {
        var count = value < 0 ? 2 : 1
        var rest = value.magnitude
        while rest >= 10 {
            rest /= 10
            count += 1
        }
        return count
    }

    /// The width of `text` and whether it holds a space, when it is printable ASCII only (one
    /// column a byte, nothing to escape); nil for any other text.
    static func printableASCII(_ text: String) -> (width: Int, spaced: Bool)? {
        let measured = text.utf8.withContiguousStorageIfAvailable { bytes -> (Int, Bool)? in
            var spaced = false
            for byte in bytes {
                guard byte >= 0x20 && byte < 0x7F else { return nil }
                if byte == 0x20 { spaced = true }
            }
            return (bytes.count, spaced)
        }
        guard let measured else {
            var copy = text
            copy.makeContiguousUTF8()
            return printableASCII(copy)
        }
        return measured.map { (width: $0.0, spaced: $0.1) }
    }
}
