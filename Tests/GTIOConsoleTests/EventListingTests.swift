import Foundation
import GTIOTestSupport
import Testing

/// `events` reads a long listing a page at a time (`EventsCommand.pageSize`, 10,000 events) and
/// writes it as one answer: every event once, in seq order, one header, one JSON array.
struct EventListingTests {
    let folder = TemporaryDirectory()

    /// A store of a 12,000-line demo log, and how many events it holds.
    private func store() throws -> (path: String, events: Int) {
        let demo = folder.path + "/demo.jsonl", store = folder.path + "/events.gtio"
        #expect(try GTIOBinary.run(["demo", "--events", "12000", "--seed", "3", "--out", demo]).status == 0)
        #expect(try GTIOBinary.run(["ingest", demo, "--store", store, "--quiet"]).status == 0)
        let status = try GTIOBinary.run(["sql", "SELECT COUNT(*), MAX(seq) FROM events", "--format", "csv", "--store", store])
        let counts = status.stdout.split(whereSeparator: \.isNewline)[1].split(separator: ",").map { Int($0)! }
        #expect(counts[0] == counts[1])
        #expect(counts[0] > 10_000)
        return (store, counts[0])
    }

    @Test func aListingLongerThanAPageIsOneAnswer() throws {
        let (store, events) = try store()
        let csv = try GTIOBinary.run(["events", "--limit", "0", "--format", "csv", "--store", store])
        #expect(csv.status == 0)
        let lines = csv.stdout.split(separator: "\r\n")
        #expect(lines.first == "seq,id,type,at,recorded,user,device,v,subject,object,value,flag,number,text,list")
        #expect(Self.summary(lines.dropFirst().compactMap { Int($0.prefix { $0 != "," }) }) == Self.summary(Array(1...events)))

        let json = try GTIOBinary.run(["events", "--limit", "0", "--format", "json", "--store", store])
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(Self.summary(objects.compactMap { $0["seq"] as? Int }) == Self.summary(Array(1...events)))

        let table = try GTIOBinary.run(["events", "--limit", "0", "--store", store])
        let rows = table.stdout.split(separator: "\n")
        #expect(rows.filter { $0.hasPrefix("seq ") }.count == 1)
        #expect(rows.last == "(\(events) rows)")
        #expect(rows.count == events + 3)
    }

    @Test func aLimitPastAPageIsKeptExactly() throws {
        let (store, _) = try store()
        let csv = try GTIOBinary.run(["events", "--limit", "10003", "--after-seq", "5", "--format", "csv", "--store", store])
        let seqs = csv.stdout.split(separator: "\r\n").dropFirst().compactMap { Int($0.prefix { $0 != "," }) }
        #expect(Self.summary(seqs) == Self.summary(Array(6...10_008)))
    }

    /// A listing between two times reads only the part of the log where events of those times
    /// lie (by each day's first and last seq); events that came late, with times of days
    /// appended long before, are still in it.
    @Test(arguments: StoreBackend.all, Window.cases)
    func aListingBetweenTwoTimesHasEveryEventOfThem(_ backend: StoreBackend, _ window: Window) throws {
        let (since, until) = (window.since, window.until)
        // Four days of hearts, each day's events appended in turn, then late ones of every day.
        var lines: [String] = []
        for (index, at) in ((0..<4).flatMap { day in (0..<5).map { "2012-04-\(23 + day)T\(10 + $0):00:00.000Z" } }
                            + ["2012-04-24T01:00:00.000Z", "2012-04-23T23:00:00.000Z", "2012-04-26T00:30:00.000Z"]).enumerated() {
            lines.append(#"{"id":"e\#(index)","type":"post.hearted","at":"\#(at)","user":"u\#(index)","data":{"post":"p1"}}"#)
        }
        let store = try backend.location(in: folder)
        #expect(try GTIOBinary.run(["ingest", folder.write("late.jsonl", lines.joined(separator: "\n") + "\n"), "--store", store, "--quiet"]).status == 0)
        func seqs(_ arguments: [String]) throws -> [Int] {
            let csv = try GTIOBinary.run(["events", "--limit", "0", "--format", "csv", "--store", store] + arguments)
            #expect(csv.status == 0, "\(csv.stderr)")
            return csv.stdout.split(separator: "\r\n").dropFirst().compactMap { Int($0.prefix { $0 != "," }) }
        }
        let all = try GTIOBinary.run(["events", "--limit", "0", "--format", "csv", "--store", store]).stdout
            .split(separator: "\r\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(all.count == 23)
        func time(_ text: String, endOfDay: Bool) -> String {
            text.count == 10 ? text + (endOfDay ? "T23:59:59.999Z" : "T00:00:00.000Z") : text.replacingOccurrences(of: ":00Z", with: ":00.000Z")
        }
        let expected = all.filter { row in
            let at = String(row[3])
            return since.map { at >= time($0, endOfDay: false) } ?? true && until.map { at <= time($0, endOfDay: true) } ?? true
        }.map { Int($0[0])! }
        let arguments = (since.map { ["--since", $0] } ?? []) + (until.map { ["--until", $0] } ?? [])
        #expect(try seqs(arguments) == expected)
        #expect(!expected.isEmpty || since == "2012-04-27" || until == "2012-04-22")
    }

    /// `--since` and `--until`, either left out.
    struct Window: Sendable, CustomStringConvertible {
        var since: String?
        var until: String?
        var description: String { "\(since ?? "-") to \(until ?? "-")" }

        static let cases = [
            Window(since: "2012-04-23", until: "2012-04-23"), Window(since: "2012-04-24"), Window(until: "2012-04-24"),
            Window(since: "2012-04-25T06:00:00Z", until: "2012-04-26T05:59:59.999Z"), Window(since: "2012-04-27"),
            Window(until: "2012-04-22"),
        ]
    }

    /// A list of seqs in a few words, so that a failure says what went wrong in one line.
    static func summary(_ seqs: [Int]) -> String {
        let ascending = zip(seqs, seqs.dropFirst()).allSatisfy { $0 < $1 }
        return "\(seqs.count) seqs, \(Set(seqs).count) distinct, \(seqs.first ?? 0)…\(seqs.last ?? 0), \(ascending ? "ascending" : "out of order")"
    }
}
