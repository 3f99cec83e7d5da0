import GTIOCatalog
import GTIOSimulation
import GTIOTables
import Testing
@testable import GTIOConsole

@Suite struct OutputFormatTests {
    let table = ResultTable(
        columns: ["user", "name", "followers", "share"],
        rows: [
            [.text("u1"), .text("Ana, \"the\" Best"), .integer(12), .number(0.5)],
            [.text("u2"), .text("美咲\nTanaka"), .integer(3), .null],
        ])

    /// An answer written a page at a time (`events --limit 0`) is the answer written whole, but
    /// for a text table's alignment, which each page takes from its own rows.
    @Test(arguments: OutputFormat.allCases) func aTableWrittenInPagesIsTheTableWrittenWhole(format: OutputFormat) {
        let rows = (1...7).map { n -> [Cell] in [.text("u\(n)"), .text(String(repeating: "é", count: n)), .integer(Int64(n)), n % 3 == 0 ? .null : .number(Double(n) / 4)] }
        let whole = ResultTable(columns: table.columns, rows: rows)
        for pageSize in [1, 2, 3, 7] {
            var bytes: [UInt8] = []
            var stream = TableStream(format: format, width: nil) { bytes += $0 }
            for start in stride(from: 0, to: rows.count, by: pageSize) {
                stream.write(ResultTable(columns: table.columns, rows: Array(rows[start..<min(start + pageSize, rows.count)])))
            }
            stream.finish(columns: table.columns)
            let text = String(decoding: bytes, as: UTF8.self)
            if format == .table {
                let lines = text.split(separator: "\n")
                #expect(lines.filter { $0.hasPrefix("user ") }.count == 1)
                #expect(lines.dropFirst(2).dropLast().map { $0.prefix { $0 != " " } } == (1...7).map { "u\($0)"[...] })
                #expect(lines.last == "(7 rows)")
                if pageSize == 7 { #expect(text == whole.rendered(as: .table)) }
            } else {
                #expect(text == whole.rendered(as: format))
            }
        }
        // No page at all: the empty table, as it is written whole.
        var bytes: [UInt8] = []
        var empty = TableStream(format: format, width: nil) { bytes += $0 }
        empty.finish(columns: table.columns)
        #expect(String(decoding: bytes, as: UTF8.self) == ResultTable(columns: table.columns).rendered(as: format))
    }

    @Test func csvFollowsRFC4180() {
        #expect(table.rendered(as: .csv) ==
            "user,name,followers,share\r\nu1,\"Ana, \"\"the\"\" Best\",12,0.5\r\nu2,\"美咲\nTanaka\",3,\r\n")
    }

    /// A CRLF inside a field is one `Character` in Swift, equal to neither "\r" nor "\n": the
    /// field must still be quoted, or the row would end there.
    @Test func csvQuotesAFieldWithACarriageReturnLineFeed() {
        let rows = ResultTable(columns: ["text"], rows: [[.text("line one\r\nline two")], [.text("a\rb")]])
        #expect(rows.rendered(as: .csv) == "text\r\n\"line one\r\nline two\"\r\n\"a\rb\"\r\n")
        // A quote followed by a combining mark is one `Character` that is no quote: still doubled.
        let marked = ResultTable(columns: ["text"], rows: [[.text("say \"\u{301}hi")]])
        #expect(Array(marked.rendered(as: .csv).utf8) == Array("text\r\n\"say \"\"\u{301}hi\"\r\n".utf8))
    }

