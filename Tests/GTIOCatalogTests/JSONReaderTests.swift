import Testing
@testable import GTIOCatalog

@Suite struct JSONReaderTests {
    @Test func readsNestedValuesInOrder() throws {
        let value = try JSONReader.parse(#" {"a": [1, -2.5, true, false, null], "b": {"c": "d"}} "#)
        guard case .object(let object) = value else { Issue.record("not an object"); return }
        #expect(object.members.map(\.key) == ["a", "b"])
        #expect(object["a"] == .array([
            .number(JSONNumber(value: 1, integer: 1)), .number(JSONNumber(value: -2.5, integer: nil)),
            .bool(true), .bool(false), .null,
        ]))
        #expect(object["b"] == .object(JSONObject([("c", .string("d"))])))
    }

    @Test func tellsIntegersFromFractionsAndExponents() throws {
        #expect(try JSONReader.parse("3") == .number(JSONNumber(value: 3, integer: 3)))
        #expect(try JSONReader.parse("3.0") == .number(JSONNumber(value: 3, integer: nil)))
        #expect(try JSONReader.parse("3e0") == .number(JSONNumber(value: 3, integer: nil)))
        #expect(try JSONReader.parse("-0") == .number(JSONNumber(value: 0, integer: 0)))
    }

    @Test func aWholeNumberReadsWithoutAFractionAtAnySize() throws {
        func text(_ json: String) throws -> String {
            guard case .number(let number) = try JSONReader.parse(json) else { return "not a number" }
            return JSONValue.text(of: number)
        }
        #expect(try text("120.0") == "120")
        #expect(try text("-0.0") == "0")
        #expect(try text("1.5e15") == "1500000000000000")
        #expect(try text("1e16") == "10000000000000000")
        #expect(try text("123456789012345678") == "123456789012345678")
        #expect(try text("1e21") == "1000000000000000000000")
        #expect(try text("-2e19") == "-20000000000000000000")
        #expect(try text("1.7976931348623157e308").hasPrefix("179769313486231570814527423731704356798070567525844996598917"))
        #expect(try text("1.7976931348623157e308").count == 309)
        #expect(try text("12.5") == "12.5")
        #expect(try text("0.1") == "0.1")
        #expect(try text("1e-7") == "1e-07")
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        #expect(try JSONReader.parse(#""a\"b\\c\/d\n\u00e9\ud83d\udc4f""#) == .string("a\"b\\c/d\né👏"))
        #expect(try JSONReader.parse("\"Łukasz ¿qué? 美咲\"") == .string("Łukasz ¿qué? 美咲"))
    }

    @Test func duplicateKeysResolveToTheLast() throws {
        guard case .object(let object) = try JSONReader.parse(#"{"k": 1, "k": 2}"#) else { Issue.record(); return }
        #expect(object["k"] == .number(JSONNumber(value: 2, integer: 2)))
    }

    @Test func nullMembersReadAsAbsent() throws {
        guard case .object(let object) = try JSONReader.parse(#"{"k": null}"#) else { Issue.record(); return }
        #expect(object["k"] == nil)
    }

    @Test(arguments: [
        ("{\"a\":1,}", "expected a member name in quotes at byte 8"),
        ("[1,]", "unexpected character ']' at byte 4"),
        ("01", "unexpected text after the JSON value at byte 2"),
        ("{\"a\" 1}", "expected ':' after a member name at byte 6"),
        ("\"abc", "unterminated string at byte 5"),
        ("\"a\tb\"", "unescaped control character in a string at byte 3"),
        ("\"\\ud800\"", "lone high surrogate in a \\u escape at byte 8"),
        ("\"\\x\"", "invalid escape '\\x' at byte 4"),
        ("tru", "unexpected end of input at byte 1"),
        ("1.", "expected a digit after '.' at byte 3"),
        ("", "unexpected end of input at byte 1"),
        ("{} {}", "unexpected text after the JSON value at byte 4"),
    ])
    func rejectsMalformedText(text: String, message: String) {
        #expect(throws: JSONSyntaxError.self) { try JSONReader.parse(text) }
        do { _ = try JSONReader.parse(text) } catch { #expect(error.description == message) }
    }

    @Test func rejectsInvalidUTF8InsideStrings() {
        let bytes: [UInt8] = [0x22, 0x61, 0xC3, 0x28, 0x22]  // "a\xC3(": a broken two-byte sequence
        let result = bytes.withUnsafeBufferPointer { buffer in Result { try JSONReader.parse(buffer) } }
        #expect(throws: JSONSyntaxError.self) { try result.get() }
    }

    @Test func refusesNestingDeeperThanTheLimit() {
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        let fine = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: JSONSyntaxError.self) { try JSONReader.parse(deep) }
        #expect(throws: Never.self) { try JSONReader.parse(fine) }
    }
}
