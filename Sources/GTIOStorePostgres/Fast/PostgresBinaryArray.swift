import GTIOStore
import NIOCore
import PostgresNIO

/// The elements of an array of one or two dimensions in PostgreSQL's binary format
/// (`array_send`): the number of dimensions, a flag for NULLs, the element type, each
/// dimension's length and lower bound, then each element as a 32-bit length (-1 for NULL) and
/// its bytes, big-endian.
enum PostgresBinaryArray {
    /// One element's bytes, valid during the call that hands it over.
    struct Element {
        /// Nil for NULL.
        let bytes: UnsafeBufferPointer<UInt8>?

        /// A `bigint`.
        func integer() throws -> Int64 {
            guard let value = try optionalInteger() else { throw StoreError.database("a NULL in a column of the log that has none") }
            return value
        }

        /// A `bigint` or NULL.
        func optionalInteger() throws -> Int64? {
            guard let bytes else { return nil }
            guard bytes.count == 8 else { throw StoreError.database("an integer of \(bytes.count) bytes in a window of the log") }
            return Int64(bigEndian: UnsafeRawBufferPointer(bytes).loadUnaligned(as: Int64.self))
        }

        /// A `double precision` or NULL.
        func optionalNumber() throws -> Double? {
            try optionalInteger().map { Double(bitPattern: UInt64(bitPattern: $0)) }
        }
    }

    /// The arrays of a row of them (a window of the log sent as one row), one column after
    /// another, each checked to have come in binary form.
    struct Columns {
        private var cells: PostgresRow.Iterator

        init(_ row: PostgresRow) {
            cells = row.makeIterator()
        }

        /// The next column's array; nil for NULL (an aggregate over no rows).
        mutating func next() throws -> ByteBuffer? {
            guard let cell = cells.next() else { throw StoreError.database("a window of the log came back without all its columns") }
            guard cell.format == .binary else { throw StoreError.database("a window of the log came back as text, not binary") }
            return cell.bytes
        }

        /// The next column as the window's seqs, which must rise: a window out of order fails the
        /// read rather than misleads it.
        mutating func seqs(into seqs: inout [Int64]) throws {
            try PostgresBinaryArray.forEach(next()) { seqs.append(try $0.integer()) }
            for index in seqs.indices.dropFirst() where seqs[index] <= seqs[index - 1] {
                throw StoreError.database("a window of the log came back out of seq order at seq \(seqs[index])")
            }
        }
    }

    /// A window whose columns are not all as long as its seqs.
    static let uneven = StoreError.database("a window of the log came back with columns of different lengths")

    /// Calls `body` with each element of `array` in order; nothing for a NULL array (an
    /// aggregate over no rows). With `rowsOf`, the array has two dimensions, the second of that
    /// length, and the elements come row after row.
    static func forEach(_ array: ByteBuffer?, rowsOf width: Int32? = nil, _ body: (Element) throws -> Void) throws {
        guard let array else { return }
        try array.withUnsafeReadableBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var offset = 0
            func int32() throws -> Int32 {
                guard offset + 4 <= raw.count else { throw StoreError.database("an array of the log ends early") }
                let value = Int32(bigEndian: raw.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                offset += 4
                return value
            }
            let dimensions = try int32()
            _ = try int32()  // whether any element is NULL
            _ = try int32()  // the element type
            if dimensions == 0 { return }  // an empty array
            guard dimensions == (width == nil ? 1 : 2) else {
                throw StoreError.database("an array of \(dimensions) dimensions where the log's have \(width == nil ? 1 : 2)")
            }
            var count = Int(try int32())
            _ = try int32()  // the lower bound
            if let width {
                guard try int32() == width else { throw StoreError.database("an array of the log's rows of another width") }
                _ = try int32()
                count *= Int(width)
            }
            for _ in 0..<max(count, 0) {
                let length = try int32()
                guard length >= 0 else {
                    try body(Element(bytes: nil))
                    continue
                }
                guard offset + Int(length) <= raw.count else { throw StoreError.database("an array of the log ends early") }
                try body(Element(bytes: UnsafeBufferPointer(rebasing: bytes[offset..<offset + Int(length)])))
                offset += Int(length)
            }
        }
    }
}
