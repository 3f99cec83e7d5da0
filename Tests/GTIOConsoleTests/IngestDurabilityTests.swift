import Foundation
import GRDB
import GTIOSimulation
import GTIOStore
import GTIOStoreSQLite
import GTIOTestSupport
import Testing

/// The log's promises under crashes and concurrency, with real processes on a real store.
@Suite(.serialized) struct IngestDurabilityTests {
    let folder = TemporaryDirectory()

    func demoFile(_ name: String, events: Int, seed: UInt64) throws -> String {
        var bytes: [UInt8] = []
        try DemoCommunity(seed: seed, eventCount: events).write { bytes += $0 }
        return folder.write(name, bytes: bytes)
    }

    func ids(_ store: String) throws -> [String] {
        try DatabaseQueue(path: store).read { try String.fetchAll($0, sql: "SELECT id FROM events ORDER BY seq") }
    }

    /// The log ends at a batch boundary: every batch row's events are all there, and no event lacks its batch.
    func expectWholeBatches(_ store: String) throws {
        try DatabaseQueue(path: store).read { db in
            let lastSeq = try Int.fetchOne(db, sql: "SELECT IFNULL(MAX(seq), 0) FROM events")!
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM events")! == lastSeq, "a gap in seq")
            let appended = try Int.fetchOne(db, sql: "SELECT IFNULL(SUM(appended), 0) FROM batches")!
            #expect(appended == lastSeq, "events without a committed batch, or a batch without its events")
            let mismatched = try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM batches b
                WHERE b.appended != (SELECT COUNT(*) FROM events e WHERE e.batch = b.batch)
                """)!
            #expect(mismatched == 0)
        }
    }

    @Test func aDamagedFoldStateIsSetAsideSaidAndTheAnswersStayExact() throws {
        let store = folder.file("state.gtio")
        let first = try demoFile("first.jsonl", events: 3_000, seed: 5)
        #expect(try GTIOBinary.run(["ingest", first, "--store", store]).status == 0)
        // Someone flips a byte in the middle of the saved state.
        try DatabaseQueue(path: store + "-tables").write { db in
            try db.execute(sql: "UPDATE rm_fold_state SET bytes = zeroblob(length(bytes)) WHERE part = 1")
        }
        let more = try demoFile("more.jsonl", events: 3_500, seed: 5)
        let ingest = try GTIOBinary.run(["ingest", more, "--store", store])
        #expect(ingest.status == 0)
        #expect(ingest.stderr.contains("read models: the saved fold state at seq 2"))
        #expect(ingest.stderr.contains("fails its checksum; folded the log instead (saving a new one)"))
        let check = try GTIOBinary.run(["rebuild", "--check", "--store", store])
        #expect(check.status == 0, "\(check.stdout)")
        #expect(!check.stdout.contains("difference"))
        #expect(check.stdout.contains("fold state (seq "), "the damaged state was replaced: \(check.stdout)")
    }

    @Test func killedAtAnyMomentThenRerunGivesExactlyTheCleanLog() throws {
        let file = try demoFile("demo.jsonl", events: 120_000, seed: 3)
        let clean = folder.file("clean.gtio")
        #expect(try GTIOBinary.run(["ingest", file, "--store", clean, "--batch-size", "2000"]).status == 0)
        let expected = try ids(clean)
        var interrupted = 0
        for (attempt, delay) in [0.15, 0.4, 0.8].enumerated() {
            let store = folder.file("crash-\(attempt).gtio")
            let process = try GTIOBinary.start(["ingest", file, "--store", store, "--batch-size", "2000"])
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if FileManager.default.fileExists(atPath: store) {
                try expectWholeBatches(store)
                if try ids(store).count < expected.count { interrupted += 1 }
            }
            #expect(try GTIOBinary.run(["ingest", file, "--store", store, "--batch-size", "2000"]).status == 0)
            try expectWholeBatches(store)
            #expect(try ids(store) == expected, "attempt \(attempt) after a kill at \(delay) s")
        }
        #expect(interrupted > 0, "no kill landed mid-ingest: the test proved nothing")
    }

    @Test func twoIngestsAtOnceBothFinishWithNoGapAndNoDuplicate() throws {
        let first = try demoFile("one.jsonl", events: 40_000, seed: 11)
        let second = try demoFile("two.jsonl", events: 40_000, seed: 12)
        let store = folder.file("shared.gtio")
        // Create the store first so both processes open an existing one.
        _ = try SQLiteStore(path: store)
        let processes = try [first, second, first].map {
            try GTIOBinary.start(["ingest", $0, "--store", store, "--batch-size", "1000"])
        }
        processes.forEach { $0.waitUntilExit() }
        #expect(processes.map(\.terminationStatus) == [0, 0, 0])
        try expectWholeBatches(store)
        let all = try ids(store)
        #expect(Set(all).count == all.count)
        // Each file's distinct ids, appended exactly once whatever the interleaving.
        let clean = folder.file("clean.gtio")
        try GTIOBinary.run(["ingest", first, second, "--store", clean])
        #expect(Set(all) == Set(try ids(clean)))
    }
}
