import Foundation
import GTIOTestSupport
import Testing

/// Inputs a new user gave the console that it mishandled, each pinned with the real binary.
@Suite struct InputFindingsTests {
    let folder = TemporaryDirectory()
    var store: String { folder.file("log.gtio") }

    var lines: String {
        ["a", "b", "c"].map {
            #"{"id":"\#($0)","type":"post.hearted","at":"2012-04-23T00:00:00Z","user":"u1","data":{"post":"p1"}}"#
        }.joined(separator: "\n") + "\n"
    }

    /// Runs `script` in bash with `gtio` as a function calling the binary.
    func bash(_ script: String) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "gtio() { '\(GTIOBinary.path)' \"$@\"; }; cd '\(folder.path)'; " + script]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, stdout, stderr)
    }

    @Test func aNamedFIFOIsReadOnceToItsEnd() throws {
        _ = folder.write("feed.jsonl", lines)
        let result = try bash("mkfifo pipe; cat feed.jsonl > pipe & timeout 20 '\(GTIOBinary.path)' ingest pipe --store log.gtio")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("read 3, appended 3, duplicates 0, rejected 0"))
    }

    @Test func processSubstitutionIsReadAndAnEmptyOneIsNamed() throws {
        _ = folder.write("feed.jsonl", lines)
        let result = try bash("gtio ingest <(cat feed.jsonl) --store log.gtio")
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("read 3, appended 3"))
        #expect(!result.stderr.contains("empty"))
        let empty = try bash("gtio ingest <(true) --store log.gtio")
        #expect(empty.stderr.contains("no input: nothing to ingest"), "\(empty.stderr)")
    }

    @Test func runKeepsGoingPastAFailingCommandWhereverTheFlagIsWritten() throws {
        _ = try GTIOBinary.run(["ingest", folder.write("feed.jsonl", lines), "--store", store])
        let file = folder.write("commands.txt", "nonsense\nstats --date 2012-04-23 --format csv\n")
        for arguments in [["run", file, "--keep-going"], ["run", "--keep-going", file]] {
            let result = try GTIOBinary.run(arguments + ["--store", store])
            #expect(result.status == 1)
            #expect(result.stdout.contains("2012-04-23,"), "\(arguments): \(result.stdout)")
        }
        #expect(try GTIOBinary.run(["run", file, "--store", store]).stdout.isEmpty)
    }

    /// A file that cannot take an answer (a full disk: /dev/full) is named, and the answer comes
    /// on standard output instead of the console ending.
    @Test func anAnswerAFileCannotTakeComesHereWithTheReason() throws {
        _ = try GTIOBinary.run(["ingest", folder.write("feed.jsonl", lines), "--store", store])
        let file = folder.write("commands.txt", "output /dev/full\nstats --date 2012-04-23 --format csv\n")
        let result = try GTIOBinary.run(["run", file, "--store", store])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("gtio: cannot add to /dev/full ("), "\(result.stderr)")
        #expect(result.stdout.contains("2012-04-23,"), "\(result.stdout)")
    }

    /// What `run` is given: a folder is named as one, /dev/null is an empty script, and a
    /// binary file's bytes come back in the error written out, not sent to the terminal.
    @Test func runNamesAFolderReadsAnyFileAndWritesControlCharactersOut() throws {
        _ = try GTIOBinary.run(["ingest", folder.write("feed.jsonl", lines), "--store", store])
        let asFolder = try GTIOBinary.run(["run", folder.path, "--store", store])
        #expect(asFolder.status == 2 && asFolder.stderr.contains("is a folder (give a file of console commands)"), "\(asFolder.stderr)")
        let nothing = try GTIOBinary.run(["run", "/dev/null", "--store", store])
        #expect(nothing.status == 0 && nothing.stderr.isEmpty, "\(nothing.stderr)")
        let binary = folder.write("binary.txt", "\u{1B}]0;owned\u{7}\u{0}x\n")
        let garbled = try GTIOBinary.run(["run", binary, "--store", store])
        #expect(garbled.status == 1)  // a script stops at its first failing command with 1
        #expect(garbled.stderr == #"gtio: unknown command "\u{1B}]0;owned\u{7}\u{0}x" (help lists the commands)"# + "\n", "\(garbled.stderr)")
        // And an argument's, in an error of the command line's parser (several lines, kept).
        let tab = try GTIOBinary.run(["looks", "a\u{1B}[2Jb", "--store", store])
        #expect(tab.status == 2 && tab.stderr.contains(#"unknown tab "a\u{1B}[2Jb""#) && !tab.stderr.contains("\u{1B}"), "\(tab.stderr)")
        #expect(tab.stderr.split(separator: "\n").count > 1)
    }

    /// `catalog --write-schemas` given a file says so: it printed Foundation's error whole.
    @Test func writeSchemasNamesAFileGivenForTheFolder() throws {
        let file = folder.write("not-a-folder", "keep\n")
        let onFile = try GTIOBinary.run(["catalog", "--write-schemas", file])
        #expect(onFile.status == 2)
        #expect(onFile.stderr == "gtio: --write-schemas: \(file) is a file; give a folder\n", "\(onFile.stderr)")
        let written = try GTIOBinary.run(["catalog", "--write-schemas", folder.path])
        #expect(written.status == 0 && written.stdout.hasPrefix("wrote "), "\(written.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.file("track.schema.json")))
    }

    @Test func aFullDiskStillAnswersInJSONWithWhatWasCommitted() throws {
        let many = (0..<20_000).map {
            #"{"id":"e\#($0)","type":"post.hearted","at":"2012-04-23T00:00:00Z","user":"u\#($0 % 97)","data":{"post":"p\#($0 % 13)"}}"#
        }
        _ = folder.write("many.jsonl", many.joined(separator: "\n") + "\n")
        // A file size limit stands in for a full disk: SQLite's write fails the same way.
        let result = try bash("ulimit -f 1024; gtio ingest many.jsonl --store log.gtio --format json --batch-size 1000")
        #expect(result.status == 1)
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
        let error = try #require(answer["error"] as? String)
        #expect(error.hasPrefix("the disk holding \(folder.path)/log.gtio is full (or a file size limit was reached)"))
        let appended = try #require(answer["appended"] as? Int)
        #expect(appended > 0 && appended < 20_000)
        #expect(answer["last_seq"] as? Int == appended)
        #expect(result.stderr.hasPrefix("gtio: the disk holding"))
        // What was committed is intact, and the same ingest finishes once there is room.
        #expect(try GTIOBinary.run(["verify", "--store", store]).status == 0)
        let again = try GTIOBinary.run(["ingest", folder.file("many.jsonl"), "--store", store, "--format", "json"])
        #expect(again.stdout.contains(#""appended":\#(20_000 - appended),"duplicates":\#(appended)"#), "\(again.stdout)")
    }

    /// A query whose read models cannot be written for want of room still answers, from a fold
    /// of the log, and says why the tables stay behind: it failed with the disk-full error.
    @Test func aQueryOnAFullDiskAnswersFromTheLogAndSaysSo() throws {
        let demo = folder.file("demo.jsonl")
        #expect(try GTIOBinary.run(["demo", "--events", "1500", "--seed", "31", "--out", demo]).status == 0)
        #expect(try GTIOBinary.run(["ingest", demo, "--store", store]).status == 0)
        let question = "looks popular --limit 5 --format csv"
        let expected = try GTIOBinary.run(["-c", question, "--store", store])
        #expect(expected.status == 0 && expected.stdout.hasPrefix("rank,post,") && expected.stdout.contains("\n5,p"), "\(expected.stdout)\(expected.stderr)")
        // Without its read models, which need more room than the log: the limit lets the log
        // be opened, not the tables be written.
        for suffix in ["-tables", "-tables-wal", "-tables-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) }
        let logBytes = try #require(try FileManager.default.attributesOfItem(atPath: store)[.size] as? Int)
        let limited = try bash("ulimit -S -f \(logBytes / 1024 + 64); gtio -c '\(question)' --store log.gtio")
        #expect(limited.status == 0, "\(limited.stderr)")
        #expect(limited.stdout == expected.stdout)
        #expect(limited.stderr == "gtio: warning: the disk holding \(store)-tables is full (or a file size limit was reached): the read models could not be brought up to date, so this answer was folded from the log; free space to keep them current\n", "\(limited.stderr)")
    }

    /// Numbers at the ends of their range, and a log whose "now" is the calendar's last day:
    /// each was a trap (exit 132) or a loop without end.
    @Test func numbersAtTheEndsOfTheirRangeAreAnsweredOrRefusedNeverACrash() throws {
        let events = [
            #"{"id":"a","type":"track","at":"2012-04-23T10:00:00Z","user":"u1","data":{"name":"Feed"}}"#,
            #"{"id":"b","type":"track","at":"2012-04-23T10:01:00Z","user":"u1","data":{"name":"Shop"}}"#,
            #"{"id":"c","type":"post.created","at":"2012-04-23T10:02:00Z","user":"u1","data":{"post":"p1","kind":"outfit","voting":true}}"#,
            #"{"id":"d","type":"post.flagged","at":"2012-04-23T10:03:00Z","user":"u2","data":{"post":"p1"}}"#,
            #"{"id":"e","type":"track","at":"9999-12-31T23:59:59Z","user":"u1","data":{"name":"Feed"}}"#,
        ]
        _ = try GTIOBinary.run(["ingest", folder.write("edges.jsonl", events.joined(separator: "\n") + "\n"), "--store", store])
        let max = String(Int64.max)
        let answered: [[String]] = [
            ["looks", "popular", "--limit", max],
            ["looks", "top", "--limit", max],
            ["flags", "--older-than", "1e300h"],
            ["flags", "--older-than", "99999999999999999d"],
            ["paths", "--depth", max, "--from", "2012-04-23", "--to", "2012-04-23"],
            ["funnel", "track", "track", "--within", "1e300d", "--from", "2012-04-23", "--to", "2012-04-23"],
            ["trend", "track", "--interval", "month"],
            ["retention", "--start", "track", "--return", "track", "--periods", "100000", "--from", "2012-04-23", "--to", "2012-04-23"],
        ]
        for arguments in answered {
            let result = try GTIOBinary.run(arguments + ["--store", store, "--format", "csv"])
            #expect(result.status == 0, "\(arguments): \(result.status) \(result.stderr)")
        }
        let flagged = try GTIOBinary.run(["flags", "--older-than", "1e300h", "--store", store, "--format", "csv"])
        #expect(flagged.stdout == "item,flaggers,first_flagged,hidden,reasons,last_flagged,version,author,preview\r\n", "nothing was flagged before the calendar began: \(flagged.stdout)")
        let paths = try GTIOBinary.run(["paths", "--depth", max, "--from", "2012-04-23", "--to", "2012-04-23", "--store", store, "--format", "csv"])
        #expect(paths.stdout.hasSuffix("1,Feed,Shop,1,1\r\n"), "\(paths.stdout)")
        let months = try GTIOBinary.run(["trend", "track", "--interval", "month", "--store", store, "--format", "csv"])
        #expect(months.stdout == "bucket,group,value\r\n9999-12,all,1\r\n", "\(months.stdout)")
        let retention = try GTIOBinary.run(["retention", "--start", "track", "--return", "track", "--periods", max, "--store", store])
        #expect(retention.status == 2, "\(retention.status)")
        #expect(retention.stderr.contains("--periods: at most 3652058 days fit between 0001-01-01 and 9999-12-31"), "\(retention.stderr)")
    }

    /// A price is any number ≥ 0: 1e300, or the largest double, whose sum is infinite. Each
    /// stopped the process where a figure, a chart or the nightly report made it a whole number;
    /// their means were infinite (empty in CSV) where they are not.
    @Test func pricesPastWhatIntegersHoldAreTabledChartedAndReported() throws {
        let events = [
            #"{"id":"a","type":"post.created","at":"2012-05-01T00:01:00Z","user":"u1","data":{"post":"p1","kind":"product","voting":true,"product":"pr1","price":1e300}}"#,
            #"{"id":"b","type":"post.created","at":"2012-05-01T00:02:00Z","user":"u1","data":{"post":"p2","kind":"product","voting":true,"product":"pr1","price":1.7976931348623157e308}}"#,
            #"{"id":"c","type":"post.created","at":"2012-05-01T00:03:00Z","user":"u1","data":{"post":"p3","kind":"product","voting":true,"product":"pr2","price":12.5}}"#,
            #"{"id":"d","type":"track","at":"2012-05-02T00:00:00Z","user":"u1","data":{"name":"Feed"}}"#,
            #"{"id":"e","type":"post.created","at":"2012-04-30T00:01:00Z","user":"u1","data":{"post":"p4","kind":"product","voting":true,"product":"pr3","price":1e300}}"#,
        ]
        _ = try GTIOBinary.run(["ingest", folder.write("prices.jsonl", events.joined(separator: "\n") + "\n"), "--store", store])
        let window = ["--from", "2012-05-01", "--to", "2012-05-01", "--store", store]
        let sum = try GTIOBinary.run(["trend", "post.created", "--measure", "sum:price"] + window)
        #expect(sum.status == 0, "\(sum.stderr)")
        #expect(sum.stdout.contains("inf"), "the sum is past the doubles: \(sum.stdout)")
        let average = try GTIOBinary.run(["trend", "post.created", "--measure", "avg:price", "--chart", folder.file("avg.svg")] + window)
        #expect(average.status == 0, "\(average.stderr)")
        #expect(try String(contentsOfFile: folder.file("avg.svg"), encoding: .utf8).hasPrefix("<?xml"))
        // A finite average past 2^63 (one price of 1e300 that day) on the chart's integer axis.
        let finite = try GTIOBinary.run(["trend", "post.created", "--measure", "avg:price", "--chart", folder.file("finite.svg"),
                                         "--from", "2012-04-30", "--to", "2012-04-30", "--store", store])
        #expect(finite.status == 0, "\(finite.stderr)")
        let csv = try GTIOBinary.run(["trend", "post.created", "--measure", "sum:price", "--format", "csv"] + window)
        #expect(csv.stdout == "bucket,group,value\r\n2012-05-01,all,null\r\n", "\(csv.stdout)")
        // The mean of the same prices is an ordinary number: (1e300 + largest + 12.5) / 3.
        let mean = try GTIOBinary.run(["trend", "post.created", "--measure", "avg:price", "--format", "csv"] + window)
        #expect(mean.stdout == "bucket,group,value\r\n2012-05-01,all,5.992310482874386e+307\r\n", "\(mean.stdout)")
        let prices = try GTIOBinary.run(["prices", "--format", "csv", "--store", store])
        #expect(prices.stdout.hasPrefix("group,posts,min,median,mean,p90,max\r\nall,4,12.5,1e+300,4.49423288715579e+307,"), "\(prices.stdout)")
        let report = try GTIOBinary.run(["report", "nightly", "--date", "2012-05-01", "--out", folder.file("reports"), "--store", store])
        #expect(report.status == 0, "\(report.stderr)")
        let page = try String(contentsOfFile: folder.file("reports/2012-05-01/index.html"), encoding: .utf8)
        #expect(page.contains("or more"), "the prices' highest bin takes every price past the axis")
    }
}
