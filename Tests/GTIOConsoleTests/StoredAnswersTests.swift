import Foundation
import GRDB
import GTIOCatalog
import GTIOIngest
import GTIOSimulation
import GTIOStore
import GTIOStoreSQLite
import GTIOTestSupport
import Testing

/// One-shot commands answer from the read models kept in the store: they fold nothing when the
/// store is up to date, and a store whose models lag (a writer killed between committing events
/// and updating the models) is caught up by the next command, exactly.
@Suite(.serialized) struct StoredAnswersTests {
    let folder = TemporaryDirectory()
    var store: String { folder.file("log.gtio") }

    /// A seeded community of `events` events as a JSON Lines file.
    func demo(_ events: Int, seed: UInt64) throws -> String {
        var bytes: [UInt8] = []
        try DemoCommunity(seed: seed, eventCount: events).write { bytes += $0 }
        return folder.write("demo-\(seed).jsonl", String(decoding: bytes, as: UTF8.self))
    }

    /// Runs `gtio arguments…` on the store and returns its output, how many events it scanned
    /// and how many saved fold states it read back (each stands for folding the log to its seq).
    func run(_ arguments: [String]) throws -> (output: GTIOBinary.Output, scanned: Int, states: Int) {
        let result = try GTIOBinary.run(arguments + ["--store", store], environment: ["GTIO_SCAN_STATS": "1"])
        func count(_ prefix: String) -> Int {
            let line = result.stderr.split(separator: "\n").last { $0.hasPrefix(prefix) }
            return Int(line.map { $0.dropFirst(prefix.count) } ?? "") ?? -1
        }
        return (result, count("gtio: events scanned: "), count("gtio: fold states read: "))
    }