    /// Text a spreadsheet would run is written with a leading ' (OWASP's rule); numbers, even
    /// negative ones, stay numbers, and so does text that is one; `--raw-csv` writes text as it is.
    @Test func csvNeutralisesFormulasInTextButNotNumbers() {
        let formulas = ResultTable(columns: ["text", "n"], rows: [
            [.text("=cmd|' /C calc'!A0"), .integer(-3)],
            [.text("@SUM(1+1)"), .number(-0.5)],
            [.text("+1"), .null],
            [.text("-2"), .null],
            [.text("-0.5e-3"), .null],
            [.text("-2-1"), .null],
            [.text("-"), .null],
            [.text("-.5"), .null],
            [.text("\tx"), .null],
            [.text("=HYPERLINK(\"http://x\",\"y\")"), .null],
            [.text("a=b"), .null],
        ])
        #expect(formulas.rendered(as: .csv) == "text,n\r\n'=cmd|' /C calc'!A0,-3\r\n'@SUM(1+1),-0.5\r\n'+1,\r\n-2,\r\n-0.5e-3,\r\n'-2-1,\r\n'-,\r\n'-.5,\r\n'\tx,\r\n"
            + "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",\r\na=b,\r\n")
        #expect(formulas.rendered(as: .csv, rawCSV: true).hasPrefix("text,n\r\n=cmd|' /C calc'!A0,-3\r\n@SUM(1+1),-0.5\r\n"))
    }

