import Foundation
import GTIOSimulation
import GTIOStore
import GTIOTestSupport
import Testing

/// The roles `gtio pg roles` prints, run with `psql` by the store's owner as an operator would,
/// on a store whose first commands the owner ran: the writer role ingests, rebuilds and saves
/// insights; the reader role answers every query, also while the tables lag the log, and may
/// not append.
@Suite(.enabled(if: StoreBackend.postgresServer != nil, "GTIO_TEST_POSTGRES names no server"))
struct PostgresRolesTests {
    let folder = TemporaryDirectory()

    func demo(_ name: String, events: Int, seed: UInt64) throws -> String {
        var bytes: [UInt8] = []
        try DemoCommunity(seed: seed, eventCount: events).write { bytes += $0 }
        return folder.write(name, String(decoding: bytes, as: UTF8.self))
    }

    /// `location` with `user` in place of its user.
    func connecting(_ location: String, as user: String) throws -> String {
        var components = try #require(URLComponents(string: location))
        components.user = user
        return try #require(components.string)
    }

    @Test func theWriterWritesAndTheReaderReadsAStoreTheOwnerBegan() throws {
        let psql = try #require(StoreBackend.psql, "psql is needed to run the roles' script as an operator would")
        let files = try [(91, 1_500), (92, 1_500), (93, 1_500)].map { try demo("o\($0.0).jsonl", events: $0.1, seed: UInt64($0.0)) }
        let owner = try StoreBackend.postgres.location(in: folder)
        #expect(try GTIOBinary.run(["ingest", files[0], "--store", owner]).status == 0)

        // Roles belong to the whole server: names of this test's own.
        let suffix = (folder.path as NSString).lastPathComponent.replacingOccurrences(of: "-", with: "_")
        let (writerRole, readerRole) = ("w_" + suffix, "r_" + suffix)
        let script = try GTIOBinary.run(["pg", "roles", "--store", owner, "--writer", writerRole, "--reader", readerRole])
        #expect(script.status == 0)
        #expect(script.stdout.contains("GRANT CONNECT ON DATABASE \(try #require(URLComponents(string: owner)?.path.dropFirst())) "))
        let file = folder.write("roles.sql", script.stdout)
        defer {
            _ = try? GTIOBinary.run(executable: psql, ["-q", owner, "-c", "DROP OWNED BY \(writerRole), \(readerRole)",
                                                        "-c", "DROP ROLE \(writerRole)", "-c", "DROP ROLE \(readerRole)"])
        }
        let applied = try GTIOBinary.run(executable: psql, ["-q", "-v", "ON_ERROR_STOP=1", owner, "-f", file])
        #expect(applied.status == 0, "\(applied.stderr)")
        let writer = try connecting(owner, as: writerRole), reader = try connecting(owner, as: readerRole)

        // The writer appends and brings the read models the owner's ingest wrote up to date.
        let ingested = try GTIOBinary.run(["ingest", files[1], "--store", writer])
        #expect(ingested.status == 0, "\(ingested.stderr)")
        #expect(ingested.stdout.contains("read models up to date"))
        let query = ["looks", "popular", "--limit", "10", "--format", "csv"]
        let answer = try GTIOBinary.run(query + ["--store", reader])
        #expect(answer.status == 0, "\(answer.stderr)")
        #expect(answer.stdout == (try GTIOBinary.run(query + ["--store", owner])).stdout)

        // The reader may not append, and says why.
        let refused = try GTIOBinary.run(["ingest", files[2], "--store", reader])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("permission denied for table events"), "\(refused.stderr)")

        // Nor lead the read models: writers would leave them to a projector that applies nothing.
        let follower = try GTIOBinary.run(executable: "/usr/bin/timeout", ["20", GTIOBinary.path, "project", "--follow", "--store", reader])
        #expect(follower.status == 1)
        #expect(follower.stderr.contains("permission denied for table events"), "\(follower.stderr)")
        // Nor collect: the server would fail every request.
        let collector = try GTIOBinary.run(executable: "/usr/bin/timeout", ["20", GTIOBinary.path, "serve", "--port", "0", "--store", reader])
        #expect(collector.status == 1)
        #expect(collector.stderr.contains("permission denied for table events"), "\(collector.stderr)")

        // Events the tables have not caught up with: the reader answers from a fold of its own.
        let store = try StoreBackend.postgres.open(in: folder)
        var batch = EventBatch(source: "lagging")
        for (index, line) in try String(contentsOfFile: files[2], encoding: .utf8).split(separator: "\n").enumerated() {
            _ = Array(line.utf8).withUnsafeBufferPointer { batch.add($0, line: index + 1) }
        }
        #expect(try store.append(batch).appended > 1_000)
        let lagging = try GTIOBinary.run(query + ["--store", reader])
        #expect(lagging.status == 0, "\(lagging.stderr)")
        let caughtUp = try GTIOBinary.run(query + ["--store", writer])
        #expect(lagging.stdout == caughtUp.stdout)

        // The writer rebuilds the tables and saves insights; the reader reads what it made.
        #expect(try GTIOBinary.run(["rebuild", "--store", writer]).status == 0)
        #expect(try GTIOBinary.run(["insight", "save", "hearts", "trend", "post.hearted", "--store", writer]).status == 0)
        #expect(try GTIOBinary.run(query + ["--store", reader]).stdout == caughtUp.stdout)
        #expect(try GTIOBinary.run(["insight", "list", "--store", reader]).stdout.contains("hearts"))
        #expect(try GTIOBinary.run(["rebuild", "--check", "--store", reader]).status == 0)

        // verify says it left the indexes unchecked until the superuser's lines the script
        // gives as comments are run; then the reader checks them too.
        let unchecked = try GTIOBinary.run(["verify", "--store", reader])
        #expect(unchecked.status == 0)
        #expect(unchecked.stdout.contains("not checked: the log's indexes against its rows: this database lacks the amcheck extension"))
        let superuser = script.stdout.split(separator: "\n").suffix(2).map { String($0.dropFirst(5)) }
        #expect(superuser.first?.hasPrefix("CREATE EXTENSION") == true, "\(script.stdout)")
        let added = try GTIOBinary.run(executable: psql, ["-q", "-v", "ON_ERROR_STOP=1", owner] + superuser.flatMap { ["-c", $0] })
        #expect(added.status == 0, "\(added.stderr)")
        let checked = try GTIOBinary.run(["verify", "--store", reader])
        #expect(checked.status == 0, "\(checked.stderr)")
        #expect(checked.stdout.contains("the log is intact") && !checked.stdout.contains("not checked"), "\(checked.stdout)")
    }
}
