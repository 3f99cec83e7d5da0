@testable import GTIOConsole
import Testing

/// What Tab puts on the line reads back, through the console's word splitting, as the id the
/// store gave: quoted when it holds a space or a quote, its backslashes kept.
@Suite(.serialized) struct CompletionQuotingTests {
    let ids = [#"zoe k"#, #"back\slash"#, #"it's"#, "plain"]

    func completed(_ line: String, quote: Character) -> [String] {
        LineEditor.completer = { _, _ in ids }
        defer { LineEditor.completer = { _, _ in [] } }
        let typed = String(line.reversed().prefix { $0 != " " && $0 != "'" && $0 != "\"" }.reversed())
        return LineEditor.candidates(before: String(line.dropLast(typed.count)), typed: typed, quote: quote)
    }

    @Test func aWordOutsideQuotesIsQuotedWhenItMustBe() throws {
        #expect(completed("followers ", quote: "\0") == ["'zoe k'", #"'back\slash'"#, #""it's""#, "plain"])
        for word in completed("followers ", quote: "\0") {
            #expect(try CommandLineWords.split("followers " + word).last.map { ids.contains($0) } == true, "\(word)")
        }
    }

    @Test func insideDoubleQuotesABackslashIsWrittenTwice() throws {
        #expect(completed(#"followers "ba"#, quote: "\"") == [#"back\\slash"#])
        #expect(try CommandLineWords.split(#"followers "back\\slash""#) == ["followers", #"back\slash"#])
        // Single quotes keep everything as it is.
        #expect(completed("followers 'ba", quote: "'") == [#"back\slash"#])
    }
}