    @Test func jsonIsAnArrayOfObjectsInColumnOrder() {
        #expect(table.rendered(as: .json) == """
            [
              {"user":"u1","name":"Ana, \\"the\\" Best","followers":12,"share":0.5},
              {"user":"u2","name":"美咲\\nTanaka","followers":3,"share":null}
            ]

            """)
        #expect(ResultTable(columns: ["a"]).rendered(as: .json) == "[]\n")
    }

    @Test func markdownEscapesPipesAndRightAlignsNumbers() {
        let rows = ResultTable(columns: ["post", "points"], rows: [[.text("a|b"), .integer(3)]])
        #expect(rows.rendered(as: .markdown) == "| post | points |\n| --- | ---: |\n| a\\|b | 3 |\n")
    }

    /// Every line break in a cell (LF, CR, CRLF) becomes one space: a Markdown row is one line.
    @Test func markdownKeepsEachRowOnOneLine() {
        let rows = ResultTable(columns: ["text"], rows: [[.text("a\r\nb\rc\nd\r\re")]])
        #expect(rows.rendered(as: .markdown) == "| text |\n| --- |\n| a b c d  e |\n")
        // A pipe followed by a combining mark is one `Character` that is no pipe: still escaped.
        let marked = ResultTable(columns: ["text"], rows: [[.text("a|\u{301}b")]])
        #expect(Array(marked.rendered(as: .markdown).utf8) == Array("| text |\n| --- |\n| a\\|\u{301}b |\n".utf8))
    }

    /// Text from the log never becomes HTML where Markdown is shown: a name, place or brand
    /// `<script>…` was passed through whole, and most renderers pass inline HTML on.
    @Test func markdownKeepsTextFromBecomingHTML() {
        let rows = ResultTable(columns: ["name"], rows: [[.text("<script>alert(1)</script> & <b>")]])
        #expect(rows.rendered(as: .markdown) == "| name |\n| --- |\n| &lt;script>alert(1)&lt;/script> & &lt;b> |\n")
        // A code span is fenced past every run of backticks inside, so none can end it early.
        #expect(MarkdownRenderer.code("trend post.shared") == "`trend post.shared`")
        #expect(MarkdownRenderer.code("track[name=`<img src=x>`]") == "`` track[name=`<img src=x>`] ``")
        #expect(MarkdownRenderer.code("a``b\nc") == "``` a``b c ```")
        // Nor does any drive the terminal the Markdown is printed on.
        let controls = ResultTable(columns: ["text"], rows: [[.text("red\u{1B}[31m\tdress\u{7}")]])
        #expect(controls.rendered(as: .markdown) == #"| text |"# + "\n| --- |\n" + #"| red\u{1B}[31m\u{9}dress\u{7} |"# + "\n")
        #expect(MarkdownRenderer.code("a\u{1B}]0;x\u{7}") == #"`a\u{1B}]0;x\u{7}`"#)
        // C1 controls and DEL too, while other text (Latin-1 signs, accents) stays as it is.
        #expect(MarkdownRenderer.escape("next\u{85}line") == #"next\u{85}line"#)
        #expect(MarkdownRenderer.escape("rub\u{7F}out") == #"rub\u{7F}out"#)
        #expect(MarkdownRenderer.escape("£12 café") == "£12 café")
    }

    @Test func timestampsBooleansAndFloatsFollowSection4() {
        let row = ResultTable(columns: ["at", "hidden", "score", "whole"],
                              rows: [[.timestamp(Timestamp(milliseconds: 1)), .bool(true), .number(1.0 / 3), .number(2)]])
        #expect(row.rendered(as: .csv) == "at,hidden,score,whole\r\n1970-01-01T00:00:00.001Z,true,0.3333333333333333,2.0\r\n")
    }

    @Test func tablesAlignNumbersRightAndCountRows() {
        #expect(table.rendered(as: .table) == """
            user  name             followers  share
            ────  ───────────────  ─────────  ─────
            u1    Ana, "the" Best         12    0.5
            u2    美咲⏎Tanaka              3
            (2 rows)

            """)
    }

    /// Padding is appended in runs of up to 256 spaces: a column wider than one run is still
    /// padded to the exact width, on either side.
    @Test func tablesPadColumnsWiderThanOneRunOfSpaces() {
        let long = String(repeating: "x", count: 600)
        let table = ResultTable(columns: ["text", "n"], rows: [[.text(long), .integer(7)], [.text("a"), .integer(123_456)]])
        let lines = table.rendered(as: .table).split(separator: "\n").map(String.init)
        #expect(lines[2] == long + "       7")
        #expect(lines[3] == "a" + String(repeating: " ", count: 601) + "123456")
        // A number under a header 300 wide is padded on its left.
        let right = ResultTable(columns: [String(repeating: "n", count: 300)], rows: [[.integer(42)]])
        #expect(right.rendered(as: .table).split(separator: "\n")[2] == String(repeating: " ", count: 298) + "42")
    }

    /// Each text cell is measured once and written at the width measured: plain ASCII, accented
    /// and wide text, written-out controls and empty cells side by side in a column each.
    @Test func mixedTextIsPaddedToTheWidthsMeasuredForIt() {
        let table = ResultTable(columns: ["name", "n", "note"], rows: [
            [.text("Zoë"), .integer(1), .text("a\u{7}b")],
            [.text("plain"), .null, .text("美咲")],
            [.null, .integer(3), .text("x")],
        ])
        #expect(table.rendered(as: .table).split(separator: "\n").map(String.init) == [
            "name   n  note",
            "─────  ─  ───────",
            "Zoë    1  a\\u{7}b",
            "plain     美咲",
            "       3  x",
            "(3 rows)",
        ])
    }

    @Test func tablesFitTheWidthWithAnEllipsisCountingWideCharactersTwice() {
        let wide = ResultTable(columns: ["name", "n"], rows: [[.text("美咲美咲美咲美咲"), .integer(1)], [.text("Zoë Smith-Jones"), .integer(22)]])
        let text = wide.rendered(as: .table, width: 12)
        let lines = text.split(separator: "\n").map(String.init)
        // 12 columns: name gets 8; three wide characters (6) and the ellipsis fit, a fourth would not.
        #expect(lines[2] == "美咲美…    1")
        #expect(lines[3] == "Zoë Smi…  22")
        #expect(lines.dropLast().allSatisfy { DisplayWidth.of($0) <= 12 })
    }

    @Test func narrowTablesCutFreeTextFirstAndKeepTheRowsIdAndNumbersWhole() {
        let queue = ResultTable(
            columns: ["item", "flaggers", "first_flagged", "hidden", "version", "author", "preview"],
            rows: [
                [.text("review:rf9dc5ca9d845"), .integer(9), .text("2012-04-23T01:07:55.763Z"), .bool(true),
                 .integer(194_910), .text("u32a703f1"), .text("Hmm, maybe with other shoes")],
                [.text("post:p8b52bd638e68"), .integer(12), .text("2012-04-24T11:00:00.000Z"), .bool(false),
                 .integer(197_429), .text("u01955a2c"), .text("Yes yes yes")],
            ])
        let lines = queue.rendered(as: .table, width: 80).split(separator: "\n").map(String.init)
        #expect(lines[0] == "item                  fla…  first_flagged         hidd…  versi…  author     pre…")
        // The preview gives up its width first, then the numbers' headers, then the timestamp; the
        // ids, numbers and booleans stay whole.
        #expect(lines[2] == "review:rf9dc5ca9d845     9  2012-04-23T01:07:55…  true   194910  u32a703f1  Hmm…")
        #expect(lines[3] == "post:p8b52bd638e68      12  2012-04-24T11:00:00…  false  197429  u01955a2c  Yes…")
        // Narrower still: every other text column down to 4, and only then the id.
        let narrow = queue.rendered(as: .table, width: 50).split(separator: "\n").map(String.init)
        #expect(narrow[0] == "item         fla…  fir…  hidd…  versi…  aut…  pre…")
        #expect(narrow[2] == "review:rf9…     9  201…  true   194910  u32…  Hmm…")
        #expect(narrow.dropLast().allSatisfy { DisplayWidth.of($0) <= 50 })
        // No room even then: the table runs past the width rather than cut a number.
        let tiny = queue.rendered(as: .table, width: 20).split(separator: "\n").map(String.init)
        #expect(tiny[2] == "rev…     9  201…  true   194910  u32…  Hmm…")
    }

    @Test func displayWidthCountsColumns() {
        #expect(DisplayWidth.of("abc") == 3)
        #expect(DisplayWidth.of("美咲") == 4)
        #expect(DisplayWidth.of("Łukasz") == 6)
        #expect(DisplayWidth.of("e\u{301}") == 1)  // e + combining acute: one column
        #expect(DisplayWidth.of("Zoë José\u{A0}Ñ") == 10)  // precomposed Latin: a column a scalar
        #expect(DisplayWidth.of("Zoë\u{301}") == 3)  // a combining mark after them still adds none
        #expect(DisplayWidth.of("a\u{9F}b") == 2)  // a C1 control takes no column, as before the fast path
        #expect(DisplayWidth.of("Date night — wear it?") == 21)  // punctuation stands alone
        #expect(DisplayWidth.of("Festival ready 🎶") == 17)
        #expect(DisplayWidth.of("👍🏽 ok") == 5)  // a skin tone joins the emoji before it
        #expect(DisplayWidth.of("한국어 か\u{3099}") == 9)  // syllables stand alone; a voiced mark joins
    }

    /// Text measured scalar by scalar where every scalar stands alone is as wide as measured a
    /// character at a time, for random mixes of scalars that stand alone and scalars that join.
    @Test func displayWidthOfTextIsTheSumOfItsCharacters() {
        let scalars: [UInt32] = [
            0x61, 0x20, 0xE9, 0xA0, 0x9F, 0x301, 0x2014, 0x2026, 0x20AC, 0x3042, 0x3099, 0x30AB, 0x7F8E,
            0xD55C, 0x1100, 0x1161, 0x11A8, 0xFF21, 0xFF9E, 0x1F3B6, 0x1F44D, 0x1F3FD, 0x200D, 0xFE0F,
            0x1F1EB, 0x1F1F7, 0x0A, 0x0D, 0x200B, 0x0915, 0x093F, 0x094D,
        ]
        var random = SeededGenerator(seed: 20_261_130)
        for _ in 0..<3_000 {
            let count = Int.random(in: 0...8, using: &random)
            var text = String.UnicodeScalarView()
            for _ in 0..<count { text.append(Unicode.Scalar(scalars.randomElement(using: &random)!)!) }
            let string = String(text)
            let characters = string.reduce(0) { $0 + DisplayWidth.of($1) }
            #expect(DisplayWidth.of(string) == characters, "\(string.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    /// Scores show six significant digits, at most five decimals, as `String(Double)` writes
    /// the rounded value (so a value rounding to a whole number keeps ".0"); outside 1e-4..<1e9
    /// as `%.6g`.
    @Test func scoresShowSixSignificantDigits() {
        let shown: [(Double, String)] = [
            (1.0 / 3, "0.33333"), (-2.0 / 3, "-0.66667"), (123.456789, "123.457"), (12345.65, "12345.7"),
            (123_456.7, "123457"), (2.999999, "3.0"), (99_999.99999, "100000.0"), (0.000105, "0.00011"),
            (0.19292, "0.19292"), (0.5, "0.5"), (0.0001, "0.0001"), (9.99999e-5, "9.99999e-05"), (2.5e9, "2.5e+09"),
        ]
        for (value, text) in shown {
            #expect(TableRenderer(width: nil).format6(value) == text, "\(value)")
        }
    }

    @Test func linesLoseTheirTrailingSpacesAndNothingElse() {
        func ended(_ text: String) -> String {
            var lines = LineBuffer()
            lines.bytes.append(contentsOf: text.utf8)
            lines.endLine()
            return String(decoding: lines.bytes, as: UTF8.self)
        }
        #expect(ended("Zoë   ") == "Zoë\n")
        #expect(ended("美咲 \u{301} ") == "美咲 \u{301}\n")
        #expect(ended("   ") == "\n")
        #expect(ended("a\t") == "a\t\n")
    }

    @Test func integersAreWrittenAsSwiftWritesThem() {
        for value: Int64 in [0, 7, 10, -1, -10, 99_999, Int64.max, Int64.min] {
            var lines = LineBuffer()
            lines.append(value)
            let text = String(decoding: lines.bytes, as: UTF8.self)
            #expect(text == String(value))
            #expect(LineBuffer.digits(value) == String(value).count)
        }
    }
}

@Suite struct CommandLineWordsTests {
    @Test(arguments: [
        ("looks popular --limit 5", ["looks", "popular", "--limit", "5"]),
        ("  followers   u1  ", ["followers", "u1"]),
        (#"sql SELECT 'a b' FROM x"#, ["sql", "SELECT", "a b", "FROM", "x"]),
        (#"once "my file.csv""#, ["once", "my file.csv"]),
        (#"a "say \"hi\"" b\ c"#, ["a", #"say "hi""#, "b c"]),
        ("x ''", ["x", ""]),
    ])
    func splitsLikeAShell(line: String, words: [String]) throws {
        #expect(try CommandLineWords.split(line) == words)
    }

    @Test func refusesUnterminatedQuotes() {
        #expect(throws: CommandLineWords.SplitError.self) { try CommandLineWords.split("once 'open") }
    }
}

@Suite struct ConsoleCommandInfoTests {
    @Test func suggestsTheNearestCommandForATypo() {
        #expect(ConsoleCommandInfo.nearest(to: "folowers") == "followers")
        #expect(ConsoleCommandInfo.nearest(to: "lokos") == "looks")
        #expect(ConsoleCommandInfo.nearest(to: "statz") == "stats")
        #expect(ConsoleCommandInfo.nearest(to: "xylophone") == nil)
    }

    @Test func everyConsoleMdCommandIsKnownWithUsageAndExample() {
        for name in ["looks", "verdict", "verdicts", "followers", "following", "suggest", "flags", "stats", "rebuild",
                     "events", "event", "post", "user", "status", "sql", "help", "quit", "products", "product", "places",
                     "prices", "flaggers", "trend", "breakdown", "funnel", "retention", "paths", "top", "insight"] {
            let info = ConsoleCommandInfo.named(name)
            #expect(info != nil, "\(name)")
            #expect(info?.example.hasPrefix(name) == true, "\(name)")
        }
        #expect(ConsoleCommandInfo.named("looks")!.flags.contains("--as-of"))
        #expect(ConsoleCommandInfo.named("looks")!.flags.contains("--limit"))
    }

    @Test func completesCommandsTabsFlagsAndValues() {
        let session = ConsoleSession(storeOptions: try! StoreOptions.parse(["--store", "/tmp/none.gtio"]), interactive: false)
        #expect(session.completions(before: "", word: "fol").contains("followers"))
        #expect(session.completions(before: "looks ", word: "p") == ["popular", "new", "top", "wear-it"])
        #expect(session.completions(before: "looks popular ", word: "--l").contains("--limit"))
        #expect(session.completions(before: "events --type ", word: "post.").contains("post.voted"))
        #expect(session.completions(before: "format ", word: "") == ["table", "csv", "json", "markdown"])
        #expect(session.completions(before: "nonsense ", word: "") == [])
    }
}
