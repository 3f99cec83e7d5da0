import Foundation
import GTIOSimulation
import GTIOStore
import GTIOTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `gtio copy` with the real binary, from an SQLite file into every backend and back: the same
/// log to the byte, the same signed heads, resumable after `kill -9`.
@Suite struct CopyCommandTests {
    let folder = TemporaryDirectory()

    func demo(_ name: String, events: Int, seed: UInt64) throws -> String {
        var bytes: [UInt8] = []
        try DemoCommunity(seed: seed, eventCount: events).write { bytes += $0 }
        return folder.write(name, String(decoding: bytes, as: UTF8.self))
    }

    /// Everything of the log that a copy must keep, as CSV: events with their batches and times
    /// (the hash chain covers the rest), batches, signatures and the quarantine.
    func dump(_ store: String) throws -> String {
        try [
            "SELECT seq, id, recorded, batch, hex(hash) AS hash FROM events ORDER BY seq",
            "SELECT batch, source, first_line, last_line, first_seq, last_seq, read, appended, duplicates, rejected, recorded FROM batches ORDER BY batch",
            "SELECT batch, last_seq, hex(head) AS head, hex(signature) AS signature FROM batch_signatures ORDER BY batch",
            "SELECT entry, source, line, reason, status, seq FROM quarantine ORDER BY entry",
        ].map { sql in
            // PostgreSQL spells hex() as encode(…, 'hex'), in capitals as SQLite does.
            let portable = store.hasPrefix("postgresql://")
                ? sql.replacingOccurrences(of: #"hex\((\w+)\)"#, with: "upper(encode($1, 'hex'))", options: .regularExpression) : sql
            let answer = try GTIOBinary.run(["sql", portable, "--limit", "0", "--format", "csv", "--store", store])
            #expect(answer.status == 0, "\(answer.stderr)")
            return answer.stdout
        }.joined(separator: "\n")
    }

    /// A signed SQLite store of two ingests (one line rejected), and the signing key's public half.
    func signedSource(events: Int = 4_000, batchSize: Int = 700) throws -> (store: String, key: String) {
        let keyFile = folder.file("signing.key")
        let made = try GTIOBinary.run(["keys", "new", "--out", keyFile])
        #expect(made.status == 0, "\(made.stderr)")
        let key = try #require(made.stdout.split(whereSeparator: \.isNewline).first { $0.hasPrefix("ed25519:") }).description
        let store = folder.file("source.gtio")
        let environment = ["GTIO_SIGNING_KEY": keyFile]
        let first = try demo("first.jsonl", events: events, seed: 51)
        #expect(try GTIOBinary.run(["ingest", first, "--store", store, "--batch-size", "\(batchSize)"], environment: environment).status == 0)
        let second = folder.write("second.jsonl", (try String(contentsOfFile: try demo("more.jsonl", events: 300, seed: 52), encoding: .utf8)) + "{\"not\": \"an event\"}\n")
        #expect(try GTIOBinary.run(["ingest", second, "--store", store], environment: environment).status == 3)
        return (store, key)
    }

    @Test(arguments: StoreBackend.all)
    func aCopyHoldsTheSameLogAndSignedHeadsAndCopiesBack(_ backend: StoreBackend) throws {
        let (source, key) = try signedSource()
        let destination = try backend.location(in: folder)
        let copied = try GTIOBinary.run(["copy", "--from", source, "--to", destination])
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(copied.stdout.contains("copied 7 batches, 4291 events"), "\(copied.stdout)")
        #expect(copied.stdout.contains("verified both logs: "), "\(copied.stdout)")
        // PostgreSQL holds its indexes to the rows only through an extension this database lacks.
        #expect(copied.stdout.contains("not checked on postgresql://")
                == destination.hasPrefix("postgresql://"), "\(copied.stdout)")
        #expect(copied.stdout.contains(": the log's indexes against its rows: this database lacks the amcheck extension")
                == destination.hasPrefix("postgresql://"), "\(copied.stdout)")
        #expect(try dump(destination) == dump(source))

