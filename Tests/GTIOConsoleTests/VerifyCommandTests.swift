import Foundation
import GTIOSimulation
import GTIOTestSupport
import Testing

/// Tampering with a copy of a store through the sqlite3 shell, and `verify` finding it.
@Suite struct VerifyCommandTests {
    let folder = TemporaryDirectory()

    /// A store of 3,000 demo events, copied for each case.
    func store(_ name: String) throws -> String {
        let original = folder.file("original.gtio")
        if !FileManager.default.fileExists(atPath: original) {
            var bytes: [UInt8] = []
            try DemoCommunity(seed: 8, eventCount: 3_000).write { bytes += $0 }
            let file = folder.write("demo.jsonl", bytes: bytes)
            #expect(try GTIOBinary.run(["ingest", file, "--store", original, "--batch-size", "500"]).status == 0)
            _ = try GTIOBinary.run(["-c", "status", "--store", original])  // checkpoint the WAL into the file
        }
        let copy = folder.file(name)
        try FileManager.default.copyItem(atPath: original, toPath: copy)
        return copy
    }

    func shell(_ path: String, _ sql: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [path, sql]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(sql)")
    }

    @Test func anIntactLogVerifies() throws {
        let result = try GTIOBinary.run(["verify", "--store", try store("intact.gtio")])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("verified 2"))
        #expect(result.stdout.contains("the log is intact (chain head "))
    }

    @Test(arguments: [
        ("DROP TRIGGER events_no_update; UPDATE events SET user = 'mallory' WHERE seq = 1234",
         "the log is not intact at seq 1234: changed: its content does not match the hash chain"),
        ("DROP TRIGGER events_no_update; UPDATE events SET original = replace(original, '\"at\"', '\"at\" ') WHERE seq = 77",
         "the log is not intact at seq 77: changed: its content does not match the hash chain"),
        ("DROP TRIGGER events_no_delete; DELETE FROM events WHERE seq = 500",
         "the log is not intact at seq 500: missing: the log jumps from seq 499 to 501"),
        ("DROP TRIGGER events_no_delete; DELETE FROM events WHERE seq > 2900",
         "the log is not intact at seq 2901: missing: batches appended up to seq"),
        ("DROP TRIGGER events_append; INSERT INTO events (seq, id, type, at, recorded, v, original, batch) VALUES (-1, 'x', 'track', 0, 0, 1, '{}', 1)",
         "the log is not intact at seq -1: inserted: no event is ever appended at a seq below 1"),
        ("DROP TRIGGER events_no_update; UPDATE events SET at = at + 1 WHERE seq = 2000",
         "the log is not intact at seq 2000: changed: its content does not match the hash chain"),
        ("DROP TRIGGER event_lists_no_update; UPDATE event_lists SET user = 'someone' WHERE rowid IN (SELECT rowid FROM event_lists LIMIT 1)",
         "the log is not intact at seq "),
    ])
    func tamperingIsFoundAtTheFirstBadSeq(sql: String, message: String) throws {
        let path = try store("tampered.gtio")
        try shell(path, sql.replacingOccurrences(of: "rowid IN (SELECT rowid FROM event_lists LIMIT 1)", with: "seq = (SELECT MIN(seq) FROM event_lists)"))
        let result = try GTIOBinary.run(["verify", "--store", path])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("gtio: " + message), "\(result.stderr)")
        // The guard taken away first is named beside the event it let through.
        let dropped = sql.prefix { $0 != ";" }.dropFirst("DROP TRIGGER ".count)
        #expect(result.stdout.contains("guard: the trigger \(dropped) on "), "\(result.stdout)")
    }

    @Test func aGuardTakenAwayFailsTheCheckUntilItIsMadeAgain() throws {
        let path = try store("unguarded.gtio")
        // A guard redefined to refuse nothing, under its own name: the events are untouched.
        try shell(path, """
            DROP TRIGGER events_no_delete;
            CREATE TRIGGER events_no_delete BEFORE DELETE ON events BEGIN SELECT 1; END;
            """)
        let found = try GTIOBinary.run(["verify", "--store", path])
        #expect(found.status == 1)
        #expect(found.stdout.contains("the log is intact (chain head "))
        #expect(found.stdout.hasSuffix("""
            guard: the trigger events_no_delete on events is not as gtio makes it \
            (it refuses: the event log is append-only: events cannot be deleted)

            """), "\(found.stdout)")
        #expect(found.stderr == """
            gtio: the log's events are intact, but one of its append-only guards is not as gtio makes them: \
            someone with write access changed the store's schema (gtio verify --restore-guards makes them again)

            """)

        let mended = try GTIOBinary.run(["verify", "--restore-guards", "--store", path])
        #expect(mended.status == 0, "\(mended.stderr)")
        #expect(mended.stdout.hasPrefix("mended: the trigger events_no_delete on events is not as gtio makes it"))
        #expect(!mended.stdout.contains("guard:"))
        let again = Process()
        again.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        again.arguments = [path, "DELETE FROM events WHERE seq = 1"]
        again.standardError = Pipe()
        try again.run()
        again.waitUntilExit()
        #expect(again.terminationStatus != 0)
        #expect(try GTIOBinary.run(["verify", "--store", path]).status == 0)
    }

    @Test func restoringGuardsNeedsAStoreThere() throws {
        let result = try GTIOBinary.run(["verify", "--restore-guards", "--store", folder.file("none.gtio")])
        #expect(result.status == 2)
        #expect(!FileManager.default.fileExists(atPath: folder.file("none.gtio")))
    }
}