    @Test func queriesOnAnUpToDateStoreScanNoEvent() throws {
        let ingest = try run(["ingest", try demo(8_000, seed: 3)])
        #expect(ingest.output.status == 0)
        #expect(ingest.scanned > 0, "ingest brings the read models up to date: \(ingest.output)")
        let user = try #require(try run(["looks", "top", "--limit", "1", "--format", "csv"]).output.stdout
            .split(whereSeparator: \.isNewline).dropFirst().first?.split(separator: ",")[2]).description
        let post = try #require(try run(["looks", "new", "--limit", "1", "--format", "csv"]).output.stdout
            .split(whereSeparator: \.isNewline).dropFirst().first?.split(separator: ",")[1]).description
        // Days outside the log: before it, in the month after its last day (whose WAU and MAU still
        // count the users active before), and past that month.
        let lastDate = try #require(try run(["stats", "--format", "csv"]).output.stdout
            .split(whereSeparator: \.isNewline).dropFirst().first?.split(separator: ",").first).description
        let last = try #require(Timestamp(date: lastDate)).day
        let outside = ["2000-01-01", Timestamp.dateString(ofDay: last + 10), Timestamp.dateString(ofDay: last + 40)]
        let queries: [[String]] = [
            ["looks", "popular", "--limit", "10"], ["looks", "wear-it"], ["verdict", post], ["verdicts"],
            ["followers", user], ["following", user], ["suggest", user], ["suggest", "nobody", "--page", "2"],
            ["flags"], ["stats"], ["anomalies"], ["decisions"], ["-c", "looks top --limit 3"],
        ] + outside.map { ["stats", "--date", $0, "--format", "csv"] }
        for query in queries {
            let (output, scanned, states) = try run(query)
            #expect(output.status == 0, "\(query): \(output.stderr)")
            #expect(scanned == 0, "\(query) scanned \(scanned) events")
            #expect(states == 0, "\(query) read the fold state back")
        }
        // Those days' answers are a fold's.
        for date in outside {
            let stored = try run(["stats", "--date", date, "--format", "csv"]).output.stdout
            #expect(stored == (try run(["stats", "--date", date, "--format", "csv", "--at-seq", "1000000000"]).output.stdout))
        }
        let after = try run(["stats", "--date", outside[1], "--format", "csv"]).output.stdout
        let header = after.split(whereSeparator: \.isNewline)[0].split(separator: ","), row = after.split(whereSeparator: \.isNewline)[1].split(separator: ",")
        #expect(header[1...3] == ["dau", "wau", "mau"] && row[1] == "0" && row[3] != "0", "the month after the last day still has a MAU: \(after)")
    }

    @Test func modelsLeftBehindByAKilledWriterAreCaughtUpExactlyByTheNextQuery() throws {
        #expect(try run(["ingest", try demo(6_000, seed: 4)]).output.status == 0)
        // What a writer killed after committing its events and before updating the models leaves.
        let log = try SQLiteStore(path: store)
        let appended = try Ingestor().ingest([IngestSource(argument: try demo(7_000, seed: 5))], into: log)
        #expect(appended.total.appended > 1_000)
        let caughtUp = try run(["looks", "popular", "--limit", "0", "--format", "csv"])
        #expect(caughtUp.output.status == 0)
        #expect(caughtUp.scanned > 0, "the lagging models are caught up")
        let again = try run(["looks", "popular", "--limit", "0", "--format", "csv"])
        #expect(again.scanned == 0)
        // The same answer folded afresh from the whole log, and the tables equal to a rebuild.
        let folded = try run(["looks", "popular", "--limit", "0", "--format", "csv", "--at-seq", "1000000000"])
        #expect(folded.output.stdout == caughtUp.output.stdout)
        #expect(caughtUp.output.stdout.split(whereSeparator: \.isNewline).count > 50)
        let check = try run(["rebuild", "--check"])
        #expect(check.output.status == 0, "\(check.output.stdout)\(check.output.stderr)")
    }

    @Test func tablesOfAnotherDefinitionAreRebuiltSayingSo() throws {
        #expect(try run(["ingest", try demo(3_000, seed: 6)]).output.status == 0)
        let expected = try run(["looks", "top", "--format", "csv"]).output.stdout
        // As an older gtio would have left them: another definition, and a table this one lacks.
        let queue = try DatabaseQueue(path: store + "-tables")
        try queue.write { db in
            try db.execute(sql: "UPDATE rm_meta SET value = 1 WHERE key = 'schema'")
            try db.execute(sql: "CREATE TABLE rm_old (x)")
        }
        try queue.close()
        let status = try run(["status"]).output.stdout
        #expect(status.contains("read model   posts         at seq 2992, another definition\n"), "\(status)")
        #expect(status.contains("read models  written by another definition (version 1; this gtio's is "))
        let json = try JSONSerialization.jsonObject(with: Data(try run(["status", "--format", "json"]).output.stdout.utf8)) as! [String: Any]
        #expect(json["read_models_version"] as? Int == 1)
        #expect((json["read_models"] as! [[String: Any]]).allSatisfy { $0["current"] as? Bool == false })
        let check = try run(["rebuild", "--check"])
        #expect(check.output.status == 1)
        #expect(check.output.stdout.contains("another definition (version 1, this gtio's is"))
        let answer = try run(["looks", "top", "--format", "csv"])
        #expect(answer.output.stderr.contains("read models: their definition changed (version 1 → "))
        #expect(answer.output.stdout == expected)
        #expect(try run(["rebuild", "--check"]).output.status == 0)
        #expect(try run(["status"]).output.stdout.contains("read model   posts         at seq 2992, up to date\n"))
        let tables = try DatabaseQueue(path: store).read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE name = 'rm_old'") }
        #expect(tables.isEmpty, "every rm_ table of the old definition is dropped")
    }

    @Test func aReadCommandNeverCreatesAStore() throws {
        let output = try run(["looks"]).output
        #expect(output.status == 2)
        #expect(output.stderr.contains("no store at"))
        #expect(!FileManager.default.fileExists(atPath: store))
        // Nor of an empty file (touch events.gtio), which SQLite would take for an empty database.
        #expect(FileManager.default.createFile(atPath: store, contents: Data()))
        let empty = try run(["looks"]).output
        #expect(empty.status == 2 && empty.stderr.contains("no store at"), "\(empty.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: (store as NSString).deletingLastPathComponent)
            .filter { $0.hasPrefix((store as NSString).lastPathComponent) } == [(store as NSString).lastPathComponent])
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)).isEmpty)
    }
}