        // The same head, proven with the same key, on both.
        let verified = try [source, destination].map { try GTIOBinary.run(["verify", "--key", key, "--store", $0]) }
        #expect(verified.allSatisfy { $0.status == 0 })
        let heads = verified.map { run in
            run.stdout.split(separator: "\n").first { $0.hasPrefix("verified ") }?.split(separator: "(").last.map(String.init)
        }
        #expect(heads[0] != nil && heads[0] == heads[1])
        #expect(verified[1].stdout.contains("every event is covered by a head signed with key"))

        // Read models answer the same, and a copy back is the same log again.
        for query in [["looks", "popular"], ["flags"]] {
            #expect(try GTIOBinary.run(query + ["--format", "csv", "--store", destination]).stdout
                    == GTIOBinary.run(query + ["--format", "csv", "--store", source]).stdout)
        }
        let back = folder.file("back.gtio")
        #expect(try GTIOBinary.run(["copy", "--from", destination, "--to", back]).status == 0)
        #expect(try dump(back) == dump(source))
        // Quarantined lines kept as the append path keeps them: text when UTF-8.
        let lines = ["sql", "SELECT entry, typeof(original), original FROM quarantine ORDER BY entry", "--format", "csv", "--store"]
        #expect(try GTIOBinary.run(lines + [back]).stdout == GTIOBinary.run(lines + [source]).stdout)
        #expect(try GTIOBinary.run(lines + [back]).stdout.contains(",text,"))

        // Nothing new: a second run copies nothing and says where it went on from.
        let again = try GTIOBinary.run(["copy", "--from", source, "--to", destination])
        #expect(again.status == 0)
        #expect(again.stdout.hasPrefix("copied 0 batches, 0 events"), "\(again.stdout)")
        #expect(again.stdout.contains("(resumed after batch 7)"), "\(again.stdout)")
    }

    @Test(arguments: StoreBackend.all)
    func aCopyKilledPartWayGoesOnFromWhereItStopped(_ backend: StoreBackend) throws {
        let (source, _) = try signedSource(events: 20_000, batchSize: 100)
        let destination = try backend.location(in: folder)
        let copy = try GTIOBinary.start(["copy", "--from", source, "--to", destination, "--transaction-size", "1"])
        defer { if copy.isRunning { kill(copy.processIdentifier, SIGKILL) } }
        let store = try backend.open(in: folder)
        #expect(try eventually(60) { try store.lastBatch() >= 5 })
        kill(copy.processIdentifier, SIGKILL)
        copy.waitUntilExit()
        let stopped = try store.lastBatch()
        #expect(stopped >= 5 && stopped < 201, "the copy ended before it could be killed")

        let resumed = try GTIOBinary.run(["copy", "--from", source, "--to", destination])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stdout.contains("(resumed after batch "), "\(resumed.stdout)")
        #expect(try dump(destination) == dump(source))
    }

    @Test(arguments: StoreBackend.all)
    func aDestinationWithAnotherLogIsRefused(_ backend: StoreBackend) throws {
        let (source, _) = try signedSource(events: 1_000)
        let destination = try backend.location(in: folder)
        #expect(try GTIOBinary.run(["ingest", try demo("other.jsonl", events: 500, seed: 53), "--store", destination]).status == 0)
        let before = try dump(destination)
        let refused = try GTIOBinary.run(["copy", "--from", source, "--to", destination])
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("gtio: cannot copy into \(destination): its batch 1 is not \(source)'s"), "\(refused.stderr)")
        #expect(try dump(destination) == before)

        let missing = try GTIOBinary.run(["copy", "--from", folder.file("nowhere.gtio"), "--to", folder.file("new.gtio")])
        #expect(missing.status == 2)
        #expect(missing.stderr.hasPrefix("gtio: no store at "), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("new.gtio")))
    }
}
