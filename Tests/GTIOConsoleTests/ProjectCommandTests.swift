import Foundation
import GRDB
import GTIOSimulation
import GTIOStore
import GTIOStoreSQLite
import GTIOTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `gtio project --follow` with the real binary on every backend: one leader, takeover after
/// `kill -9`, read models equal to a rebuild and to a store that never had a projector.
@Suite(.serialized) struct ProjectCommandTests {
    let folder = TemporaryDirectory()

    func demo(_ name: String, events: Int, seed: UInt64) throws -> String {
        var bytes: [UInt8] = []
        try DemoCommunity(seed: seed, eventCount: events).write { bytes += $0 }
        return folder.write(name, String(decoding: bytes, as: UTF8.self))
    }

    /// The lowest read-model checkpoint and the log's end.
    func progress(_ store: any EventStore) throws -> (models: Int64, log: Int64) {
        let answer = try store.readOnlySQL("SELECT MIN(seq) FROM checkpoints WHERE name LIKE 'read_model.%'")
        return (answer.rows.first?.first?.int64 ?? 0, try store.lastSeq())
    }

    /// A projector started on `location` once it leads, then paused (SIGSTOP): it still leads but
    /// applies nothing, so what is appended next waits for it. The caller kills it.
    func pausedLeader(on location: String, _ store: any EventStore) throws -> Process {
        let projector = try GTIOBinary.start(["project", "--follow", "--store", location])
        do {
            #expect(try eventually(30) { try store.isLed("projector") })
        } catch {
            kill(projector.processIdentifier, SIGKILL)
            throw error
        }
        kill(projector.processIdentifier, SIGSTOP)
        return projector
    }

