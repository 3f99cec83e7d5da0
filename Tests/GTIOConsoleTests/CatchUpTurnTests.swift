import Foundation
import GTIOProjections
import GTIOSimulation
import GTIOStore
import GTIOTestSupport
import Testing

/// Writers take turns catching a store's read models up: one whose events are committed while
/// another process catches the tables up waits for it, then goes on from what it wrote rather
/// than folding the same events again.
@Suite(.serialized) struct CatchUpTurnTests {
    let folder = TemporaryDirectory()

    func demo(_ name: String, events: Int, seed: UInt64) throws -> String {
        var bytes: [UInt8] = []
        try DemoCommunity(seed: seed, eventCount: events).write { bytes += $0 }
        return folder.write(name, String(decoding: bytes, as: UTF8.self))
    }

    @Test(arguments: StoreBackend.all)
    func aWriterWaitsForTheCatchUpInProgressAndFoldsNothingItDid(_ backend: StoreBackend) async throws {
        let files = try [(61, 2_000), (62, 2_000)].map { try demo("t\($0.0).jsonl", events: $0.1, seed: UInt64($0.0)) }
        let plain = folder.file("plain-turn.gtio")
        #expect(try GTIOBinary.run(["ingest"] + files + ["--store", plain]).status == 0)
        let end = try #require(Int64(try GTIOBinary.run(["status", "--format", "json", "--store", plain]).stdout
            .firstMatch(of: /"last_seq" *: *(\d+)/)?.1 ?? ""))

        let location = try backend.location(in: folder)
        #expect(try GTIOBinary.run(["ingest", files[0], "--store", location]).status == 0)
        let store = try backend.open(in: folder)
        // This process takes the turn, as another writer catching the tables up would.
        let turn = try #require(try store.lead(CatchUpTurn.role))
        let ingest = GTIOBinary.launch(["ingest", files[1], "--store", location], environment: ["GTIO_SCAN_STATS": "1"])
        #expect(try eventually(30) { try store.lastSeq() == end })
        // Past the second after which the waiting writer says what it waits for.
        try await Task.sleep(for: .milliseconds(1_500))
        _ = try ReadModelEngine(store: store).catchUp()
        turn.release()

        let ingested = try ingest()
        #expect(ingested.status == 0, "\(ingested.stderr)")
        #expect(ingested.stderr.contains("waiting for another process to finish catching the read models up"), "\(ingested.stderr)")
        #expect(ingested.stderr.contains("gtio: events scanned: 0"), "\(ingested.stderr)")
        #expect(ingested.stderr.contains("gtio: fold states read: 0"), "\(ingested.stderr)")
        #expect(try GTIOBinary.run(["rebuild", "--check", "--store", location]).status == 0)
        for query in [["looks", "popular", "--limit", "0"], ["verdicts"], ["stats"]] {
            let asked = query + ["--format", "csv"]
            #expect(try GTIOBinary.run(asked + ["--store", location]).stdout == (try GTIOBinary.run(asked + ["--store", plain])).stdout)
        }
    }
}
