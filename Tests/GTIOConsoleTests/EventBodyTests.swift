import Foundation
import GTIOServer
import Testing

/// How a collector request's body is cut into events.
@Suite struct EventBodyTests {
    func texts(_ body: String, _ format: EventBody.Format) throws -> [String] {
        try EventBody.events(in: Array(body.utf8), as: format).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func anArrayGivesEachElementAndAPrettyOneIsMadeOneLine() throws {
        #expect(try texts(#" [ {"a": 1}, {"b": "x, ]}"} ,7 ] "#, .json) == [#"{"a": 1}"#, #"{"b": "x, ]}"}"#, "7"])
        #expect(try texts("{\n  \"a\": \"two words\",\n  \"b\": [1, 2]\n}", .json) == [#"{"a":"two words","b":[1,2]}"#])
        #expect(try texts("[]", .json) == [])
        #expect(try texts(#"{"s": "quote \" and \\"}"#, .json) == [#"{"s": "quote \" and \\"}"#])
    }

    @Test func jsonLinesSkipBlankLinesAndCarriageReturns() throws {
        #expect(try texts("{\"a\":1}\r\n\n  \n{bad\n", .jsonLines) == [#"{"a":1}"#, "{bad"])
    }

    @Test func aBodyThatIsNotJSONSaysWhere() throws {
        #expect(throws: ServerError.notJSON("it starts with neither { nor [")) { try texts("hello", .json) }
        #expect(throws: ServerError.notJSON("the array is not closed")) { try texts("[{\"a\":1}", .json) }
        #expect(throws: ServerError.notJSON("a string is not closed")) { try texts("{\"a", .json) }
        #expect(throws: ServerError.notJSON("the body is empty")) { try texts("  ", .json) }
    }

    @Test func contentTypesMapToFormats() {
        #expect(EventBody.Format(contentType: "application/json; charset=utf-8") == .json)
        #expect(EventBody.Format(contentType: nil) == .json)
        #expect(EventBody.Format(contentType: "application/x-ndjson") == .jsonLines)
        #expect(EventBody.Format(contentType: "text/csv") == nil)
    }
}