    @Test(arguments: StoreBackend.all)
    func aFollowerKeepsTheReadModelsCurrentAndAnotherTakesOverAfterKill9(_ backend: StoreBackend) throws {
        let files = try [(41, 3_000), (42, 3_000), (43, 3_000)].map { try demo("p\($0.0).jsonl", events: $0.1, seed: UInt64($0.0)) }
        let location = try backend.location(in: folder)
        #expect(try GTIOBinary.run(["ingest", files[0], "--store", location]).status == 0)
        let store = try backend.open(in: folder)

        #expect(try GTIOBinary.run(["status", "--store", location]).stdout.contains(
            "projector    none leading: each writer brings the read models up to date itself\n"))
        let first = try GTIOBinary.start(["project", "--follow", "--store", location])
        defer { if first.isRunning { kill(first.processIdentifier, SIGKILL) } }
        #expect(try eventually(30) { try store.isLed("projector") })
        #expect(try GTIOBinary.run(["status", "--store", location]).stdout.contains(
            "projector    leading: it applies each commit (gtio project --follow, or a gtio serve)\n"))
        #expect(try GTIOBinary.run(["status", "--format", "json", "--store", location]).stdout.contains("\"projector_leads\":true"))
        let second = try GTIOBinary.start(["project", "--follow", "--store", location])
        defer { if second.isRunning { kill(second.processIdentifier, SIGKILL) } }

        // With a projector leading, ingest leaves the read models to it, and it applies them.
        let ingested = try GTIOBinary.run(["ingest", files[1], "--store", location])
        #expect(ingested.stdout.contains("read models: left to the projector that leads"), "\(ingested.stdout)")
        #expect(try eventually(30) { let p = try progress(store); return p.models == p.log })

        // The leader killed: the other takes over and applies what comes next.
        kill(first.processIdentifier, SIGKILL)
        first.waitUntilExit()
        #expect(try eventually(30) { try store.isLed("projector") })
        #expect(try GTIOBinary.run(["ingest", files[2], "--store", location]).status == 0)
        #expect(try eventually(30) { let p = try progress(store); return p.models == p.log })
        #expect(try progress(store).log > 8_000)

        kill(second.processIdentifier, SIGTERM)
        second.waitUntilExit()
        #expect(second.terminationStatus == 0)
        #expect(try !store.isLed("projector"))
        #expect(try GTIOBinary.run(["rebuild", "--check", "--store", location]).status == 0)

        // The same answers as a store whose ingests brought their read models up themselves.
        let plain = folder.file("plain.gtio")
        #expect(try GTIOBinary.run(["ingest"] + files + ["--store", plain]).status == 0)
        for query in [["looks", "popular"], ["verdicts"], ["stats"], ["flags"]] {
            let followed = try GTIOBinary.run(query + ["--format", "csv", "--store", location])
            #expect(followed.status == 0)
            #expect(followed.stdout == (try GTIOBinary.run(query + ["--format", "csv", "--store", plain])).stdout, "\(query)")
        }
    }

    /// A server restart ends every session: the projector's lead goes with its connection, and
    /// it takes the lead again on a new one instead of waiting for ever on the lost one.
    @Test(.enabled(if: StoreBackend.postgresServer != nil, "GTIO_TEST_POSTGRES names no server"))
    func aProjectorWhoseSessionsTheServerEndedLeadsAgain() throws {
        let files = try [(81, 1_000), (82, 1_000)].map { try demo("r\($0.0).jsonl", events: $0.1, seed: UInt64($0.0)) }
        let location = try StoreBackend.postgres.location(in: folder)
        #expect(try GTIOBinary.run(["ingest", files[0], "--store", location]).status == 0)
        let log = folder.file("projector81.log")
        let projector = try GTIOBinary.start(["project", "--follow", "--store", location], output: log, withErrors: true)
        defer { if projector.isRunning { kill(projector.processIdentifier, SIGKILL) } }
        #expect(try eventually(30) { try StoreBackend.postgres.open(in: folder).isLed("projector") })

        try StoreBackend.postgres.tamper(try StoreBackend.postgres.open(in: folder), sqlite: [], postgres: [
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
        ])
        let store = try StoreBackend.postgres.open(in: folder)
        let output = { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        // It says what it lost (the lead, or a catch-up under way when the sessions ended: then
        // it had not said it led yet), and leads again after.
        #expect(eventually(30) {
            let lines = output().split(separator: "\n")
            guard let lost = lines.lastIndex(where: { $0.hasPrefix("gtio: lost the lead") || $0.hasPrefix("gtio: the read models could not catch up") })
            else { return false }
            return lines[lost...].contains { $0.hasPrefix("leading the read models") }
        }, "\(output())")
        let ingested = try GTIOBinary.run(["ingest", files[1], "--store", location])
        #expect(ingested.stdout.contains("read models: left to the projector that leads"), "\(ingested.stdout)")
        #expect(try eventually(30) { let p = try progress(store); return p.models == p.log })
        kill(projector.processIdentifier, SIGTERM)
        projector.waitUntilExit()
        #expect(projector.terminationStatus == 0)
        #expect(try GTIOBinary.run(["rebuild", "--check", "--store", location]).status == 0)
    }

    /// A projector taking the lead over tables behind the log says how far it has to go before
    /// it leads, so that a long first catch-up does not pass for a hang.
    @Test(arguments: StoreBackend.all)
    func aProjectorTakingOverLaggingTablesSaysHowFarItHasToGo(_ backend: StoreBackend) throws {
        let files = try [(61, 2_000), (62, 2_000)].map { try demo("l\($0.0).jsonl", events: $0.1, seed: UInt64($0.0)) }
        let location = try backend.location(in: folder)
        #expect(try GTIOBinary.run(["ingest", files[0], "--store", location]).status == 0)
        let store = try backend.open(in: folder)
        // A projector that stops applying, then dies: the second file's events wait for the next.
        let stalled = try pausedLeader(on: location, store)
        defer { if stalled.isRunning { kill(stalled.processIdentifier, SIGKILL) } }
        #expect(try GTIOBinary.run(["ingest", files[1], "--store", location]).stdout.contains("left to the projector"))
        kill(stalled.processIdentifier, SIGKILL)
        stalled.waitUntilExit()
        let lag = try progress(store)
        #expect(lag.models < lag.log)

        let log = folder.file("projector61.log")
        let projector = try GTIOBinary.start(["project", "--follow", "--store", location], output: log)
        defer { if projector.isRunning { kill(projector.processIdentifier, SIGKILL) } }
        let output = { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        #expect(eventually(30) { output().contains("leading the read models") })
        #expect(output().hasPrefix("""
            catching up the read models of \(store.location): at seq \(lag.models), the log at seq \(lag.log) \
            (\(lag.log - lag.models) events to apply)
            leading the read models of \(store.location), at seq \(lag.log)

            """), "\(output())")
        kill(projector.processIdentifier, SIGTERM)
        projector.waitUntilExit()
        #expect(projector.terminationStatus == 0)
    }

    /// Tables an older build defined are rebuilt from the log: the projector says it starts
    /// from seq 0, not from where those tables stood.
    @Test func aProjectorOverTablesOfAnOlderDefinitionSaysItStartsFromTheBeginning() throws {
        let file = try demo("old71.jsonl", events: 2_000, seed: 71)
        let location = folder.file("older.gtio")
        #expect(try GTIOBinary.run(["ingest", file, "--store", location]).status == 0)
        let end = try SQLiteStore(path: location).lastSeq()
        try DatabaseQueue(path: location + "-tables").write { try $0.execute(sql: "UPDATE rm_meta SET value = 1 WHERE key = 'schema'") }
        let log = folder.file("projector71.log")
        let projector = try GTIOBinary.start(["project", "--follow", "--store", location], output: log)
        defer { if projector.isRunning { kill(projector.processIdentifier, SIGKILL) } }
        let output = { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        #expect(eventually(30) { output().contains("leading the read models") })
        #expect(output().hasPrefix("catching up the read models of \(location): at seq 0, the log at seq \(end) (\(end) events to apply)\n"),
                "\(output())")
        kill(projector.processIdentifier, SIGTERM)
        projector.waitUntilExit()
        #expect(try GTIOBinary.run(["rebuild", "--check", "--store", location]).status == 0)
    }

    /// A query that finds the tables behind while a projector leads waits for it, rather than
    /// folding the log and taking the write lock to do the projector's work again.
    @Test(arguments: StoreBackend.all)
    func aQueryWaitsForTheProjectorThatLeads(_ backend: StoreBackend) throws {
        let files = try [(51, 2_000), (52, 2_000)].map { try demo("w\($0.0).jsonl", events: $0.1, seed: UInt64($0.0)) }
        let location = try backend.location(in: folder)
        #expect(try GTIOBinary.run(["ingest", files[0], "--store", location]).status == 0)
        let store = try backend.open(in: folder)
        let projector = try pausedLeader(on: location, store)
        defer { if projector.isRunning { kill(projector.processIdentifier, SIGKILL) } }
        #expect(try GTIOBinary.run(["ingest", files[1], "--store", location]).stdout.contains("left to the projector"))
        #expect(try progress(store).models < progress(store).log)
        let query = GTIOBinary.launch(["looks", "popular", "--format", "csv", "--store", location], environment: ["GTIO_SCAN_STATS": "1"])
        // The query says it waits once it has waited a second: the projector stays paused long
        // enough for that even when the query's own start is slow (a CI running every suite at once).
        pause(3)
        kill(projector.processIdentifier, SIGCONT)
        let answer = try query()
        #expect(answer.status == 0)
        #expect(answer.stderr.contains("waiting for the projector that leads to apply the log through seq \(try store.lastSeq())"), "\(answer.stderr)")
        #expect(answer.stderr.contains("events scanned: 0"), "\(answer.stderr)")
        let plain = folder.file("plain-wait.gtio")
        #expect(try GTIOBinary.run(["ingest"] + files + ["--store", plain]).status == 0)
        #expect(answer.stdout == (try GTIOBinary.run(["looks", "popular", "--format", "csv", "--store", plain])).stdout)
        kill(projector.processIdentifier, SIGTERM)
        projector.waitUntilExit()
    }

    /// With a projector leading, `resolve` checks a decision against the tables it keeps rather
    /// than folding the log (seconds and gigabytes on a large store): it waits for them to reach
    /// the end of the log, and refuses as the fold would.
    @Test(arguments: StoreBackend.all)
    func aDecisionBesideTheProjectorIsCheckedAgainstItsTables(_ backend: StoreBackend) throws {
        func event(_ id: String, _ type: String, _ at: String, _ user: String, _ data: String) -> String {
            #"{"id":"\#(id)","type":"\#(type)","at":"2012-04-23T\#(at)Z","user":"\#(user)","data":\#(data)}"# + "\n"
        }
        let log = event("1", "post.created", "01:00:00", "ann", #"{"post":"p1","kind":"outfit","voting":true}"#)
            + event("2", "review.added", "01:10:00", "bob", #"{"review":"r1","post":"p1","text":"Love it"}"#)
            + event("3", "post.flagged", "02:00:00", "cy", #"{"post":"p1"}"#)
            + event("4", "review.flagged", "02:30:00", "eve", #"{"review":"r1"}"#)
            + event("5", "post.created", "03:00:00", "ann", #"{"post":"p2","kind":"outfit","voting":true}"#)
        let location = try backend.location(in: folder)
        #expect(try GTIOBinary.run(["ingest", folder.write("m.jsonl", log), "--store", location]).status == 0)
        let store = try backend.open(in: folder)
        // A flag the paused projector has not applied: the decision waits for it, and expects it.
        let projector = try pausedLeader(on: location, store)
        defer { if projector.isRunning { kill(projector.processIdentifier, SIGKILL) } }
        let flag = event("6", "post.flagged", "04:00:00", "dee", #"{"post":"p1"}"#)
        let ingested = try GTIOBinary.run(["ingest", "-", "--store", location], input: flag)
        #expect(ingested.stdout.contains("left to the projector"), "\(ingested.stdout)")
        #expect(try progress(store).models == 5)
        let decision = GTIOBinary.launch(
            ["resolve", "post:p1", "remove", "--as", "mod", "--expect", "6", "--at", "2012-04-23T05:00:00Z", "--store", location],
            environment: ["GTIO_SCAN_STATS": "1"])
        // Long enough for a cold binary to start and wait past the second after which it says so.
        pause(3)
        kill(projector.processIdentifier, SIGCONT)
        let decided = try decision()
        #expect(decided.status == 0)
        #expect(decided.stdout == "post:p1: removed by mod (seq 7)\n")
        #expect(decided.stderr.contains("waiting for the projector that leads to apply the log before deciding"), "\(decided.stderr)")
        #expect(decided.stderr.contains("events scanned: 0"), "\(decided.stderr)")

        #expect(try GTIOBinary.run(["ingest", "-", "--store", location],
                                   input: event("8", "post.flagged", "06:00:00", "cy", #"{"post":"p2"}"#)).status == 0)
        let refusals: [(String, String)] = [
            ("post:p1 remove", "post:p1 has no open flags: mod decided it (remove) at 2012-04-23T05:00:00.000Z; nothing appended"),
            ("review:r1 dismiss", "review:r1 has no open flags, so there is nothing to decide; nothing appended"),  // closed with p1
            ("post:p9 remove", "no such item post:p9: nothing with that id was ever created (flags lists the open items)"),
            ("post:p2 dismiss --expect 3", "post:p2 changed since you looked (version 3, now 8 with 1 flagger); look again with item post:p2, nothing appended"),
        ]
        for (words, reason) in refusals {
            let refused = try GTIOBinary.run(["resolve"] + words.split(separator: " ").map(String.init) + ["--as", "mod", "--store", location])
            #expect(refused.status == 1, "\(words)")
            #expect(refused.stderr == "gtio: resolve refused: \(reason)\n", "\(words)")
        }
        #expect(try store.lastSeq() == 8)

        kill(projector.processIdentifier, SIGTERM)
        projector.waitUntilExit()
        #expect(try GTIOBinary.run(["rebuild", "--check", "--store", location]).status == 0)
    }

    @Test func projectOnceBringsLaggingModelsUpAndNeedsAStore() throws {
        let missing = folder.file("missing.gtio")
        let refused = try GTIOBinary.run(["project", "--store", missing])
        #expect(refused.status == 2)
        #expect(refused.stderr.hasPrefix("gtio: no store at \(missing)"))
        #expect(!FileManager.default.fileExists(atPath: missing))

        let file = try demo("once.jsonl", events: 2_000, seed: 44)
        let store = folder.file("once.gtio")
        #expect(try GTIOBinary.run(["ingest", file, "--store", store]).status == 0)
        let answer = try GTIOBinary.run(["project", "--store", store])
        #expect(answer.status == 0)
        #expect(answer.stdout.hasPrefix("read models at seq "), "\(answer.stdout)")
        #expect(answer.stdout.contains("(0 events applied"), "\(answer.stdout)")
    }
}
