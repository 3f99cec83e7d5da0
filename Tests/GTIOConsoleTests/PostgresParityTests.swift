import Foundation
import GTIOSimulation
import GTIOStore
import GTIOTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The real `gtio` on a PostgreSQL store answers byte for byte as on an SQLite file of the same
/// input, and the log keeps its guarantees with several processes writing at once, some killed.
/// Runs when `GTIO_TEST_POSTGRES` names a server (`.ci/run` starts one).
@Suite(.serialized, .enabled(if: StoreBackend.postgresServer != nil, "GTIO_TEST_POSTGRES names no server"))
struct PostgresParityTests {
    let folder = TemporaryDirectory()

    func demo(_ name: String, events: Int, seed: UInt64) throws -> String {
        var bytes: [UInt8] = []
        try DemoCommunity(seed: seed, eventCount: events).write { bytes += $0 }
        return folder.write(name, String(decoding: bytes, as: UTF8.self))
    }

    func gtio(_ arguments: [String], store: String) throws -> GTIOBinary.Output {
        try GTIOBinary.run(arguments + ["--store", store])
    }

    /// The first value of the first row of a CSV answer.
    func firstValue(_ arguments: [String], column: Int, store: String) throws -> String {
        let output = try gtio(arguments + ["--format", "csv"], store: store).stdout
        return try #require(output.split(whereSeparator: \.isNewline).dropFirst().first?.split(separator: ",")[column]).description
    }

    @Test func everyCommandAnswersAsOnSQLite() throws {
        let sqlite = try StoreBackend.sqlite.location(in: folder)
        let postgres = try StoreBackend.postgres.location(in: folder)
        let input = try demo("demo.jsonl", events: 9_000, seed: 21)
        // Bad lines and a resent event, quarantined and deduplicated the same way.
        let extra = folder.write("extra.jsonl", "not json\n{\"id\":\"x\"}\n" + (try String(contentsOfFile: input, encoding: .utf8)
            .split(separator: "\n").prefix(3).joined(separator: "\n")) + "\n")
        for store in [sqlite, postgres] {
            #expect(try gtio(["ingest", input], store: store).status == 0)
            #expect(try gtio(["ingest", extra], store: store).status == 3)
        }
        let user = try firstValue(["looks", "top", "--limit", "1"], column: 2, store: sqlite)
        let post = try firstValue(["looks", "new", "--limit", "1"], column: 1, store: sqlite)
        let item = try firstValue(["flags"], column: 0, store: sqlite)
        let product = try firstValue(["products"], column: 1, store: sqlite)
        let place = try firstValue(["places"], column: 1, store: sqlite)
        let queries: [[String]] = [
            ["looks", "popular", "--limit", "25"], ["looks", "new"], ["looks", "top"], ["looks", "wear-it"],
            ["verdicts"], ["verdict", post], ["post", post], ["user", user], ["followers", user], ["following", user],
            ["suggest", user], ["suggest", user, "--page", "2"], ["flags"], ["flaggers"], ["item", item], ["decisions"],
            ["stats"], ["funnel"], ["retention"], ["anomalies"], ["products"], ["places"], ["prices"],
            ["product", product], ["prices", "--by", "brand"], ["looks", "popular", "--place", place],
            ["flags", "--min-flaggers", "2"],
            ["events", "--limit", "20"], ["events", "--user", user], ["quarantine"],
            ["trend", "post.created", "--interval", "week"], ["breakdown", "post.voted", "--by", "verdict"],
            ["top", "brands"], ["paths", "--depth", "3"], ["funnel", "user.signed_up", "post.created", "post.hearted"],
            ["retention", "--start", "user.signed_up", "--return", "post.created", "--interval", "week"],
            ["looks", "popular", "--as-of", "2012-04-25"], ["followers", user, "--at-seq", "3000"],
            ["sql", "SELECT type, COUNT(*) AS n FROM events GROUP BY type ORDER BY type"],
            ["sql", "SELECT user, COUNT(*) AS n FROM events GROUP BY user ORDER BY n DESC, user LIMIT 5"],
            ["-c", "stats --date 2012-04-24"], ["rebuild", "--check"],
        ]
        for query in queries {
            let expected = try gtio(query, store: sqlite)
            let answer = try gtio(query, store: postgres)
            #expect(answer.status == expected.status, "\(query): \(answer.stderr)")
            #expect(answer.stdout.replacingOccurrences(of: "\(postgres)", with: "STORE")
                    == expected.stdout.replacingOccurrences(of: "\(sqlite)", with: "STORE"), "\(query)")
        }
        let verified = try gtio(["verify"], store: postgres).stdout
        #expect(verified.contains("the log is intact"))
        // The server holds its indexes to the rows only through an extension this database lacks.
        #expect(verified.hasSuffix("""
            not checked: the log's indexes against its rows: this database lacks the amcheck extension \
            (CREATE EXTENSION amcheck; docs/POSTGRESQL.md)

