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
    func aWriterWaitsForTheCatchUpInProgressAndFoldsNothingItDid(_ backend: StoreBackend) throws {
        let files = try [(61, 2_000), (62, 2_000)].map { try demo("t\($0.0).jsonl", events: $0.1, seed: UInt64($0.0)) }
        let plain = folder.file("plain-turn.gtio")
        #expect(try GTIOBinary.run(["ingest"] + files + ["--store", plain]).status == 0)
        let end = try #require(Int64(try GTIOBinary.run(["status", "--format", "json", "--store", plain]).stdout
            .firstMatch(of: /"last_seq" *: *(\d+)/)?.1 ?? ""))

        let location = try backend.location(in: folder)
        #expect(try GTIOBinary.run(["ingest", files[0], "--store", location]).status == 0)
        let store = try backend.open(in: folder)
        let other = try OtherWriter(backend, store: store, location: location, folder: folder)
        let ingest = GTIOBinary.launch(["ingest", files[1], "--store", location], environment: ["GTIO_SCAN_STATS": "1"])
        #expect(try eventually(30) { try store.lastSeq() == end })
        // Past the second after which the waiting writer says what it waits for.
        pause(1.5)
        try other.catchUpAndLetGo()
        #expect(try StoredReadModels.current(store) != nil, "the other writer left the tables behind the log")

        let ingested = try ingest()
        #expect(ingested.status == 0, "\(ingested.stderr)")
        #expect(ingested.stderr.contains("waiting for another process to finish catching the read models up"), "\(ingested.stderr)")
        #expect(ingested.stderr.contains("gtio: events scanned: 0"), "\(ingested.stderr)\(ingested.stdout)")
        #expect(ingested.stderr.contains("gtio: fold states read: 0"), "\(ingested.stderr)\(ingested.stdout)")
        #expect(try GTIOBinary.run(["rebuild", "--check", "--store", location]).status == 0)
        for query in [["looks", "popular", "--limit", "0"], ["verdicts"], ["stats"]] {
            let asked = query + ["--format", "csv"]
            #expect(try GTIOBinary.run(asked + ["--store", location]).stdout == (try GTIOBinary.run(asked + ["--store", plain])).stdout)
        }
    }
}

/// Another writer holding a store's catch-up turn until told to catch the tables up and let go.
///
/// On SQLite it is another process: `flock(1)` holds the turn's lock file (`docs/STORE.md`) and
/// runs `gtio project` once told to. A turn held by the test process itself would rest on one
/// descriptor among the hundreds its other suites open and close at the same time. On
/// PostgreSQL the turn is an advisory lock on a connection of this process.
private struct OtherWriter {
    private let finish: () throws -> Void

    init(_ backend: StoreBackend, store: any EventStore, location: String, folder: TemporaryDirectory) throws {
        guard backend.name == StoreBackend.sqlite.name else {
            let turn = try #require(try store.lead(CatchUpTurn.role))
            finish = {
                _ = try ReadModelEngine(store: store).catchUp()
                turn.release()
            }
            return
        }
        let held = folder.file("turn-held"), go = folder.file("turn-go")
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        let script = #": > "$2"; while [ ! -e "$3" ]; do sleep 0.05; done; exec "$0" project --quiet --store "$1""#
        holder.arguments = ["--exclusive", location + "-\(CatchUpTurn.role).lock", "/bin/sh", "-c", script, GTIOBinary.path, location, held, go]
        holder.standardInput = FileHandle.nullDevice
        holder.standardOutput = FileHandle.nullDevice
        try holder.run()
        #expect(eventually(30) { FileManager.default.fileExists(atPath: held) }, "flock(1) never took the turn")
        finish = {
            _ = FileManager.default.createFile(atPath: go, contents: nil)
            holder.waitUntilExit()
            #expect(holder.terminationStatus == 0, "gtio project, holding the turn, failed")
        }
    }

    /// Brings the tables to the end of the log, then gives up the turn.
    func catchUpAndLetGo() throws { try finish() }
}
