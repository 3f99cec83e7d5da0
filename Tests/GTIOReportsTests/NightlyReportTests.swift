import Foundation
import GTIOStore
import GTIOStoreSQLite
import GTIOTestSupport
import Testing

/// `gtio report nightly` end to end on a real store, through the real binary.
@Suite(.serialized) struct NightlyReportTests {
    let fixture: ReportFixture
    init() throws { fixture = try ReportFixture() }

    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/2012-04-24").path
    static let fileNames = [
        "engagement.csv", "flags.csv", "funnel.csv", "index.html", "looks.csv", "places.csv", "prices.csv", "products.csv", "retention.csv",
        "summary.md", "verdicts.csv",
    ]

    /// Set GTIO_RECORD_GOLDEN=1 to write the golden copies again (then read the diff before committing).
    @Test func filesMatchTheGoldenCopies() throws {
        let result = try fixture.report(["--date", "2012-04-24", "--out", fixture.out])
        #expect(result.status == 0, "\(result.stderr)")
        let files = try fixture.withoutTheMachinesTraces(ReportFixture.files(in: fixture.out + "/2012-04-24"))
        #expect(files.keys.sorted() == Self.fileNames)
        if ProcessInfo.processInfo.environment["GTIO_RECORD_GOLDEN"] == "1" {
            try? FileManager.default.removeItem(atPath: Self.golden)
            try FileManager.default.createDirectory(atPath: Self.golden, withIntermediateDirectories: true)
            for (name, data) in files { try data.write(to: URL(fileURLWithPath: Self.golden + "/" + name)) }
        }
        let expected = try ReportFixture.files(in: Self.golden)
        for name in Self.fileNames {
            #expect(files[name] == expected[name], "\(name) differs from Tests/GTIOReportsTests/Golden (GTIO_RECORD_GOLDEN=1 re-records)")
        }
    }

    @Test func thePageIsWellFormedAndItsChartsHoldTheirBarsAndPoints() throws {
        #expect(try fixture.report(["--date", "2012-04-24", "--out", fixture.out]).status == 0)
        let html = try String(contentsOfFile: fixture.out + "/2012-04-24/index.html", encoding: .utf8)
        let page = SVGCounter(html)
        #expect(page.error == nil, "\(page.error ?? "")")
        #expect(page.scripts == 0)
        #expect(page.outsideReferences.isEmpty, "\(page.outsideReferences)")
        #expect(page.charts.keys.sorted() == ["dau", "funnel", "looks", "places", "prices", "signups", "suggestions"])
        #expect(page.charts["suggestions"]?.bars == 4)  // one per channel, zeros included
        // The log begins on 2012-04-22: three days of DAU.
        #expect(page.charts["dau"]?.points == 3)
        #expect(page.charts["dau"]?.bars == 0)
        #expect(page.charts["signups"]?.bars == 5)
        #expect(page.charts["funnel"]?.bars == 4)
        #expect(page.charts["looks"]?.bars == 20)  // ten looks, a wear-it and a change-it part each
        for (id, chart) in page.charts {
            #expect(chart.hasTitle && chart.hasDescription, "\(id)")
        }
        #expect(page.charts["dau"]?.texts.contains("UTC day") == true)
        #expect(page.charts["dau"]?.texts.contains("active users") == true)
        #expect(page.charts["funnel"]?.texts.contains("devices") == true)
        #expect(page.charts["looks"]?.texts.contains("share of votes") == true)
    }

