import GTIOStore
import NIOCore
import PostgresNIO

/// One column of a batch as a PostgreSQL array parameter, NULLs included: what
/// `INSERT … SELECT unnest($1), unnest($2), …` takes to insert a whole batch in one statement.
/// postgres-nio encodes arrays of non-optional values only, and most of the log's columns
/// are nullable; this writes the binary array format itself (one dimension, lower bound 1).
struct PostgresArray: PostgresDynamicTypeEncodable {
    enum Kind {
        case int8, float8, text, bytea

        var elementType: PostgresDataType {
            switch self {
            case .int8: .int8
            case .float8: .float8
            case .text: .text
            case .bytea: .bytea
            }
        }

        var arrayType: PostgresDataType {
            switch self {
            case .int8: .int8Array
            case .float8: .float8Array
            case .text: .textArray
            case .bytea: .byteaArray
            }
        }
    }

    let kind: Kind
    /// The elements' encodings back to back, each an Int32 length (-1 for NULL) and its bytes.
    private(set) var body = ByteBuffer()
    private(set) var count: Int32 = 0
    private(set) var hasNull = false

    init(_ kind: Kind, capacity: Int = 0) {
        self.kind = kind
        body.reserveCapacity(capacity * 12)
    }

    mutating func appendNull() {
        body.writeInteger(Int32(-1))
        count += 1
        hasNull = true
    }

    mutating func append(_ value: Int64?) {
        guard let value else { return appendNull() }
        body.writeInteger(Int32(8))
        body.writeInteger(value)
        count += 1
    }

    mutating func append(_ value: Double?) {
        guard let value else { return appendNull() }
        body.writeInteger(Int32(8))
        body.writeInteger(value.bitPattern)
        count += 1
    }

    mutating func append(_ value: String?) {
        guard let value else { return appendNull() }
        let lengthIndex = body.writerIndex
        body.writeInteger(Int32(0))
        let written = body.writeString(value)
        body.setInteger(Int32(written), at: lengthIndex)
        count += 1
    }

    mutating func append<Bytes: Collection>(bytes: Bytes?) where Bytes.Element == UInt8 {
        guard let bytes else { return appendNull() }
        body.writeInteger(Int32(bytes.count))
        body.writeBytes(bytes)
        count += 1
    }

    /// A value of a column of `type`, converted as SQLite's column affinity would store it.
    mutating func append(_ value: StoreValue, as type: TableLayout.ColumnType) {
        switch (value, type) {
        case (.null, _): appendNull()
        case (.integer(let integer), .real): append(Double(integer))
        case (.integer(let integer), .text): append(String(integer))
        case (.integer(let integer), _): append(integer)
        case (.real(let number), .integer): append(Int64(exactly: number) ?? Int64(number))
        case (.real(let number), .text): append(String(number))
        case (.real(let number), _): append(number)
        case (.text(let text), .integer): append(Int64(text))
        case (.text(let text), .real): append(Double(text))
        case (.text(let text), .blob): append(bytes: Array(text.utf8))
        case (.text(let text), _): append(text)
        case (.blob(let bytes), .blob): append(bytes: bytes)
        case (.blob(let bytes), _): append(String(decoding: bytes, as: UTF8.self))
        }
    }

    var psqlType: PostgresDataType { kind.arrayType }
    var psqlFormat: PostgresFormat { .binary }

    func encode<JSONEncoder: PostgresJSONEncoder>(into byteBuffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        byteBuffer.writeInteger(Int32(count == 0 ? 0 : 1))
        byteBuffer.writeInteger(Int32(hasNull ? 1 : 0))
        byteBuffer.writeInteger(kind.elementType.rawValue)
        if count > 0 {
            byteBuffer.writeInteger(count)
            byteBuffer.writeInteger(Int32(1))
        }
        var body = body
        byteBuffer.writeBuffer(&body)
    }
}
