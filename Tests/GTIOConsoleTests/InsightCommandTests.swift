import Foundation
import GTIOTestSupport
import Testing
@testable import GTIOConsole

/// Insights through the real binary: words, windows, errors and the two shapes of a trend.
@Suite struct InsightCommandTests {
    let folder = TemporaryDirectory()
    var store: String { folder.file("log.gtio") }

    init() throws {
        let lines = [
            #"{"id":"1","type":"track","at":"2012-04-23T10:00:00Z","user":"ann","data":{"name":"Outfit Detail"}}"#,
            #"{"id":"2","type":"track","at":"2012-04-23T10:01:00Z","user":"ann","data":{"name":"Shop"}}"#,
            #"{"id":"3","type":"post.shared","at":"2012-04-23T11:00:00Z","user":"ann","data":{"post":"p1","channel":"twitter"}}"#,
            #"{"id":"4","type":"post.shared","at":"2012-04-24T11:00:00Z","user":"bob","data":{"post":"p1","channel":"facebook"}}"#,
        ]
        _ = try GTIOBinary.run(["ingest", folder.write("log.jsonl", lines.joined(separator: "\n") + "\n"), "--store", store])
    }

    func gtio(_ command: String) throws -> GTIOBinary.Output {
        try GTIOBinary.run(["--store", store, "-c", command])
    }

    @Test func aTrendIsLongInCSVAndPivotedOnATerminal() throws {
        let csv = try gtio("trend post.shared --by channel --from 2012-04-23 --format csv")
        #expect(csv.status == 0)
        #expect(csv.stdout == "bucket,group,value\r\n2012-04-23,twitter,1\r\n2012-04-23,facebook,0\r\n2012-04-24,facebook,1\r\n2012-04-24,twitter,0\r\n")
        let table = try gtio("trend post.shared --by channel --from 2012-04-23").stdout
        #expect(table.contains("bucket      facebook  twitter"))
        #expect(table.contains("trend       ▁█        █▁"))
    }

    @Test func aBracketRunsOnToItsCloseWithoutQuotes() throws {
        let result = try gtio("trend track[name=Outfit Detail] --from 2012-04-23 --to 2012-04-23 --format csv")
        #expect(result.stdout == "bucket,group,value\r\n2012-04-23,all,1\r\n")
        let paths = try gtio("paths --format csv")
        #expect(paths.stdout == "step,from,to,actors,paths\r\n1,Outfit Detail,Shop,1,1\r\n")
    }

    @Test func mistakesAreBadUsageThatSaysWhatWouldBeRight() throws {
        let property = try gtio("breakdown post.shared --by chanel")
        #expect(property.status == 2)
        #expect(property.stderr.hasPrefix("gtio: unknown property \"chanel\" (did you mean channel?); known: "))
        let type = try gtio("trend post.shard")
        #expect(type.status == 2)
        #expect(type.stderr.hasPrefix("gtio: unknown event type \"post.shard\" (did you mean post.shared?)"))
        let window = try gtio("trend post.shared --from 2013-01-01 --to 2013-01-31")
        #expect(window.status == 2)
        #expect(window.stderr == "gtio: the window 2013-01-01 to 2013-01-31 holds no day of the log, which runs from 2012-04-23 to 2012-04-24\n")
        #expect(try gtio("funnel post.shared").status == 2)
        #expect(try gtio("retention --start post.shared").status == 2)
        #expect(try gtio("trend post.shared --from 2012-04-25 --to 2012-04-23").status == 2)
    }

