import Foundation
import GTIOSimulation
import GTIOTestSupport
import Testing

/// A view folded for one answer (`--at-seq`, `--as-of`) holds only the tables that answer reads
/// (`TableChoice`). Answered for the log's last seq, every query must print what it prints from
/// the store's own tables: a table its view left out would fail it, or change its answer.
@Suite struct ViewTablesTests {
    let folder = TemporaryDirectory()

    @Test func everyQueryAnswersForTheLastSeqAsFromTheStoresTables() throws {
        var bytes: [UInt8] = []
        try DemoCommunity(seed: 4, eventCount: 12_000).write { bytes += $0 }
        let demo = folder.write("demo.jsonl", String(decoding: bytes, as: UTF8.self))
        let store = folder.file("log.gtio")
        func gtio(_ arguments: [String]) throws -> GTIOBinary.Output {
            try GTIOBinary.run(arguments + ["--store", store])
        }
        let ingest = try gtio(["ingest", demo, "--format", "json"])
        #expect(ingest.status == 0, "\(ingest.stderr)")
        let last = try #require(ingest.stdout.firstMatch(of: /"last_seq":(\d+)/).map { String($0.1) })
        /// The first row's `column` of a CSV answer.
        func first(_ arguments: [String], _ column: Int, where wanted: (String) -> Bool = { !$0.isEmpty }) throws -> String {
            let answer = try gtio(arguments + ["--format", "csv"])
            let values = answer.stdout.split(whereSeparator: \.isNewline).dropFirst().map { String($0.split(separator: ",", omittingEmptySubsequences: false)[column]) }
            let found = values.first(where: wanted)
            return try #require(found, "\(arguments): \(answer.stdout) \(answer.stderr)")
        }
        let post = try first(["looks", "top", "--limit", "1"], 1), author = try first(["looks", "top", "--limit", "1"], 2)
        let reason = try first(["flags"], 4).split(separator: ";").first.map(String.init) ?? ""
        let place = try first(["places", "--limit", "1"], 1)
        let day = try first(["stats"], 0)
        #expect(!post.isEmpty && !author.isEmpty && !reason.isEmpty && !place.isEmpty)

        let queries: [[String]] = [
            ["looks", "popular"], ["looks", "new"], ["looks", "top"], ["looks", "wear-it"], ["looks", "top", "--place", place],
            ["verdicts"], ["verdict", post], ["followers", author], ["following", author], ["suggest", author],
            ["flags"], ["flags", "--reason", reason], ["flags", "--reason", reason, "--limit", "2"], ["flaggers"], ["products"], ["places"], ["prices"],
            ["prices", "--by", "brand"], ["prices", "--by", "place"], ["anomalies"], ["stats"], ["stats", "--date", day],
            ["funnel"], ["funnel", "--by-day"], ["funnel", "--from", day], ["retention"], ["retention", "--to", day],
        ]
        for query in queries {
            let stored = try gtio(query + ["--format", "csv"])
            let view = try gtio(query + ["--format", "csv", "--at-seq", last])
            #expect(stored.status == 0 && view.status == 0, "\(query): \(stored.stderr) \(view.stderr)")
            #expect(view.stdout == stored.stdout, "\(query)")
            #expect(stored.stdout.split(whereSeparator: \.isNewline).count > 1, "\(query) answers something")
        }
    }
}
