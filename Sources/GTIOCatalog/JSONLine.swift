/// What of one JSON Lines line is the event (EVENTS.md §4), the same for a file `ingest` reads
/// and a body `serve` takes.
public enum JSONLine {
    /// The part of `line` (its bytes, without the `\n`) that holds the event: one trailing `\r`
    /// dropped (`\r\n` line ends), and a UTF-8 byte-order mark when the line starts its input;
    /// nil when nothing but spaces, tabs and carriage returns is left (a blank line).
    public static func content(of line: UnsafeBufferPointer<UInt8>, startsInput: Bool) -> Range<Int>? {
        var last = line.count
        if last > 0 && line[last - 1] == UInt8(ascii: "\r") { last -= 1 }
        var first = 0
        if startsInput && last >= 3 && line[0] == 0xEF && line[1] == 0xBB && line[2] == 0xBF { first = 3 }
        for index in first..<last where line[index] != 0x20 && line[index] != 0x09 && line[index] != 0x0D {
            return first..<last
        }
        return nil
    }
}
