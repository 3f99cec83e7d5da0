import Foundation
import GTIOTestSupport
import Testing

private func event(_ id: String, _ type: String, _ at: String, _ user: String, _ data: String) -> String {
    #"{"id":"\#(id)","type":"\#(type)","at":"2012-04-23T\#(at)Z","user":"\#(user)","data":\#(data)}"#
}

/// ann's post p1 with a review r1 by bob; cy, dee and eve flag p1 (dee twice); eve flags r1.
private let queueLog = [
    event("1", "post.created", "01:00:00", "ann", #"{"post":"p1","kind":"outfit","voting":true,"description":"Date night"}"#),
    event("2", "review.added", "01:10:00", "bob", #"{"review":"r1","post":"p1","text":"Love it"}"#),
    event("3", "post.flagged", "02:00:00", "cy", #"{"post":"p1","reason":"spam"}"#),
    event("4", "post.flagged", "02:05:00", "dee", #"{"post":"p1"}"#),
    event("5", "post.flagged", "02:06:00", "dee", #"{"post":"p1"}"#),
    event("6", "review.flagged", "02:30:00", "eve", #"{"review":"r1"}"#),
    event("7", "post.created", "03:00:00", "ann", #"{"post":"p2","kind":"outfit","voting":true}"#),
].joined(separator: "\n") + "\n"

@Suite struct ModerationCommandTests {
    let folder = TemporaryDirectory()
    var store: String { folder.file("log.gtio") }

    init() throws {
        _ = try GTIOBinary.run(["ingest", folder.write("q.jsonl", queueLog), "--store", folder.file("log.gtio")])
    }

    func gtio(_ command: String) throws -> GTIOBinary.Output { try GTIOBinary.run(["--store", store, "-c", command]) }

    func queue() throws -> String {
        try gtio("flags --format csv").stdout.split(separator: "\r\n").dropFirst().map { $0.split(separator: ",").prefix(4).joined(separator: ",") }.joined(separator: "\n")
    }

    @Test func theQueueCountsDistinctFlaggersAndHidesAtThree() throws {
        #expect(try queue() == "post:p1,2,2012-04-23T02:00:00.000Z,false\nreview:r1,1,2012-04-23T02:30:00.000Z,false")
        _ = try GTIOBinary.run(["ingest", "-", "--store", store], input: event("8", "post.flagged", "04:00:00", "fay", #"{"post":"p1"}"#) + "\n")
        #expect(try queue().hasPrefix("post:p1,3,2012-04-23T02:00:00.000Z,true"))
        #expect(try gtio("looks new --format csv").stdout == "rank,post,author,points,hearts,votes,reviews,score\r\n1,p2,ann,0,0,0,0,1.0\r\n")
        let filtered = try gtio("flags --reviews --format csv").stdout
        #expect(filtered.hasSuffix("review:r1,1,2012-04-23T02:30:00.000Z,false,,2012-04-23T02:30:00.000Z,6,bob,Love it\r\n"))
    }

    @Test func dismissClosesTheRoundAndALaterFlagReopensIt() throws {
        let result = try gtio("resolve post:p1 dismiss --as mod --expect 4 --at 2012-04-23T05:00:00Z")
        #expect(result.stdout == "post:p1: dismissed by mod (seq 8)\n")
        #expect(try queue() == "review:r1,1,2012-04-23T02:30:00.000Z,false")
        _ = try GTIOBinary.run(["ingest", "-", "--store", store], input: event("9", "post.flagged", "06:00:00", "cy", #"{"post":"p1"}"#) + "\n")
        // One flagger each: the older open flag (the review's) comes first.
        #expect(try queue() == "review:r1,1,2012-04-23T02:30:00.000Z,false\npost:p1,1,2012-04-23T06:00:00.000Z,false")
        let decisions = try gtio("decisions --format csv").stdout
        #expect(decisions.hasPrefix("seq,at,item,action,moderator,flaggers,first_flagged,waited_h,note\r\n8,2012-04-23T05:00:00.000Z,post:p1,dismiss,mod,2,2012-04-23T02:00:00.000Z,3.0,\r\n"))
    }

    @Test func removingAPostClosesItAndItsReviewsFlags() throws {
        #expect(try gtio("resolve post:p1 remove --as mod --at 2012-04-23T05:00:00Z").status == 0)
        #expect(try queue() == "")
        #expect(try gtio("verdict p1").stderr == "(no verdict for p1: it was removed)\n")
    }

    @Test func refusalsAppendNothingAndSayWhy() throws {
        let cases: [(String, Int32, String)] = [
            ("resolve post:p2 remove --as mod", 1, "gtio: resolve refused: post:p2 has no open flags, so there is nothing to decide; nothing appended\n"),
            ("resolve post:p9 remove --as mod", 1, "gtio: resolve refused: no such item post:p9: nothing with that id was ever created (flags lists the open items)\n"),
            ("resolve post:p1 remove --as mod --expect 3", 1, "gtio: resolve refused: post:p1 changed since you looked (version 3, now 4 with 2 flaggers); look again with item post:p1, nothing appended\n"),
            // A batch is all or nothing: r1 is fine, p2 is not, so neither is decided.
            ("resolve review:r1 post:p2 dismiss --as mod", 1, "gtio: resolve refused: post:p2 has no open flags, so there is nothing to decide; nothing appended\n"),
            // Not an item at all: the person's to fix, as a decision the log would refuse is.
            ("resolve p1 remove --as mod", 2, "gtio: resolve refused: \"p1\" is not an item (expected post:<id> or review:<id>); it is a post: give post:p1\n"),
            ("resolve p7 remove --as mod", 2, "gtio: resolve refused: \"p7\" is not an item (expected post:<id> or review:<id>)\n"),
        ]
        for (command, status, message) in cases {
            let result = try gtio(command)
            #expect(result.status == status, "\(command)")
            #expect(result.stderr == message, "\(command)")
        }
        #expect(try jsonObject(try gtio("status --format json").stdout)["events"] as? Int == 7)
        #expect(try gtio("resolve post:p1 maybe --as mod").status == 2)
        // Refused before the log's state is read or folded, from the tables at the log's end: a
        // typo or a decision someone else made first costs nothing on a large log.
        for (words, status) in [(["p1", "remove"], 2), (["post:p9", "remove"], 1), (["post:p2", "dismiss"], 1), (["post:p1", "remove", "--expect", "3"], 1)] as [([String], Int32)] {
            let early = try GTIOBinary.run(["--store", store, "resolve"] + words + ["--as", "mod"], environment: ["GTIO_SCAN_STATS": "1"])
            #expect(early.status == status, "\(words)")
            #expect(early.stderr.contains("gtio: events scanned: 0\n") && early.stderr.contains("gtio: fold states read: 0\n"), "\(words): \(early.stderr)")
        }
        #expect(try gtio("resolve review:r1@6 post:p1@4 dismiss --as mod").stdout == "review:r1: dismissed by mod (seq 8)\npost:p1: dismissed by mod (seq 9)\n")
    }

    /// On either backend, a decision the tables refuse is refused in their words without the
    /// log's state, and one they accept goes on to the state and is appended.
    @Test(arguments: StoreBackend.all)
    func aDecisionTheTablesRefuseReadsNoState(_ backend: StoreBackend) throws {
        let location = try backend.location(in: folder)
        #expect(try GTIOBinary.run(["ingest", folder.write("b.jsonl", queueLog), "--store", location]).status == 0)
        let counted = ["GTIO_SCAN_STATS": "1"]
        let cases: [([String], Int32, String)] = [
            (["post:p2", "dismiss"], 1, "post:p2 has no open flags, so there is nothing to decide; nothing appended"),
            (["post:p1", "remove", "--expect", "3"], 1, "post:p1 changed since you looked (version 3, now 4 with 2 flaggers)"),
            (["review:r9", "dismiss"], 1, "no such item review:r9"),
            (["r1", "dismiss"], 2, "\"r1\" is not an item (expected post:<id> or review:<id>); it is a review: give review:r1"),
        ]
        for (words, status, message) in cases {
            let refused = try GTIOBinary.run(["resolve"] + words + ["--as", "mod", "--store", location], environment: counted)
            #expect(refused.status == status, "\(words): \(refused.stderr)")
            #expect(refused.stderr.contains("gtio: resolve refused: \(message)"), "\(words): \(refused.stderr)")
            #expect(refused.stderr.contains("gtio: fold states read: 0\n") && refused.stderr.contains("gtio: events scanned: 0\n"), "\(words): \(refused.stderr)")
        }
        let decided = try GTIOBinary.run(["resolve", "post:p1", "dismiss", "--expect", "4", "--as", "mod", "--at", "2012-04-23T05:00:00Z", "--store", location])
        #expect(decided.status == 0 && decided.stdout.hasPrefix("post:p1: dismissed by mod (seq 8)"), "\(decided.stderr)")
        let late = try GTIOBinary.run(["stats", "--date", "2012-05-01", "--store", location])
        #expect(late.stderr == "note: --date 2012-05-01 is after the last day of the log in view (2012-04-23): no event lies there\n", "\(late.stderr)")
    }

    @Test func twoModeratorsAtOnceExactlyOneSucceeds() throws {
        for round in 0..<8 {
            let store = folder.file("race-\(round).gtio")
            _ = try GTIOBinary.run(["ingest", folder.write("race-\(round).jsonl", queueLog), "--store", store])
            let outputs = [folder.file("a-\(round)"), folder.file("b-\(round)")]
            let processes = ["ana", "ben"].enumerated().map { index, moderator in
                let process = Process()
                process.executableURL = URL(fileURLWithPath: GTIOBinary.path)
                process.arguments = ["--store", store, "-c", "resolve post:p1 remove --as \(moderator) --expect 4 --at 2012-04-23T05:00:00Z"]
                _ = FileManager.default.createFile(atPath: outputs[index], contents: nil)
                process.standardError = FileHandle(forWritingAtPath: outputs[index])
                process.standardOutput = FileHandle.nullDevice
                return process
            }
            processes.forEach { try? $0.run() }
            processes.forEach { $0.waitUntilExit() }
            let statuses = processes.map(\.terminationStatus).sorted()
            #expect(statuses == [0, 1], "round \(round)")
            let loser = try outputs.map { try String(contentsOfFile: $0, encoding: .utf8) }.joined()
            #expect(loser.contains("has no open flags: ") && loser.contains("decided it (remove) at 2012-04-23T05:00:00.000Z"), "\(loser)")
            let decisions = try GTIOBinary.run(["--store", store, "-c", "decisions --format csv"]).stdout
            #expect(decisions.split(separator: "\r\n").count == 2, "round \(round): \(decisions)")
        }
    }
}
