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

    /// A list of seqs in a few words, so that a failure says what went wrong in one line.
    static func summary(_ seqs: [Int]) -> String {
        let ascending = zip(seqs, seqs.dropFirst()).allSatisfy { $0 < $1 }
        return "\(seqs.count) seqs, \(Set(seqs).count) distinct, \(seqs.first ?? 0)…\(seqs.last ?? 0), \(ascending ? "ascending" : "out of order")"
    }
}