            """), "\(verified)")

        // A moderator's decision is an event like any other: the same on both after it.
        for store in [sqlite, postgres] {
            #expect(try gtio(["resolve", item, "remove", "--as", "mod", "--at", "2012-04-30T00:00:00Z"], store: store).status == 0)
        }
        for query in [["flags"], ["item", item], ["decisions"], ["rebuild", "--check"]] {
            #expect(try gtio(query, store: postgres).stdout == gtio(query, store: sqlite).stdout, "\(query) after resolve")
        }

        // The nightly report, file for file.
        for (store, out) in [(sqlite, "a"), (postgres, "b")] {
            #expect(try gtio(["report", "nightly", "--date", "2012-04-25", "--out", folder.file(out)], store: store).status == 0)
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.file("a/2012-04-25")).sorted()
        #expect(files.count >= 5)
        for file in files {
            let expected = try String(contentsOfFile: folder.file("a/2012-04-25/\(file)"), encoding: .utf8)
            let written = try String(contentsOfFile: folder.file("b/2012-04-25/\(file)"), encoding: .utf8)
            #expect(withoutWallClock(written) == withoutWallClock(expected), "\(file)")
        }
    }

    /// `text` with the wall-clock times of ingest (when quarantined lines came in) blanked: the
    /// two stores were filled seconds apart. The log's own times are of 2012.
    func withoutWallClock(_ text: String) -> String {
        text.replacingOccurrences(of: #"20[2-9][0-9]-[0-9]{2}-[0-9]{2}T[0-9:.]+Z"#, with: "(wall clock)", options: .regularExpression)
    }

    /// The test server's log when this machine runs that server (`scripts/pg-local.sh`, which
    /// `.ci/run` uses) and may read it.
    static var serverLog: String? {
        guard let server = StoreBackend.postgresServer, let port = URLComponents(string: server)?.port else { return nil }
        let folder = ProcessInfo.processInfo.environment["GTIO_PG_FOLDER"] ?? "/tmp/gtio-pg-\(port)"
        let path = folder + "/server.log"
        return FileManager.default.isReadableFile(atPath: path) ? path : nil
    }

    /// The lines of the server's `log` about `database`: all of them when its lines do not name
    /// their database (a server not started by `scripts/pg-local.sh`). Other tests run at once,
    /// some killing their processes in the middle of a transaction on purpose.
    static func linesOf(_ database: String, in log: String) -> String {
        let lines = log.split(separator: "\n")
        // "… UTC [pid] LOG:  …" where the prefix has no database; "… UTC [pid] name LOG:  …" where it has.
        let namesNone = lines.contains { $0.contains(#/^\S+ \S+ \S+ \[\d+\] [A-Z]+:  /#) }
        return (namesNone ? lines : lines.filter { $0.contains("] \(database) ") }).joined(separator: "\n")
    }

    /// A process that ends with an answer unread in its socket makes the kernel reset the
    /// connection, which the server logs as an error, once per query: operators would drown in it.
    /// So does one that ends while a connection is being set up.
    @Test(.enabled(if: serverLog != nil, "the test server's log is not on this machine"))
    func queriesEndTheirConnectionsCleanly() throws {
        let postgres = try StoreBackend.postgres.location(in: folder)
        #expect(try gtio(["ingest", try demo("demo.jsonl", events: 3_000, seed: 5)], store: postgres).status == 0)
        let log = try #require(Self.serverLog)
        let start = try FileManager.default.attributesOfItem(atPath: log)[.size] as? Int ?? 0
        let post = try firstValue(["looks", "new", "--limit", "1"], column: 1, store: postgres)
        for query in [["looks", "popular"], ["verdicts"], ["stats"], ["flags"], ["post", post]] {
            #expect(try gtio(query, store: postgres).status == 0, "\(query)")
        }
        // Refused before the store is opened: the connection begun while the words were read
        // (`PostgresStore.beginConnecting`) is ended all the same.
        for _ in 0..<3 { #expect(try gtio(["looks", "popular", "--no-such-option"], store: postgres).status == 2) }
        Thread.sleep(forTimeInterval: 0.5)
        let handle = try #require(FileHandle(forReadingAtPath: log))
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(start))
        let database = String(try #require(URLComponents(string: postgres)).path.dropFirst())
        let written = Self.linesOf(database, in: String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self))
        #expect(!written.contains("reset by peer"), "\(written)")
        #expect(!written.contains("unexpected EOF"), "\(written)")
    }

    @Test func theSavedFoldStateIsKeptOutOfLineUncompressed() throws {
        let postgres = try StoreBackend.postgres.location(in: folder)
        #expect(try gtio(["ingest", try demo("demo.jsonl", events: 500, seed: 5)], store: postgres).status == 0)
        let storage = try gtio(["sql", """
            SELECT attstorage AS storage FROM pg_attribute WHERE attrelid = 'rm_fold_state'::regclass AND attname = 'bytes'
            """, "--format", "csv"], store: postgres)
        #expect(storage.stdout == "storage\r\ne\r\n")
    }

    @Test func readCommandsNeverCreateAStoreInAnEmptyDatabase() throws {
        let postgres = try StoreBackend.postgres.location(in: folder)
        let result = try gtio(["looks", "popular"], store: postgres)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("gtio: no store at postgresql://"))
        #expect(try gtio(["status"], store: postgres).status == 2)
        // Still none: the next read is refused the same way.
        #expect(try gtio(["verify"], store: postgres).status == 2)
    }

    @Test func concurrentIngestersAndTheProjectorKilledLeaveOneGaplessLogEqualToSQLite() throws {
        let files = try [(31, 25_000), (32, 25_000)].map { try demo("d\($0.0).jsonl", events: $0.1, seed: UInt64($0.0)) }
        let postgres = try StoreBackend.postgres.location(in: folder)
        let store = try StoreBackend.postgres.open(in: folder)
        // Two projectors, the first leading; three ingesters of overlapping files at once, and
        // two consoles reading meanwhile.
        let leader = try GTIOBinary.start(["project", "--follow", "--store", postgres])
        defer { if leader.isRunning { kill(leader.processIdentifier, SIGKILL) } }
        #expect(try eventually(30) { try store.isLed("projector") })
        let standby = try GTIOBinary.start(["project", "--follow", "--store", postgres])
        defer { if standby.isRunning { kill(standby.processIdentifier, SIGKILL) } }
        let writers = try [files[0], files[1], files[0]].map {
            try GTIOBinary.start(["ingest", $0, "--store", postgres, "--batch-size", "500"])
        }
        let readers = try (0..<2).map { _ in try GTIOBinary.start(["looks", "popular", "--store", postgres]) }
        Thread.sleep(forTimeInterval: 1.0)
        kill(writers[2].processIdentifier, SIGKILL)
        kill(leader.processIdentifier, SIGKILL)
        (writers + readers).forEach { $0.waitUntilExit() }
        #expect(writers[0].terminationStatus == 0 && writers[1].terminationStatus == 0)
        // The killed one run again finds its events there and adds none twice.
        #expect(try gtio(["ingest", files[0]], store: postgres).status == 0)
        // The standby took over and brought the read models to the end of the log.
        #expect(try eventually(60) {
            let models = try store.readOnlySQL("SELECT MIN(seq) FROM checkpoints WHERE name LIKE 'read_model.%'")
            return models.rows.first?.first?.int64 == (try store.lastSeq())
        })
        kill(standby.processIdentifier, SIGTERM)
        standby.waitUntilExit()
        #expect(standby.terminationStatus == 0)

        let counts = try gtio(["sql", "SELECT COUNT(*), COUNT(DISTINCT id), MIN(seq), MAX(seq) FROM events", "--format", "csv"], store: postgres)
        let values = counts.stdout.split(whereSeparator: \.isNewline).last?.split(separator: ",").map(String.init) ?? []
        #expect(values.count == 4 && values[0] == values[1] && values[2] == "1" && values[3] == values[0], "\(counts.stdout)")
        #expect(try gtio(["verify"], store: postgres).status == 0)
        #expect(try gtio(["rebuild", "--check"], store: postgres).status == 0)

        // The same events as one ingest of both files into SQLite, whatever the interleaving; and
        // read models that do not depend on the order of appends agree with it.
        let sqlite = try StoreBackend.sqlite.location(in: folder)
        #expect(try gtio(["ingest", files[0], files[1]], store: sqlite).status == 0)
        let ids = "SELECT id FROM events ORDER BY id"
        #expect(try gtio(["sql", ids, "--limit", "0", "--format", "csv"], store: postgres).stdout
                == gtio(["sql", ids, "--limit", "0", "--format", "csv"], store: sqlite).stdout)
    }
}

extension PostgresParityTests {
    /// `gtio serve` on a PostgreSQL store: what it collects lands in the shared log, its read API
    /// answers as the command line does, a decision over HTTP is on the record, and only a store
    /// it made is announced as new (a URL is no file to look for: every store was "new").
    @Test func serveCollectsAndAnswersOnPostgres() async throws {
        let empty = try StoreBackend.postgres.location(in: folder)
        let first = try ServerProcess(store: empty, ["--no-auth"], folder: folder.path)
        #expect(first.stop() == 0)
        #expect(first.log.contains("gtio: created a new store at "), "\(first.log)")

        let postgres = try StoreBackend.postgres.location(in: folder)
        let sqlite = try StoreBackend.sqlite.location(in: folder)
        let input = try demo("served.jsonl", events: 3_000, seed: 5)
        let lines = try String(contentsOfFile: input, encoding: .utf8).split(separator: "\n").map(String.init)
        let before = folder.write("before.jsonl", lines.prefix(2_000).joined(separator: "\n") + "\n")
        for store in [postgres, sqlite] { #expect(try gtio(["ingest", before], store: store).status == 0) }
        let server = try ServerProcess(store: postgres, ["--no-auth"], folder: folder.path)
        #expect(!server.log.contains("created a new store"), "\(server.log)")
        #expect(try await server.becomesReady())
        var appended = 0
        for chunk in stride(from: 2_000, to: lines.count, by: 250) {
            let reply = try await server.post(lines[chunk..<min(chunk + 250, lines.count)].joined(separator: "\n"), key: nil)
            #expect(reply.status == 200, "\(reply.text)")
            appended += (reply.json as? [String: Any])?["appended"] as? Int ?? 0
        }
        let after = folder.write("after.jsonl", lines.dropFirst(2_000).joined(separator: "\n") + "\n")
        let ingested = try gtio(["ingest", after, "--format", "json"], store: sqlite)
        #expect(ingested.stdout.contains("\"appended\":\(appended),"), "\(ingested.stdout)")
        #expect(appended > 900)  // the demo resends a few events: those are duplicates
        let count = ["sql", "SELECT COUNT(*) AS n FROM events", "--format", "csv"]
        #expect(try gtio(count, store: postgres).stdout == gtio(count, store: sqlite).stdout)
        // The read API answers from the tables as they stand: once they reach the log's end.
        var lag: Int?
        for _ in 0..<600 where lag != 0 {
            lag = (try await server.request("GET", "/ready").json as? [String: Any])?["lag"] as? Int
            if lag != 0 { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(lag == 0)
        for (path, command) in [
            ("/v1/looks/popular?limit=10", ["looks", "popular", "--limit", "10"]), ("/v1/verdicts?limit=5", ["verdicts", "--limit", "5"]),
            ("/v1/flags", ["flags"]), ("/v1/stats", ["stats"]),
        ] {
            let answer = try await server.request("GET", path)
            #expect(answer.status == 200, "\(path): \(answer.text)")
            let console = try gtio(command + ["--format", "json"], store: sqlite)
            let object = answer.text.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(answer.text == console.stdout || console.stdout == "[\n  \(object)\n]\n", "\(path): \(answer.text)")
        }
        let item = try firstValue(["flags"], column: 0, store: sqlite)
        let version = try firstValue(["flags"], column: 6, store: sqlite)
        let decided = try await server.request(
            "POST", "/v1/flags/\(item)/resolve", headers: ["Content-Type": "application/json"],
            body: Data(#"{"action":"dismiss","version":\#(version),"moderator":"ana"}"#.utf8))
        #expect(decided.status == 200, "\(decided.text)")
        #expect(server.stop() == 0)
        #expect(try gtio(["decisions", "--format", "csv"], store: postgres).stdout.contains(",\(item),dismiss,ana,"))
        #expect(try gtio(["verify"], store: postgres).status == 0)
        #expect(try gtio(["rebuild", "--check"], store: postgres).status == 0)
    }

    /// A database that takes no connections for a while (as during a restart): the collector and
    /// the read API answer 503 with Retry-After, saying why, and take requests again after.
    @Test func serveAnswers503WhileTheStoreIsAwayAndRecovers() async throws {
        let psql = try #require(StoreBackend.psql, "psql is needed to close the database to connections")
        let server = try #require(StoreBackend.postgresServer)
        let location = try StoreBackend.postgres.location(in: folder)
        let database = try #require(URLComponents(string: location)?.path.dropFirst()).description
        let input = try demo("away.jsonl", events: 1_200, seed: 9)
        let lines = try String(contentsOfFile: input, encoding: .utf8).split(separator: "\n").map(String.init)
        let first = folder.write("first.jsonl", lines.prefix(1_000).joined(separator: "\n") + "\n")
        #expect(try gtio(["ingest", first], store: location).status == 0)
        let collector = try ServerProcess(store: location, ["--no-auth"], folder: folder.path)
        defer { _ = collector.stop() }
        #expect(try await collector.becomesReady())

        func allowConnections(_ allow: Bool) throws {
            var statements = ["-c", "ALTER DATABASE \(database) ALLOW_CONNECTIONS \(allow)"]
            if !allow {
                statements += ["-c", "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = '\(database)'"]
            }
            let result = try GTIOBinary.run(executable: psql, ["-q", "-v", "ON_ERROR_STOP=1", server] + statements)
            #expect(result.status == 0, "\(result.stderr)")
        }
        try allowConnections(false)
        let refused = try await collector.post(lines[1_000..<1_100].joined(separator: "\n"), key: nil)
        #expect(refused.status == 503, "\(refused.text)")
        #expect(refused.headers["retry-after"] == "1")
        #expect(refused.text.contains("the store is unavailable, nothing was applied; retry shortly"), "\(refused.text)")
        let read = try await collector.request("GET", "/v1/looks/popular?limit=3&at_seq=10")
        #expect(read.status == 503, "\(read.text)")
        #expect(read.headers["retry-after"] == "1")

        try allowConnections(true)
        let taken = try await collector.post(lines[1_000..<1_100].joined(separator: "\n"), key: nil)
        #expect(taken.status == 200, "\(taken.text)")
        #expect(try await collector.request("GET", "/v1/looks/popular?limit=3&at_seq=10").status == 200)
        #expect(collector.stop() == 0)
        #expect(try gtio(["verify"], store: location).status == 0)
    }
}