    @Test func rerunningGivesTheSameBytesAndLeavesNothingElseBehind() throws {
        #expect(try fixture.report(["--date", "2012-04-24", "--out", fixture.out]).status == 0)
        let first = try ReportFixture.files(in: fixture.out + "/2012-04-24")
        #expect(try fixture.report(["--date", "2012-04-24", "--out", fixture.out]).status == 0)
        #expect(try ReportFixture.files(in: fixture.out + "/2012-04-24") == first)
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.out) == ["2012-04-24"])
        // The same command through -c writes the same bytes too.
        let other = fixture.folder.file("Other")
        let viaC = try GTIOBinary.run(["--store", fixture.store, "-c", "report nightly --date 2012-04-24 --out \(other)"])
        #expect(viaC.status == 0, "\(viaC.stderr)")
        #expect(try ReportFixture.files(in: other + "/2012-04-24") == first)
    }

    @Test func aDayWithoutEventsGivesAReportThatSaysSo() throws {
        let result = try fixture.report(["--date", "2012-04-26", "--out", fixture.out])
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOfFile: fixture.out + "/2012-04-26/index.html", encoding: .utf8)
        #expect(html.contains("No events happened on 2012-04-26."))
        #expect(SVGCounter(html).error == nil)
        let engagement = try String(contentsOfFile: fixture.out + "/2012-04-26/engagement.csv", encoding: .utf8)
        #expect(engagement.split(separator: "\r\n").last?.hasPrefix("2012-04-26,0,") == true)
        let summary = try String(contentsOfFile: fixture.out + "/2012-04-26/summary.md", encoding: .utf8)
        #expect(summary.contains("> No events happened on 2012-04-26"))
    }

    @Test func theDefaultDayIsTheLastFullDayOfTheLog() throws {
        let result = try fixture.report(["--out", fixture.out])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("wrote \(fixture.out)/2012-04-27/ in "))
    }

    @Test func datesOutsideTheLogAndMalformedDatesAreUsageErrors() throws {
        let before = try fixture.report(["--date", "2012-04-01", "--out", fixture.out])
        #expect(before.status == 2)
        #expect(before.stderr == "gtio: no report for 2012-04-01: the log covers 2012-04-22 to 2012-04-28 (give --date within those days)\n")
        #expect(try fixture.report(["--date", "2012-05-01", "--out", fixture.out]).status == 2)
        let malformed = try fixture.report(["--date", "2012-13-01", "--out", fixture.out])
        #expect(malformed.status == 2)
        #expect(malformed.stderr.contains("--date: \"2012-13-01\" is not a date (expected YYYY-MM-DD)"))
        let missing = try GTIOBinary.run(["report", "nightly", "--store", fixture.folder.file("missing.gtio"), "--out", fixture.out])
        #expect(missing.status == 2)
        #expect(missing.stderr.hasPrefix("gtio: no store at "))
        _ = try SQLiteStore(path: fixture.folder.file("empty.gtio"))
        let empty = try GTIOBinary.run(["report", "nightly", "--store", fixture.folder.file("empty.gtio"), "--out", fixture.out])
        #expect(empty.status == 2)
        #expect(empty.stderr == "gtio: the log is empty: ingest events first (gtio ingest FILE)\n")
        #expect(!FileManager.default.fileExists(atPath: fixture.out))
        // --out naming a file is the person's to fix too, and the file is left as it was.
        let file = fixture.folder.write("not-a-folder", "keep\n")
        let onFile = try fixture.report(["--date", "2012-04-24", "--out", file])
        #expect(onFile.status == 2)
        #expect(onFile.stderr == "gtio: --out \(file) is a file; give a folder (each day's report goes in FOLDER/DATE/)\n", "\(onFile.stderr)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "keep\n")
    }

    @Test func funnelAndRetentionAnswerWithTheReportsColumns() throws {
        let funnel = try GTIOBinary.run(["--store", fixture.store, "-c", "funnel --to 2012-04-24 --format csv"])
        #expect(funnel.status == 0, "\(funnel.stderr)")
        #expect(funnel.stdout.hasPrefix("step,devices,conversion,overall\r\napp.opened,"))
        let byDay = try GTIOBinary.run(["--store", fixture.store, "-c", "funnel --by-day --from 2012-04-23 --to 2012-04-24 --format csv"])
        #expect(byDay.stdout.split(separator: "\r\n").map { $0.prefix(11) } == ["cohort,open", "2012-04-23,", "2012-04-24,"])
        let retention = try GTIOBinary.run(["--store", fixture.store, "-c", "retention --format csv"])
        #expect(retention.stdout.hasPrefix("cohort,users,day1_users,day1,day7_users,day7,day30_users,day30\r\n"))
        let bad = try GTIOBinary.run(["--store", fixture.store, "-c", "retention --from 2012-04-30 --to 2012-04-01"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--from 2012-04-30 is after --to 2012-04-01"))
    }
}
