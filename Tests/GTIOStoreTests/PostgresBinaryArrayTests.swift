@testable import GTIOStorePostgres
import GTIOStore
import NIOCore
import Testing

/// A window of a PostgreSQL scan comes as arrays in the server's binary format, read from their
/// bytes: each element in order, NULLs as nil, and a broken array refused rather than misread.
struct PostgresBinaryArrayTests {
    /// An array as `array_send` writes it: elements of `type`, each `nil` a NULL; one dimension,
    /// or rows of `width` elements.
    private func array(_ elements: [[UInt8]?], type: Int32 = 20, width: Int? = nil) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.writeInteger(Int32(width == nil ? 1 : 2))
        buffer.writeInteger(Int32(elements.contains { $0 == nil } ? 1 : 0))
        buffer.writeInteger(type)
        buffer.writeInteger(Int32(width.map { elements.count / $0 } ?? elements.count))
        buffer.writeInteger(Int32(1))
        if let width {
            buffer.writeInteger(Int32(width))
            buffer.writeInteger(Int32(1))
        }
        for element in elements {
            if let element {
                buffer.writeInteger(Int32(element.count))
                buffer.writeBytes(element)
            } else {
                buffer.writeInteger(Int32(-1))
            }
        }
        return buffer
    }

    private func bigEndian(_ value: Int64) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }

    @Test func integersNumbersAndNullsComeBackInOrder() throws {
        var integers: [Int64?] = []
        try PostgresBinaryArray.forEach(array([bigEndian(7), nil, bigEndian(-2), bigEndian(1 << 40)])) {
            integers.append(try $0.optionalInteger())
        }
        #expect(integers == [7, nil, -2, 1 << 40])

        var numbers: [Double?] = []
        let pi = Int64(bitPattern: 3.25.bitPattern)
        try PostgresBinaryArray.forEach(array([nil, bigEndian(pi)], type: 701)) { numbers.append(try $0.optionalNumber()) }
        #expect(numbers == [nil, 3.25])
    }

    @Test func textElementsKeepTheirBytesAndEmptyTextIsNotNull() throws {
        var texts: [String?] = []
        try PostgresBinaryArray.forEach(array([Array("Łukasz".utf8), [], nil], type: 25)) { element in
            texts.append(element.bytes.map { String(decoding: $0, as: UTF8.self) })
        }
        #expect(texts == ["Łukasz", "", nil])
    }

    @Test func rowsOfAnArrayOfTwoDimensionsComeOneAfterTheOther() throws {
        var texts: [String?] = []
        let rows = array([Array("a".utf8), nil, Array("b".utf8), Array("c".utf8), nil, nil], type: 25, width: 2)
        try PostgresBinaryArray.forEach(rows, rowsOf: 2) { texts.append($0.bytes.map { String(decoding: $0, as: UTF8.self) }) }
        #expect(texts == ["a", nil, "b", "c", nil, nil])
        #expect(throws: StoreError.self) { try PostgresBinaryArray.forEach(rows, rowsOf: 3) { _ in } }
        #expect(throws: StoreError.self) { try PostgresBinaryArray.forEach(rows) { _ in } }
    }

    @Test func aNullOrEmptyArrayHasNoElements() throws {
        var seen = 0
        try PostgresBinaryArray.forEach(nil) { _ in seen += 1 }
        var empty = ByteBuffer()
        for word in [Int32(0), 0, 20] { empty.writeInteger(word) }
        try PostgresBinaryArray.forEach(empty) { _ in seen += 1 }
        #expect(seen == 0)
    }

    @Test func aTruncatedArrayOrAWrongWidthIsRefused() throws {
        var whole = array([bigEndian(1), bigEndian(2)])
        let truncated = whole.readSlice(length: whole.readableBytes - 3)!
        #expect(throws: StoreError.self) { try PostgresBinaryArray.forEach(truncated) { _ = try $0.integer() } }
        #expect(throws: StoreError.self) { try PostgresBinaryArray.forEach(array([[1, 2, 3, 4]])) { _ = try $0.integer() } }
        #expect(throws: StoreError.self) { try PostgresBinaryArray.forEach(array([nil])) { _ = try $0.integer() } }
    }
}
