/// Rows of one table packed for a bulk insert: their values in row order and all their text in
/// one buffer, so that a row costs no allocation of its own (a full rewrite of the read-model
/// tables otherwise spends longer making and freeing rows than the database inserting them).
public struct PackedRows: RowSink, Sendable {
    public enum Value: Sendable {
        case null
        case integer(Int64)
        case real(Double)
        /// Bytes of `bytes`; SQLite takes no text longer than 2^31 - 1 bytes anyway.
        case text(start: Int, count: Int32)
    }

    /// Values per row.
    public let width: Int
    public private(set) var values: [Value] = []
    /// The text of every row, one value after another (`Value.text` says where).
    public private(set) var bytes: [UInt8] = []

    /// Rows of `width` values; room for `capacity` rows is reserved up front, with 16 bytes of
    /// text per value: room never written to costs no memory (the system maps pages on first
    /// touch), while growing the text by doubling copied it and touched it all again.
    public init(width: Int, capacity: Int = 0) {
        precondition(width > 0, "a row has at least one value")
        self.width = width
        values.reserveCapacity(capacity * width)
        bytes.reserveCapacity(capacity * width * 16)
    }

    /// Complete rows appended so far.
    public var count: Int { values.count / width }

    public mutating func appendNull() { values.append(.null) }
    public mutating func append(_ integer: Int64) { values.append(.integer(integer)) }
    public mutating func append(_ number: Double) { values.append(.real(number)) }

    public mutating func append(_ text: String) {
        var text = text
        let start = bytes.count
        text.withUTF8 { bytes.append(contentsOf: $0) }
        values.append(.text(start: start, count: Int32(bytes.count - start)))
    }

    /// The rows as values.
    public var rows: [[StoreValue]] {
        stride(from: 0, to: count * width, by: width).map { first in
            values[first..<first + width].map { value in
                switch value {
                case .null: .null
                case .integer(let integer): .integer(integer)
                case .real(let number): .real(number)
                case .text(let start, let count): .text(String(decoding: bytes[start..<start + Int(count)], as: UTF8.self))
                }
            }
        }
    }
}
