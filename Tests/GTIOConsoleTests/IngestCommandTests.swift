import Foundation
import GTIOTestSupport
import Testing

private func heartLine(_ id: String) -> String {
    #"{"id":"\#(id)","type":"post.hearted","at":"2012-04-23T00:00:00Z","user":"u1","data":{"post":"p1"}}"#
}

/// Parses the one JSON object a command printed.
func jsonObject(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
}

@Suite struct IngestCommandTests {
    let folder = TemporaryDirectory()
    var store: String { folder.file("log.gtio") }

    @Test func cleanInputExitsZeroWithTheCounts() throws {
        let path = folder.write("a.jsonl", [heartLine("a"), heartLine("b"), heartLine("a")].joined(separator: "\n"))
        let result = try GTIOBinary.run(["ingest", path, "--store", store])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("read 3, appended 2, duplicates 1, rejected 0 in "))
        #expect(result.stderr == "")
    }

    /// On a server's store an ingest catches the read models up from the events it appended, as
    /// it holds them: it reads none back; a file's store reads them back (as quick, nothing
    /// held). Either way the tables are a rebuild's.
    @Test(arguments: StoreBackend.all)
    func anIngestCatchesUpFromWhatItAppendedWhereReadingBackGoesThroughAServer(_ backend: StoreBackend) throws {
        let demo = folder.file("demo.jsonl")
        #expect(try GTIOBinary.run(["demo", "--events", "3000", "--seed", "8", "--out", demo]).status == 0)
        let lines = try String(contentsOfFile: demo, encoding: .utf8).split(separator: "\n").map(String.init)
        let store = try backend.location(in: folder)
        // The second file repeats 100 lines of the first: they are not appended again.
        let first = folder.write("first.jsonl", lines[..<2000].joined(separator: "\n") + "\n")
        let second = folder.write("second.jsonl", lines[1900...].joined(separator: "\n") + "\n")
        for file in [first, second] {
            let result = try GTIOBinary.run(
                ["ingest", file, "--store", store, "--format", "json"], environment: ["GTIO_SCAN_STATS": "1"])
            #expect(result.status == 0, "\(result.stderr)")
            let appended = try #require(result.stdout.firstMatch(of: /"appended":(\d+)/).flatMap { Int($0.1) }, "\(result.stdout)")
            let scanned = try #require(result.stderr.firstMatch(of: /events scanned: (\d+)/).flatMap { Int($0.1) }, "\(result.stderr)")
            #expect(scanned == (backend.name == "SQLite" ? appended : 0), "\(result.stderr)")
        }
        let check = try GTIOBinary.run(["rebuild", "--check", "--store", store])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(!check.stdout.contains("difference"), "\(check.stdout)")
        #expect(check.stdout.contains("posts: identical to a rebuild\n"), "\(check.stdout)")
    }

    @Test func jsonSummaryCarriesTheKeysScriptsRelyOn() throws {
        let path = folder.write("a.jsonl", heartLine("a") + "\nnot json\n")
        let result = try GTIOBinary.run(["ingest", path, "--store", store, "--format", "json"])
        #expect(result.status == 3)
        let summary = try jsonObject(result.stdout)
        #expect(summary["read"] as? Int == 2)
        #expect(summary["appended"] as? Int == 1)
        #expect(summary["duplicates"] as? Int == 0)
        #expect(summary["rejected"] as? Int == 1)
    }

    @Test func standardInputIsADash() throws {
        let result = try GTIOBinary.run(["ingest", "-", "--store", store], input: heartLine("s1") + "\n" + heartLine("s2") + "\n")
        #expect(result.status == 0)
        let status = try jsonObject(try GTIOBinary.run(["status", "--store", store, "--format", "json"]).stdout)
        #expect(status["events"] as? Int == 2)
        #expect(status["last_seq"] as? Int == 2)
        #expect(status["quarantined"] as? Int == 0)
        // The first writer built the read models whole, and saved its fold for the next one.
        #expect(status["fold_state_seq"] as? Int == 2)
        // What a writer reads back before its first event: a two-event community's few kilobytes.
        let bytes = try #require(status["fold_state_bytes"] as? Int)
        #expect(bytes > 0 && bytes < 100_000, "\(bytes)")
        let text = try GTIOBinary.run(["status", "--store", store]).stdout
        #expect(text.contains("fold state   saved at seq 2 (\((bytes + 500) / 1000) KB); a writer folds the 0 events after it"), "\(text)")
    }

    /// A writer that read the saved fold state back slowly says so on standard error, once,
    /// unless `--quiet`; a store's first writer reads none and says nothing. A test's state
    /// reads back in milliseconds, so the threshold is lowered to nothing (`GTIO_ADVISE_AFTER`).
    @Test func aWriterThatReadTheSavedStateBackSlowlySaysSo() throws {
        let demo = folder.file("demo.jsonl")
        #expect(try GTIOBinary.run(["demo", "--events", "3000", "--seed", "8", "--out", demo]).status == 0)
        let lines = try String(contentsOfFile: demo, encoding: .utf8).split(separator: "\n").map(String.init)
        // Two posts flagged at the end, for two decisions.
        let flagged = ["pf1", "pf2"].flatMap { post in [
            #"{"id":"c-\#(post)","type":"post.created","at":"2012-04-23T00:00:00Z","user":"uf","data":{"post":"\#(post)","kind":"outfit","voting":true}}"#,
            #"{"id":"f-\#(post)","type":"post.flagged","at":"2012-04-23T00:01:00Z","user":"ug","data":{"post":"\#(post)"}}"#,
        ] }
        let parts = [Array(lines[..<2000]), Array(lines[2000..<2500]), lines[2500...] + flagged].enumerated().map { index, part in
            folder.write("part\(index).jsonl", part.joined(separator: "\n") + "\n")
        }
        let advice = "gtio: reading the read models' saved state back ("
        let slow = ["GTIO_ADVISE_AFTER": "0"]
        let first = try GTIOBinary.run(["ingest", parts[0], "--store", store], environment: slow)
        #expect(first.status == 0)
        #expect(!first.stderr.contains(advice), "\(first.stderr)")
        let next = try GTIOBinary.run(["ingest", parts[1], "--store", store], environment: slow)
        #expect(next.stderr.components(separatedBy: advice).count == 2, "\(next.stderr)")
        #expect(next.stderr.contains(" KB) took "), "\(next.stderr)")
        let quiet = try GTIOBinary.run(["ingest", parts[2], "--store", store, "--quiet"], environment: slow)
        #expect(quiet.stderr == "")
        let items = ["post:pf1", "post:pf2"]
        let decided = try GTIOBinary.run(["resolve", items[0], "dismiss", "--as", "mod", "--store", store], environment: slow)
        #expect(decided.status == 0)
        #expect(decided.stderr.contains(advice), "\(decided.stderr)")
        // At the threshold users get (a second), a test's state is not worth a word.
        let plain = try GTIOBinary.run(["resolve", items[1], "dismiss", "--as", "mod", "--store", store])
        #expect(plain.status == 0)
        #expect(plain.stderr == "", "\(plain.stderr)")
    }

    @Test func theStoreComesFromTheEnvironmentOrTheCurrentFolder() throws {
        let path = folder.write("a.jsonl", heartLine("a"))
        #expect(try GTIOBinary.run(["ingest", path], environment: ["GTIO_STORE": store]).status == 0)
        #expect(FileManager.default.fileExists(atPath: store))
        #expect(try GTIOBinary.run(["ingest", path], directory: folder.path).status == 0)
        #expect(FileManager.default.fileExists(atPath: folder.file("events.gtio")))
    }

    @Test func badInputGetsOneLineAndTheRightExitCode() throws {
        let good = folder.write("good.jsonl", heartLine("a"))
        let notes = folder.write("notes.txt", "dear diary")
        let cases: [([String], Int32, String)] = [
            (["ingest", folder.file("missing.jsonl"), "--store", store], 2,
             "gtio: \(folder.file("missing.jsonl")): no such file (give JSON Lines files, or - for standard input)\n"),
            (["ingest", good, "--store", folder.file("no/such/folder.gtio")], 2,
             "gtio: cannot create the store \(folder.file("no/such/folder.gtio")): the folder \(folder.file("no/such")) does not exist (create it, or pass --store with an existing folder)\n"),
            (["ingest", good, "--store", notes], 2,
             "gtio: \(notes) is not a GTIO store: it is not an SQLite database (pass --store with a .gtio file, or a new path to create one)\n"),
            (["ingest", good, "--store", "/proc/x.gtio"], 1,
             "gtio: cannot write to the store /proc/x.gtio: it or its folder is read-only (pass --store with a writable path)\n"),
        ]
        for (arguments, status, message) in cases {
            let result = try GTIOBinary.run(arguments)
            #expect(result.status == status, "\(arguments)")
            #expect(result.stderr == message)
            #expect(result.stdout == "")
        }
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "dear diary")
        let usage = try GTIOBinary.run(["ingest", "--store", store])
        #expect(usage.status == 2)
        #expect(usage.stderr.hasPrefix("Error: give at least one JSON Lines file, or - for standard input\n"))
    }

    @Test func anEmptyFileIsReportedAndALineWithNulBytesQuarantinedWhileTheOthersAreIngested() throws {
        let empty = folder.write("empty.jsonl", "")
        let binary = folder.write("binary.jsonl", bytes: [0x7B, 0x00, 0x01, 0x02])
        let good = folder.write("good.jsonl", heartLine("a"))
        let result = try GTIOBinary.run(["ingest", empty, binary, good, "--store", store])
        #expect(result.status == 3)
        #expect(result.stderr.contains("gtio: \(empty): empty file: nothing to ingest\n"))
        #expect(result.stdout.contains("\(binary): read 1, appended 0, duplicates 0, rejected 1"))
        #expect(result.stdout.contains("\(good): read 1, appended 1, duplicates 0, rejected 0"))
    }

    @Test func quietSaysNothingOfAnEmptyFile() throws {
        let empty = folder.write("empty.jsonl", "")
        let result = try GTIOBinary.run(["ingest", empty, "--store", store, "--quiet"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(result.stdout == "")
    }

    @Test func quarantineListsShowsAndRetriesFromACorrectedFile() throws {
        let path = folder.write("feed.jsonl", heartLine("a") + "\n" + #"{"id":"b","type":"post.hearted","at":"yesterday","user":"u1","data":{"post":"p1"}}"# + "\n")
        #expect(try GTIOBinary.run(["ingest", path, "--store", store]).status == 3)
        let list = try GTIOBinary.run(["quarantine", "--store", store, "--format", "csv"])
        #expect(list.stdout.hasPrefix("entry,source,line,status,reason,original\r\n1,\(path),2,open,"))
        #expect(list.stdout.contains(#"at: ""yesterday"" is not an RFC 3339 time"#))
        let show = try GTIOBinary.run(["quarantine", "show", "1", "--store", store])
        #expect(show.stdout.contains("source    \(path), line 2"))
        #expect(try GTIOBinary.run(["quarantine", "show", "9", "--store", store]).status == 1)

        let fixed = folder.write("fixed.jsonl", heartLine("a") + "\n" + heartLine("b") + "\n")
        let retry = try GTIOBinary.run(["quarantine", "retry", "--from", fixed, "--source", path, "--store", store])
        #expect(retry.stdout == "appended 1, duplicates 0, still rejected 0\n")
        let status = try jsonObject(try GTIOBinary.run(["status", "--store", store, "--format", "json"]).stdout)
        #expect(status["events"] as? Int == 2)
        #expect(status["quarantined"] as? Int == 0)
    }

    /// A corrected file is read as ingest reads its source: a byte-order mark before the first
    /// line is dropped (it stayed, so a fixed first line was still rejected), and an input that
    /// is no file says so rather than "You don't have permission".
    @Test func retryReadsTheCorrectedFileAsIngestReadsItsSource() throws {
        let bom = "\u{FEFF}", bad = #"{"id":"a","type":"post.hearted","at":"yesterday","user":"u1","data":{"post":"p1"}}"#
        let path = folder.write("bom.jsonl", bom + bad + "\r\n\n" + heartLine("b") + "\r\n")
        #expect(try GTIOBinary.run(["ingest", path, "--store", store]).status == 3)
        let fixed = folder.write("bom-fixed.jsonl", bom + heartLine("a") + "\r\n\n" + heartLine("b") + "\r\n")
        let retry = try GTIOBinary.run(["quarantine", "retry", "--from", fixed, "--source", path, "--store", store])
        #expect(retry.stdout == "appended 1, duplicates 0, still rejected 0\n", "\(retry.stderr)")
        let folderRetry = try GTIOBinary.run(["quarantine", "retry", "--from", folder.path, "--store", store])
        #expect(folderRetry.status == 2)
        #expect(folderRetry.stderr == "gtio: \(folder.path) is a folder, not a file (give the JSON Lines files inside it)\n")
        let device = try GTIOBinary.run(["quarantine", "retry", "--from", "/dev/null", "--store", store])
        #expect(device.stdout == "appended 0, duplicates 0, still rejected 0\n", "\(device.stderr)")
    }

    @Test func dashCRunsTheSameCommand() throws {
        let path = folder.write("a.jsonl", heartLine("a"))
        try GTIOBinary.run(["ingest", path, "--store", store])
        let direct = try GTIOBinary.run(["events", "--store", store, "--format", "csv"])
        let viaC = try GTIOBinary.run(["--store", store, "-c", "events --format csv"])
        #expect(direct.status == 0)
        #expect(viaC.stdout == direct.stdout)
        #expect(direct.stdout.hasPrefix("seq,id,type,at,recorded,user,device,v,subject,object,value,flag,number,text,list\r\n1,a,post.hearted,2012-04-23T00:00:00.000Z,"))
        let unknown = try GTIOBinary.run(["-c", "folowers u1", "--store", store])
        #expect(unknown.status == 2)
    }
}
