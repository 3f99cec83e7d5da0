import Foundation
import GTIOCatalog

/// A collector request's body cut into one text per event, each as `ingest` would have read it
/// from a line: an object alone, the elements of an array, or the non-blank lines of JSON Lines.
///
/// Only the structure is read here (brackets and strings), so that one malformed event inside a
/// well-formed array is rejected on its own by the validator, with its reason, and its
/// neighbours are still appended.
public enum EventBody {
    /// How the body holds its events, from its content type.
    public enum Format: Sendable, Equatable {
        /// `application/json`: one event object, or an array of them.
        case json
        /// `application/x-ndjson` (or `application/jsonl`, `application/jsonlines`): one event per line.
        case jsonLines

        /// The format of a `Content-Type` value; nil for one the collector does not read. A
        /// missing type is read as JSON, which also accepts what `curl --data-binary` sends.
        public init?(contentType: String?) {
            guard let contentType else { self = .json; return }
            let media = contentType.split(separator: ";", maxSplits: 1).first.map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            } ?? ""
            switch media {
            case "application/json", "text/json", "": self = .json
            case "application/x-ndjson", "application/ndjson", "application/jsonl", "application/jsonlines",
                 "application/x-jsonlines":
                self = .jsonLines
            default: return nil
            }
        }
    }

    /// The events' texts in body order; a pretty-printed event is made one line (whitespace
    /// outside strings dropped), as a JSON Lines file holds it.
    public static func events(in body: [UInt8], as format: Format) throws(ServerError) -> [[UInt8]] {
        switch format {
        case .jsonLines: return lines(of: body)
        case .json: return try values(in: body)
        }
    }

    /// The events' lines by `ingest`'s rule (`JSONLine`): blank lines skipped, `\r\n` ends and a
    /// leading byte-order mark dropped, everything else kept byte for byte.
    private static func lines(of body: [UInt8]) -> [[UInt8]] {
        body.withUnsafeBufferPointer { all in
            var lines: [[UInt8]] = []
            var start = 0
            while start < all.count {
                let end = all[start...].firstIndex(of: UInt8(ascii: "\n")) ?? all.count
                let line = UnsafeBufferPointer(rebasing: all[start..<end])
                if let content = JSONLine.content(of: line, startsInput: start == 0) { lines.append(Array(line[content])) }
                start = end + 1
            }
            return lines
        }
    }

    private static func values(in body: [UInt8]) throws(ServerError) -> [[UInt8]] {
        var index = skipSpace(body, from: 0)
        guard index < body.count else { throw .notJSON("the body is empty") }
        switch body[index] {
        case UInt8(ascii: "{"):
            let end = try valueEnd(body, from: index)
            let after = skipSpace(body, from: end)
            guard after == body.count else {
                throw .notJSON("more follows the first object at byte \(after); send several events as an array, or as JSON Lines with Content-Type: application/x-ndjson")
            }
            return [oneLine(body[index..<end])]
        case UInt8(ascii: "["):
            var events: [[UInt8]] = []
            index = skipSpace(body, from: index + 1)
            if index < body.count, body[index] == UInt8(ascii: "]") {
                guard skipSpace(body, from: index + 1) == body.count else { throw .notJSON("more follows the array") }
                return []
            }
            while true {
                guard index < body.count else { throw .notJSON("the array is not closed") }
                let end = try valueEnd(body, from: index)
                events.append(oneLine(body[index..<end]))
                index = skipSpace(body, from: end)
                guard index < body.count else { throw .notJSON("the array is not closed") }
                if body[index] == UInt8(ascii: ",") {
                    index = skipSpace(body, from: index + 1)
                } else if body[index] == UInt8(ascii: "]") {
                    guard skipSpace(body, from: index + 1) == body.count else { throw .notJSON("more follows the array") }
                    return events
                } else {
                    throw .notJSON("expected , or ] at byte \(index)")
                }
            }
        default:
            throw .notJSON("it starts with neither { nor [")
        }
    }

    /// The index just past the value starting at `start`: a container to its matching bracket,
    /// a string to its closing quote, a scalar to the next delimiter.
    private static func valueEnd(_ body: [UInt8], from start: Int) throws(ServerError) -> Int {
        var depth = 0
        var index = start
        var inString = false
        while index < body.count {
            let byte = body[index]
            if inString {
                if byte == UInt8(ascii: "\\") { index += 1 } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if depth == 0 { return index + 1 }
                }
            } else {
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if depth == 0 { return index }
                    depth -= 1
                    if depth == 0 { return index + 1 }
                case UInt8(ascii: ","):
                    if depth == 0 { return index }
                default:
                    if depth == 0 && isSpace(byte) { return index }
                }
            }
            index += 1
        }
        if inString { throw .notJSON("a string is not closed") }
        if depth > 0 { throw .notJSON("a bracket opened at byte \(start) is not closed") }
        return index
    }

    /// The value's bytes on one line: whitespace outside strings dropped when it spans lines.
    private static func oneLine(_ value: ArraySlice<UInt8>) -> [UInt8] {
        guard value.contains(UInt8(ascii: "\n")) || value.contains(UInt8(ascii: "\r")) else { return Array(value) }
        var compact: [UInt8] = []
        compact.reserveCapacity(value.count)
        var inString = false, escaped = false
        for byte in value {
            if inString {
                compact.append(byte)
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if !isSpace(byte) {
                compact.append(byte)
                if byte == UInt8(ascii: "\"") { inString = true }
            }
        }
        return compact
    }

    private static func skipSpace(_ body: [UInt8], from start: Int) -> Int {
        var index = start
        while index < body.count, isSpace(body[index]) { index += 1 }
        return index
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
