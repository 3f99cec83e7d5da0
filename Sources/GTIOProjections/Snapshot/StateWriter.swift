/// Bytes of a fold snapshot being written: integers as LEB128 varints (most are small counts,
/// keys and seqs), text as its length and UTF-8 bytes.
struct StateWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 1 << 20) {
        bytes.reserveCapacity(capacity)
    }

    mutating func write(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// Signed values zigzagged, so that small negatives stay short.
    mutating func write(_ value: Int64) { write(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }
    mutating func write(_ value: Int) { write(Int64(value)) }
    mutating func write(_ value: Bool) { bytes.append(value ? 1 : 0) }

    /// A whole word, for bit sets whose high bits are set as often as not.
    mutating func writeWord(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func writeBytes(_ raw: [UInt8]) { bytes.append(contentsOf: raw) }

    mutating func write(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            write(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }

    mutating func write(_ value: String?) {
        write(value != nil)
        if let value { write(value) }
    }

    /// A double by its bit pattern, after whether it is there.
    mutating func write(_ value: Double?) {
        write(value != nil)
        if let value { writeWord(value.bitPattern) }
    }

    mutating func write(_ value: Int64?) {
        write(value != nil)
        if let value { write(value) }
    }

    /// A count, then each element by `element`.
    mutating func write<C: Collection>(_ values: C, _ element: (inout StateWriter, C.Element) -> Void) {
        write(values.count)
        for value in values { element(&self, value) }
    }
}
