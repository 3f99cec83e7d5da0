/// Reads back what `StateWriter` wrote, throwing rather than trapping on bytes that end early
/// or do not parse: a snapshot that fails to read is set aside and the log folded instead.
struct StateReader: ~Copyable {
    private let bytes: UnsafeRawBufferPointer
    private var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { offset == bytes.count }

    mutating func readUInt64() throws -> UInt64 {
        var value: UInt64 = 0, shift: UInt64 = 0
        while true {
            guard offset < bytes.count, shift < 64 else { throw FoldSnapshotError.malformed("a number runs past the end") }
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    mutating func readInt64() throws -> Int64 {
        let raw = try readUInt64()
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    mutating func readInt() throws -> Int { Int(try readInt64()) }

    /// A count or key: never negative, and never more than the snapshot's bytes could describe.
    mutating func readCount() throws -> Int {
        let count = try readInt()
        guard count >= 0, count <= bytes.count else { throw FoldSnapshotError.malformed("a count of \(count)") }
        return count
    }

    mutating func readBool() throws -> Bool {
        guard offset < bytes.count else { throw FoldSnapshotError.malformed("a flag runs past the end") }
        offset += 1
        return bytes[offset - 1] != 0
    }

    mutating func readWord() throws -> UInt64 {
        guard offset + 8 <= bytes.count else { throw FoldSnapshotError.malformed("a word runs past the end") }
        let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        offset += 8
        return word
    }

    mutating func readBytes(_ count: Int) throws -> [UInt8] {
        guard offset + count <= bytes.count else { throw FoldSnapshotError.malformed("bytes run past the end") }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    mutating func readString() throws -> String {
        let count = try readCount()
        guard offset + count <= bytes.count else { throw FoldSnapshotError.malformed("text runs past the end") }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count]), as: UTF8.self)
        offset += count
        return text
    }

    mutating func readOptionalString() throws -> String? {
        try readBool() ? try readString() : nil
    }

    mutating func readOptionalDouble() throws -> Double? {
        try readBool() ? Double(bitPattern: try readWord()) : nil
    }

    mutating func readOptionalInt64() throws -> Int64? {
        try readBool() ? try readInt64() : nil
    }

    /// A count, then that many elements by `element`.
    mutating func readArray<T>(_ element: (inout StateReader) throws -> T) throws -> [T] {
        let count = try readCount()
        var values: [T] = []
        values.reserveCapacity(count)
        for _ in 0..<count { values.append(try element(&self)) }
        return values
    }

    /// A count, then that many elements by `element`, into a set; an element that comes twice is
    /// malformed, as no saved set holds one twice.
    mutating func readSet<T: Hashable>(_ element: (inout StateReader) throws -> T) throws -> Set<T> {
        let count = try readCount()
        var values = Set<T>(minimumCapacity: count)
        for _ in 0..<count {
            guard values.insert(try element(&self)).inserted else { throw FoldSnapshotError.malformed("an element of a set twice") }
        }
        return values
    }

    /// A count, then that many key-value pairs, into a dictionary or an `IDMap`.
    mutating func readDictionary<Table: KeyedTable>(
        _ entry: (inout StateReader) throws -> (Table.Key, Table.Value)
    ) throws -> Table {
        let count = try readCount()
        var values = Table(minimumCapacity: count)
        for _ in 0..<count {
            let (key, value) = try entry(&self)
            values[key] = consume value
        }
        return values
    }
}

/// What `readDictionary` fills: a `Dictionary`, or an `IDMap` (ids told apart by their bytes).
protocol KeyedTable {
    associatedtype Key
    associatedtype Value
    init(minimumCapacity: Int)
    subscript(key: Key) -> Value? { get set }
}

extension Dictionary: KeyedTable {}
extension IDMap: KeyedTable {}