    @Test func anOptionGivenTwiceIsBadUsageButWhereRepeats() throws {
        let twice = try gtio("trend post.shared --interval week --interval=day")
        #expect(twice.status == 2)
        #expect(twice.stderr == "gtio: --interval is given more than once; give it once\n")
        #expect(twice.stdout.isEmpty)
        let wheres = try gtio("trend post.shared --where channel!=x --where channel=twitter --from 2012-04-23 --to 2012-04-23 --format csv")
        #expect(wheres.stdout == "bucket,group,value\r\n2012-04-23,all,1\r\n")
        let outside = try GTIOBinary.run(["looks", "popular", "--limit", "2", "--limit", "3", "--store", store])
        #expect(outside.status == 2)
        #expect(outside.stderr == "gtio: --limit is given more than once; give it once\n")
        // A saved insight is held to the same rule when it is saved, not at night.
        #expect(try GTIOBinary.run(["insight", "save", "twice", "trend post.shared --top 2 --top 3", "--store", store]).status == 2)
        #expect(try gtio("insight list").stdout.contains("twice") == false)
    }
}

extension InsightCommandTests {
    @Test func savedInsightsRunAgainAndFillTheReportsSection() throws {
        let save = try GTIOBinary.run(["insight", "save", "shares", "trend post.shared --by channel", "--store", store])
        #expect(save.status == 0)
        #expect(save.stdout == "saved shares: trend post.shared --by channel\n")
        // Saving over a name says what it replaced: one store's insights are the whole team's.
        let again = try GTIOBinary.run(["insight", "save", "shares", "trend post.shared --by channel", "--store", store])
        #expect(again.stdout == "saved shares: trend post.shared --by channel\n")
        let other = try GTIOBinary.run(["insight", "save", "shares", "trend post.shared", "--store", store])
        #expect(other.status == 0)
        #expect(other.stdout == "replaced shares: trend post.shared (was: trend post.shared --by channel)\n")
        #expect(try GTIOBinary.run(["insight", "save", "shares", "trend post.shared --by channel", "--store", store]).status == 0)
        #expect(try GTIOBinary.run(["insight", "save", "typo", "trend post.shard", "--store", store]).status == 2)
        #expect(try GTIOBinary.run(["insight", "save", "not", "looks top", "--store", store]).status == 2)
        #expect(try gtio("insight list").stdout.contains("shares  trend post.shared --by channel"))
        let run = try GTIOBinary.run(["insight", "run", "shares", "--from", "2012-04-24", "--format", "csv", "--store", store])
        #expect(run.stdout == "bucket,group,value\r\n2012-04-24,facebook,1\r\n")  // the window's groups only
        let reports = folder.file("Reports")
        #expect(try GTIOBinary.run(["report", "nightly", "--date", "2012-04-23", "--out", reports, "--store", store]).status == 0)
        let csv = try String(contentsOfFile: reports + "/2012-04-23/insight-shares.csv", encoding: .utf8)
        #expect(csv == "bucket,group,value\r\n2012-04-23,twitter,1\r\n")  // the report's day is the window
        let summary = try String(contentsOfFile: reports + "/2012-04-23/summary.md", encoding: .utf8)
        #expect(summary.contains("### shares\n\n`trend post.shared --by channel`\n"))
        #expect(try gtio("insight delete shares").status == 0)
        let gone = try gtio("insight run shares")
        #expect(gone.status == 1)
        #expect(gone.stderr == "gtio: no insight saved as \"shares\" (saved: none; insight save NAME 'COMMAND')\n")
    }
}

