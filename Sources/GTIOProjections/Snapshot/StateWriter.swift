/// Bytes of a fold snapshot being written: integers as LEB128 varints (most are small counts,
/// keys and seqs), text as its length and UTF-8 bytes.
///
/// The bytes come in chunks of about `chunkSize` (the store's parts of the state), so that a
/// large state is never held twice in one piece: neither grown by doubling nor copied whole
/// into parts.
struct StateWriter {
    /// The chunks filled so far.
    private var filled: [[UInt8]] = []
    /// The chunk being filled.
    private var bytes: [UInt8] = []
    private let chunkSize: Int

    /// `chunkSize`: once a chunk holds that many bytes, the next value starts another; a value
    /// is never split, so a chunk can end up to one value longer.
    init(chunkSize: Int) {
        precondition(chunkSize > 0)
        self.chunkSize = chunkSize
        bytes.reserveCapacity(Self.reserve(chunkSize))
    }

    /// What was written, in order: chunks of `chunkSize` bytes or a value more, the last shorter.
    var chunks: [[UInt8]] { bytes.isEmpty ? filled : filled + [bytes] }

    /// Room for a chunk and the value that ends it, so that a chunk grows once at most, for a
    /// value of over 64 KB (a long description): reserving does not touch the pages.
    private static func reserve(_ chunkSize: Int) -> Int { chunkSize + min(chunkSize, 64 << 10) }

    /// Starts a new chunk when this one is full: called before each value, never inside one.
    @inline(__always)
    private mutating func makeRoom() {
        guard bytes.count >= chunkSize else { return }
        filled.append(bytes)
        bytes = []
        bytes.reserveCapacity(Self.reserve(chunkSize))
    }

    mutating func write(_ value: UInt64) {
        makeRoom()
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
    mutating func write(_ value: Bool) {
        makeRoom()
        bytes.append(value ? 1 : 0)
    }

    /// A whole word, for bit sets whose high bits are set as often as not.
    mutating func writeWord(_ value: UInt64) {
        makeRoom()
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func writeBytes(_ raw: [UInt8]) {
        makeRoom()
        bytes.append(contentsOf: raw)
    }

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
