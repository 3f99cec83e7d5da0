import Foundation
import GTIOTestSupport
import Testing

/// What a new user ran into on the command line, each pinned: the real binary on a real store.
@Suite struct CommandLineFindingsTests {
    let folder = TemporaryDirectory()
    var store: String { folder.file("log.gtio") }

    /// A store of a few hearts, a post and a flag whose texts drive terminals, and two decisions.
    func makeStore() throws {
        let lines = [
            #"{"id":"h1","type":"post.hearted","at":"2012-04-23T00:00:00Z","user":"u1","data":{"post":"p1"}}"#,
            #"{"id":"p1","type":"post.created","at":"2012-04-22T00:00:00Z","user":"u2","data":{"post":"p1","kind":"outfit","voting":true,"description":"red\u001b[31m dress"}}"#,
            #"{"id":"f1","type":"post.flagged","at":"2012-04-23T01:00:00Z","user":"u3","data":{"post":"p1","reason":"spam\u001b]0;owned\u0007"}}"#,
            #"{"id":"m1","type":"moderation.resolved","at":"2012-04-23T02:00:00Z","user":"mod","data":{"item":"post:p1","action":"dismiss"}}"#,
            #"{"id":"f2","type":"post.flagged","at":"2012-04-23T03:00:00Z","user":"u4","data":{"post":"p1"}}"#,
            #"{"id":"m2","type":"moderation.resolved","at":"2012-04-23T04:00:00Z","user":"mod","data":{"item":"post:p1","action":"dismiss"}}"#,
        ]
        let result = try GTIOBinary.run(["ingest", folder.write("feed.jsonl", lines.joined(separator: "\n") + "\n"), "--store", store])
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// The shell splits an unquoted statement into words, which the parser calls unexpected.
    @Test func anUnquotedStatementIsToldToBeQuoted() throws {
        try makeStore()
        let result = try GTIOBinary.run(["sql", "SELECT", "type", "FROM", "events", "--store", store])
        #expect(result.status == 2)
        #expect(result.stderr.hasSuffix(
            "\nThe statement is one argument: quote it, as in gtio sql \"SELECT type, COUNT(*) FROM events GROUP BY type\"\n"),
            "\(result.stderr)")
        #expect(try GTIOBinary.run(["sql", "SELECT type FROM events LIMIT 1", "--store", store]).status == 0)
    }

    @Test func versionIsPrinted() throws {
        let result = try GTIOBinary.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout == "0.2.0\n")
    }

    /// A usage error a command finds as it runs shows that command's usage, as one found while
    /// parsing does, not the root command's (`gtio [--store …] <subcommand>`).
    @Test func aUsageErrorFoundWhileRunningShowsTheCommandsOwnUsage() throws {
        try makeStore()
        for (words, usage) in [
            (["funnel", "--by-day", "post.created", "post.hearted"], "Usage: gtio funnel [<options>] [<step> ...]\n  See 'gtio funnel --help'"),
            (["-c", "retention --interval week"], "Usage: gtio retention <options>\n  See 'gtio retention --help'"),
        ] {
            let result = try GTIOBinary.run(words + ["--store", store])
            #expect(result.status == 2 && result.stderr.contains(usage), "\(words): \(result.stderr)")
            #expect(!result.stderr.contains("<subcommand>"), "\(result.stderr)")
        }
    }

    /// A mistyped year listed every day since: 3.65 M rows of zeros in 970 MB, and a trend's
    /// table that did not finish. A day table or a window spans 100 years at most.
    @Test func aWindowOfCenturiesIsRefusedNamingItsSpan() throws {
        try makeStore()
        for words in [["funnel", "--by-day", "--from", "0201-04-22"], ["trend", "post.hearted", "--from", "0201-04-22"],
                      ["retention", "--start", "post.hearted", "--return", "post.hearted", "--from", "0201-04-22"]] {
            let result = try GTIOBinary.run(words + ["--store", store])
            #expect(result.status == 2, "\(words)")
            #expect(result.stderr == "gtio: --from 0201-04-22 to 2012-04-23 spans 661457 days; at most 36525 (100 years) are listed: "
                    + "check the years of --from and --to\n", "\(words): \(result.stderr)")
        }
        // A hundred years, the log's days among them, are listed.
        let century = try GTIOBinary.run(["trend", "post.hearted", "--from", "1912-04-24", "--to", "2012-04-23", "--format", "csv", "--store", store])
        #expect(century.status == 0)
        #expect(century.stdout.split(whereSeparator: \.isNewline).count == 36_526)
    }

    @Test func aNegativeLimitIsNamedNotMissing() throws {
        try makeStore()
        let result = try GTIOBinary.run(["looks", "--limit", "-1", "--store", store])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--limit takes a whole number of 0 or more (0: all), got -1"))
    }

    /// A negative count or seed is named as such, not "Missing value for '--events'".
    @Test func demoNamesANegativeCountOrSeed() throws {
        let count = try GTIOBinary.run(["demo", "--events", "-1"])
        #expect(count.status == 2 && count.stderr.contains("--events must be 1 or more, got -1"), "\(count.stderr)")
        let seed = try GTIOBinary.run(["demo", "--events", "3", "--seed", "-1"])
        #expect(seed.status == 2 && seed.stderr.contains("The value '-1' is invalid for '--seed <seed>'"), "\(seed.stderr)")
    }

    /// Every numeric option reads a negative number as its value and refuses it by name: the
    /// parser took `-1` for an option and said "Missing value for '--page <page>'".
    @Test(arguments: [
        (["suggest", "u1", "--page", "-1"], "--page must be 1 or more, got -1"),
        (["paths", "--top", "-1"], "--top must be 0 (no limit) or more, got -1"),
        (["retention", "--start", "track", "--return", "track", "--periods", "-1"], "--periods must be 1 or more, got -1"),
        (["flags", "--min-flaggers", "-1"], "--min-flaggers must be 0 or more, got -1"),
        (["places", "--near", "0,0", "--km", "-1"], "--km must be a distance of 0 or more, got -1.0"),
        (["events", "--tail", "-1"], "--tail must be 1 or more, got -1"),
        (["looks", "--at-seq", "-1"], "--at-seq must be 0 or more, got -1"),
        (["serve", "--max-lag", "-1"], "--max-lag must be 0 or more, got -1"),
        (["serve", "--port", "-1"], "--port must be 0–65535, got -1"),
    ])
    func aNegativeNumberIsNamedByItsOption(arguments: [String], message: String) throws {
        try makeStore()
        let result = try GTIOBinary.run(arguments + ["--store", store])
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
    }

    @Test func eventsSinceAfterUntilIsRefusedNotAnsweredEmpty() throws {
        try makeStore()
        let reversed = try GTIOBinary.run(["events", "--since", "2012-04-24", "--until", "2012-04-23", "--store", store])
        #expect(reversed.status == 2)
        #expect(reversed.stderr.contains(
            "--since 2012-04-24T00:00:00.000Z is after --until 2012-04-23T23:59:59.999Z: no event can match (swap them?)"), "\(reversed.stderr)")
        let oneDay = try GTIOBinary.run(["events", "--since", "2012-04-23", "--until", "2012-04-23", "--format", "csv", "--store", store])
        #expect(oneDay.stdout.components(separatedBy: "\r\n").count == 7, "five events of that day, the header and the end: \(oneDay.stdout)")
    }

    @Test func decisionsTakeALimitOfTheNewest() throws {
        try makeStore()
        let result = try GTIOBinary.run(["decisions", "--limit", "1", "--format", "csv", "--store", store])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\r\n").map { $0.prefix(2) } == ["se", "6,"])
    }

    @Test func sqlRunsFromTheCommandLineAndStaysReadOnly() throws {
        try makeStore()
        let count = try GTIOBinary.run(["sql", "SELECT COUNT(*) AS n FROM events", "--format", "csv", "--store", store])
        #expect(count.status == 0)
        #expect(count.stdout == "n\r\n6\r\n")
        let delete = try GTIOBinary.run(["sql", "DELETE FROM events", "--store", store])
        #expect(delete.status == 2)
        #expect(delete.stderr.contains("read-only"))
    }

    @Test func controlCharactersInTextAreShownWrittenOut() throws {
        try makeStore()
        let card = try GTIOBinary.run(["post", "p1", "--store", store])
        #expect(card.status == 0)
        #expect(card.stdout.contains(#"red\u{1B}[31m dress"#))
        #expect(!card.stdout.contains("\u{1B}"))
        let table = try GTIOBinary.run(["sql", "SELECT description FROM rm_posts", "--store", store])
        #expect(table.stdout.contains(#"red\u{1B}[31m dress"#))
        // The moderator's view of an item: its content and each flag's reason.
        let item = try GTIOBinary.run(["item", "post:p1", "--store", store])
        #expect(item.status == 0, "\(item.stderr)")
        #expect(item.stdout.contains(#"red\u{1B}[31m dress"#) && item.stdout.contains(#"u3: spam\u{1B}]0;owned\u{7}"#), "\(item.stdout)")
        #expect(!item.stdout.contains("\u{1B}"))
        // A line quarantined as sent, raw escape and all.
        let raw = folder.write("raw.jsonl", "\u{1B}]0;owned\u{7} not JSON\n")
        #expect(try GTIOBinary.run(["ingest", raw, "--store", store]).status == 3)
        let shown = try GTIOBinary.run(["quarantine", "show", "1", "--store", store])
        #expect(shown.stdout.contains(#"original  \u{1B}]0;owned\u{7} not JSON"#), "\(shown.stdout)")
        #expect(!shown.stdout.contains("\u{1B}") && !shown.stdout.contains("\u{7}"))
    }

    /// A moderator id that the log would refuse is bad usage, named as such, and nothing is appended.
    @Test func aDecisionTheLogWouldRefuseIsBadUsage() throws {
        let lines = [
            #"{"id":"p1","type":"post.created","at":"2012-04-22T00:00:00Z","user":"u2","data":{"post":"p1","kind":"outfit","voting":true}}"#,
            #"{"id":"f1","type":"post.flagged","at":"2012-04-23T01:00:00Z","user":"u3","data":{"post":"p1"}}"#,
        ]
        _ = try GTIOBinary.run(["ingest", folder.write("open.jsonl", lines.joined(separator: "\n") + "\n"), "--store", store])
        let refused = try GTIOBinary.run(["resolve", "post:p1", "dismiss", "--as", "a\u{1B}b", "--store", store])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("the decision on post:p1 is not valid input: user: holds the control character U+001B"), "\(refused.stderr)")
        #expect(try GTIOBinary.run(["sql", "SELECT COUNT(*) AS n FROM events", "--format", "csv", "--store", store]).stdout == "n\r\n2\r\n")
    }

    /// `--out` and `--chart` say which of their paths is wrong: a folder given for the file, or
    /// a folder that does not exist (both were "cannot be written (does its folder exist?)").
    @Test func outAndChartNameWhatIsWrongWithTheirPath() throws {
        try makeStore()
        let onFolder = try GTIOBinary.run(["looks", "--out", folder.path, "--store", store])
        #expect(onFolder.status == 2 && onFolder.stderr == "gtio: --out \(folder.path) is a folder; give a file\n", "\(onFolder.stderr)")
        let missing = folder.file("none/looks.csv")
        let noFolder = try GTIOBinary.run(["looks", "--out", missing, "--store", store])
        #expect(noFolder.status == 2 && noFolder.stderr == "gtio: --out \(missing): the folder \(folder.file("none")) does not exist\n", "\(noFolder.stderr)")
        let file = folder.write("plain.txt", "keep\n")
        let underFile = try GTIOBinary.run(["looks", "--out", file + "/looks.csv", "--store", store])
        #expect(underFile.status == 2 && underFile.stderr == "gtio: --out \(file)/looks.csv: \(file) is a file, not a folder\n", "\(underFile.stderr)")
        let chart = try GTIOBinary.run(["trend", "post.hearted", "--chart", folder.path, "--store", store])
        #expect(chart.status == 2 && chart.stderr.contains("--chart \(folder.path) is a folder; give a file"), "\(chart.stderr)")
    }

    @Test func smallScoresKeepSixSignificantDigitsInTables() throws {
        try makeStore()
        let table = try GTIOBinary.run(["sql", "SELECT 9.967299925835465e-05 AS score", "--store", store])
        #expect(table.stdout.contains("9.9673e-05\n"))
        let csv = try GTIOBinary.run(["sql", "SELECT 9.967299925835465e-05 AS score", "--format", "csv", "--store", store])
        #expect(csv.stdout == "score\r\n9.967299925835465e-05\r\n", "CSV keeps every digit")
    }

    @Test func viewsOutsideTheLogSaySo() throws {
        try makeStore()
        let early = try GTIOBinary.run(["looks", "--as-of", "2011-01-01", "--store", store])
        #expect(early.status == 0)
        #expect(early.stderr.contains("note: --as-of 2011-01-01T23:59:59.999Z is before the log begins"))
        let late = try GTIOBinary.run(["looks", "--at-seq", "99", "--store", store])
        #expect(late.stderr.contains("note: --at-seq 99 is past the end of the log (its last seq is 6)"))
        let inside = try GTIOBinary.run(["looks", "--at-seq", "3", "--store", store])
        #expect(!inside.stderr.contains("note:"))
    }

    /// Days wholly before or after the log's days answer zeros or nothing, and say why on standard
    /// error; the log's days are those of the view.
    @Test func daysOutsideTheLogSaySo() throws {
        try makeStore()
        let late = try GTIOBinary.run(["stats", "--date", "2021-04-23", "--store", store])
        #expect(late.status == 0)
        #expect(late.stderr == "note: --date 2021-04-23 is after the last day of the log in view (2012-04-23): no event lies there\n", "\(late.stderr)")
        let early = try GTIOBinary.run(["funnel", "--to", "2012-04-21", "--store", store])
        #expect(early.status == 0)
        #expect(early.stderr == "note: --to 2012-04-21 is before the log's first day (2012-04-22): no event lies there\n", "\(early.stderr)")
        let cohorts = try GTIOBinary.run(["retention", "--from", "2012-05-01", "--to", "2012-05-31", "--store", store])
        #expect(cohorts.stderr.hasPrefix("note: --from 2012-05-01 --to 2012-05-31 is after the last day of the log in view (2012-04-23)"), "\(cohorts.stderr)")
        let view = try GTIOBinary.run(["stats", "--date", "2012-04-23", "--as-of", "2012-04-22", "--store", store])
        #expect(view.stderr.hasPrefix("note: --date 2012-04-23 is after the last day of the log in view (2012-04-22)"), "\(view.stderr)")
        for inside in [["stats", "--date", "2012-04-22"], ["funnel", "--from", "2012-04-23", "--by-day"], ["retention", "--to", "2012-04-22"],
                       ["funnel", "--from", "2012-04-23", "--to", "2099-01-01"]] {
            let answer = try GTIOBinary.run(inside + ["--store", store])
            #expect(answer.status == 0 && answer.stderr.isEmpty, "\(inside): \(answer.stderr)")
        }
    }

    /// `flags` lists items (`post:p1`), `looks` posts (`p1`): each given where the other is
    /// wanted points at the right one.
    @Test func anItemIdAndAPostIdGivenForEachOtherPointAtTheRightOne() throws {
        try makeStore()
        let card = try GTIOBinary.run(["post", "post:p1", "--store", store])
        #expect(card.status == 1)
        #expect(card.stderr == #"gtio: unknown post "post:p1": that is the id of a queue item; its post's id is "p1" (try: post p1, or item post:p1)"# + "\n", "\(card.stderr)")
        let verdict = try GTIOBinary.run(["verdict", "post:p1", "--store", store])
        #expect(verdict.status == 1 && verdict.stderr.contains("(try: verdict p1, or item post:p1)"), "\(verdict.stderr)")
        let bare = try GTIOBinary.run(["item", "p1", "--store", store])
        #expect(bare.status == 2)
        #expect(bare.stderr == #"gtio: "p1" is not an item (expected post:<id> or review:<id>); it is a post: try item post:p1"# + "\n", "\(bare.stderr)")
        let none = try GTIOBinary.run(["post", "post:p9", "--store", store])
        #expect(none.stderr == #"gtio: unknown post "post:p9": no post.created with that id in the log (try: looks new)"# + "\n", "\(none.stderr)")
    }

    @Test func aRetryThatLeavesLinesRejectedExitsThree() throws {
        let bad = folder.write("bad.jsonl", "not json\n")
        #expect(try GTIOBinary.run(["ingest", bad, "--store", store]).status == 3)
        let retry = try GTIOBinary.run(["quarantine", "retry", "--store", store])
        #expect(retry.stdout == "appended 0, duplicates 0, still rejected 1\n")
        #expect(retry.status == 3)
    }

    @Test func oneFileReachedThroughASymlinkIsOneSource() throws {
        let bad = folder.write("bad.jsonl", "not json\n")
        let link = folder.file("link.jsonl")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: bad)
        #expect(try GTIOBinary.run(["ingest", bad, "--store", store]).status == 3)
        #expect(try GTIOBinary.run(["ingest", link, "--store", store]).status == 3)
        let list = try GTIOBinary.run(["quarantine", "--format", "csv", "--store", store])
        #expect(list.stdout.split(separator: "\r\n").count == 2, "one entry: \(list.stdout)")
    }
}