extension InsightCommandTests {
    /// Where an answer is written, and from which store, are for whoever runs an insight: a saved
    /// `--out` was honoured by `insight run`, so on a shared store anyone could have planted an
    /// insight writing over a file of whoever ran it.
    @Test func aSavedInsightIsTheQuestionWithoutWhereItsAnswerGoes() throws {
        let target = folder.file("victim.txt")
        for option in ["--out \(target)", "--chart \(target)", "--out=\(target)", "--store \(store)"] {
            let save = try GTIOBinary.run(["insight", "save", "planted", "trend post.shared \(option)", "--store", store])
            #expect(save.status == 2, "\(option)")
            #expect(save.stderr.contains("a saved insight is the question alone: --"), "\(save.stderr)")
        }
        #expect(try gtio("insight list").stdout.contains("planted") == false)
        let mine = try GTIOBinary.run(["insight", "save", "shares", "trend post.shared", "--store", store])
        #expect(mine.status == 0)
        // One saved before this rule, straight into the table: run refuses it and writes nothing.
        let insert = try GTIOBinary.run(executable: "/usr/bin/sqlite3", [
            store + "-tables", "INSERT INTO insights (name, command) VALUES ('planted', 'trend post.shared --out \(target)')",
        ])
        #expect(insert.status == 0, "\(insert.stderr)")
        let run = try gtio("insight run planted")
        #expect(run.status == 2)
        #expect(run.stderr.contains("insight planted was saved with --out, which only its runner may give"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: target))
        let written = try gtio("insight run shares --out \(target)")
        #expect(written.status == 0, "\(written.stderr)")
        #expect(FileManager.default.fileExists(atPath: target))
    }

    /// A name written into the table by hand, as anyone who may write a shared store can, is left
    /// without a file: it stopped the whole nightly report ("The file doesn't exist").
    @Test func aSavedNameNoSaveWouldGiveLeavesTheReportWhole() throws {
        #expect(try GTIOBinary.run(["insight", "save", "shares", "trend post.shared", "--store", store]).status == 0)
        let insert = try GTIOBinary.run(executable: "/usr/bin/sqlite3", [
            store + "-tables", "INSERT INTO insights (name, command) VALUES ('../../escaped', 'trend post.shared')",
        ])
        #expect(insert.status == 0, "\(insert.stderr)")
        let reports = folder.file("deep/Reports")
        let report = try GTIOBinary.run(["report", "nightly", "--date", "2012-04-23", "--out", reports, "--store", store])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stdout.contains("insight-shares.csv"))
        #expect(!report.stdout.contains("escaped"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("escaped.csv")))
        let summary = try String(contentsOfFile: reports + "/2012-04-23/summary.md", encoding: .utf8)
        #expect(summary.contains("Not answered: its name is not one insight save gives"), "\(summary)")
    }

    @Test func tabCompletesSelectorsPropertiesAndTheValuesSeen() throws {
        let session = ConsoleSession(storeOptions: try StoreOptions.parse(["--store", store]), interactive: false)
        #expect(session.completions(before: "trend ", word: "post.sh").contains("post.shared"))
        #expect(session.completions(before: "trend post.shared --by ", word: "ch").contains("channel"))
        #expect(session.completions(before: "trend post.shared --where ", word: "channel=") == ["channel=facebook", "channel=twitter"])
        #expect(session.completions(before: "top ", word: "").contains("brands"))
        #expect(session.completions(before: "funnel post.created ", word: "post.h").contains("post.hearted"))
    }
}

extension InsightCommandTests {
    @Test func chartWritesTheFigureAsSVG() throws {
        let path = folder.file("trend.svg")
        #expect(try gtio("trend post.shared --by channel --from 2012-04-23 --chart \(path) --format csv").status == 0)
        let svg = try String(contentsOfFile: path, encoding: .utf8)
        #expect(svg.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.components(separatedBy: "<polyline").count == 3)  // one line per channel
    }

    @Test func retentionDrawsALinePerCohort() throws {
        let path = folder.file("retention.svg")
        let result = try gtio("retention --start post.shared --return post.shared --periods 2 --chart \(path) --format csv")
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("cohort,size,period,retained,share\r\n2012-04-23,1,1,0,"))
        let svg = try String(contentsOfFile: path, encoding: .utf8)
        #expect(svg.contains("<desc id=\"insight-desc\">2 cohorts over 2 periods.</desc>"))
        #expect(svg.components(separatedBy: "<polyline").count == 3)
        #expect(svg.contains("<title>2012-04-24, 2: 0</title>"))
        let signUps = try gtio("retention --chart \(folder.file("none.svg"))")
        #expect(signUps.status == 2)
        #expect(signUps.stderr.contains("--chart need --start and --return"))
    }
}
