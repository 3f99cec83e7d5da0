import Foundation
import GTIOCatalog
import GTIOStore
import GTIOStoreSQLite
import GTIOTestSupport
import Testing

/// What an insider and a new user found in how the store is opened, signed and queried, each
/// pinned with the real binary on a real store.
@Suite struct StoreFindingsTests {
    let folder = TemporaryDirectory()
    var store: String { folder.file("log.gtio") }

    func feed(_ name: String, ids: [String]) -> String {
        folder.write(name, ids.map {
            #"{"id":"\#($0)","type":"post.hearted","at":"2012-04-23T00:00:00Z","user":"u1","data":{"post":"p1"}}"#
        }.joined(separator: "\n") + "\n")
    }

    /// The read models' file beside a store given as the store: it carries the stores'
    /// application id, so it was taken for a store from before the tables had a file of their
    /// own, and even a query "upgraded" it, making a tables file beside it and failing on the
    /// way ("table checkpoints already exists").
    @Test func theTablesFileGivenAsTheStoreIsNamedAndLeftAlone() throws {
        #expect(try GTIOBinary.run(["ingest", feed("t.jsonl", ids: ["a", "b"]), "--store", store]).status == 0)
        let tables = store + "-tables"
        let before = try Data(contentsOf: URL(fileURLWithPath: tables))
        for command in [["looks"], ["status"], ["ingest", feed("t2.jsonl", ids: ["c"])], ["keys", "add", "k", "--role", "read"]] {
            let result = try GTIOBinary.run(command + ["--store", tables])
            #expect(result.status == 2, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("\(tables) is the read models' file beside a store, not a store (pass --store with the store's own file, \(store))"), "\(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: tables + "-tables"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: tables)) == before)
        #expect(try GTIOBinary.run(["status", "--store", store]).status == 0)
    }

    /// A store opened through a symbolic link is the store itself: the tables' file and the
    /// lock files were named after the link, so each link got read models (and a projector's
    /// lead) of its own beside the one log.
    @Test func aStoreOpenedThroughALinkIsTheStoreItself() throws {
        #expect(try GTIOBinary.run(["ingest", feed("t.jsonl", ids: ["a", "b"]), "--store", store]).status == 0)
        let link = folder.file("link.gtio")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "log.gtio")
        #expect(try GTIOBinary.run(["ingest", feed("t2.jsonl", ids: ["c"]), "--store", link]).status == 0)
        let viaLink = try GTIOBinary.run(["status", "--format", "json", "--store", link])
        #expect(viaLink.stdout.contains("\"events\":3"), "\(viaLink.stdout)")
        #expect(try GTIOBinary.run(["status", "--format", "json", "--store", store]).stdout == viaLink.stdout)
        let made = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("link.gtio") }
        #expect(made == ["link.gtio"])
        let real = URL(fileURLWithPath: store).resolvingSymlinksInPath().path  // as the store names itself
        for other in [link, folder.path + "/./log.gtio"] {
            let copy = try GTIOBinary.run(["copy", "--from", store, "--to", other])
            #expect(copy.status == 2 && copy.stderr.contains("--from and --to name the same store (\(real))"), "\(copy.stderr)")
        }
    }

    /// A long-running process (gtio serve) keeps its store working while other programs open
    /// and close it (here Python's sqlite3, as an operator's SQLite shell would): the opening
    /// lock's descriptor once dropped the process's SQLite locks, and the next program to close
    /// its last connection deleted the write-ahead log under it ("disk I/O error").
    @Test func aStoreStaysReadableWhileOtherProcessesOpenAndCloseIt() throws {
        let file = feed("g.jsonl", ids: ["a", "b"])
        #expect(try GTIOBinary.run(["ingest", file, "--store", store]).status == 0)
        let open = try SQLiteStore(path: store)
        _ = try open.append(EventBatch(source: "test", events: [(1, try EventValidator.validate(
            #"{"id":"c","type":"post.hearted","at":"2012-04-23T00:00:01Z","user":"u1","data":{"post":"p1"}}"#).get())]))
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); print(c.execute('SELECT COUNT(*) FROM events').fetchone()[0]); c.close()", store]
        let output = Pipe()
        python.standardOutput = output
        try python.run()
        python.waitUntilExit()
        #expect(String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "3\n")
        #expect(try open.lastSeq() == 3)
        _ = try open.append(EventBatch(source: "test", events: [(2, try EventValidator.validate(
            #"{"id":"d","type":"post.hearted","at":"2012-04-23T00:00:02Z","user":"u1","data":{"post":"p1"}}"#).get())]))
        #expect(try open.lastSeq() == 4)
        #expect(try GTIOBinary.run(["verify", "--store", store]).status == 0)
    }

    @Test func fourProcessesCreatingOneStoreAllSucceed() throws {
        let file = feed("f.jsonl", ids: ["a", "b", "c"])
        for round in 0..<6 {
            let path = folder.file("new\(round).gtio")
            // Four processes at once, each on its own thread, with what they said kept for the message.
            let results = Results()
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                results.add(try? GTIOBinary.run(["ingest", file, "--store", path]))
            }
            let outputs = results.all
            #expect(outputs.map { $0?.status } == [0, 0, 0, 0], "round \(round): \(outputs.map { $0?.stderr ?? "(did not run)" })")
            let status = try GTIOBinary.run(["status", "--format", "json", "--store", path])
            #expect(status.stdout.contains(#""events":3"#), "\(status.stdout)")
        }
    }

    @Test func aFolderGivenAsTheStoreIsNamed() throws {
        for arguments in [["verify"], ["ingest", feed("f.jsonl", ids: ["a"])]] {
            let result = try GTIOBinary.run(arguments + ["--store", folder.path])
            #expect(result.status == 2)
            #expect(result.stderr == "gtio: \(folder.path) is a folder; a store is a file (pass --store with a file path, such as \(folder.path)/events.gtio)\n")
        }
    }

    @Test func signedBatchesProveTheLogAndAnAnchorCatchesACutTail() throws {
        let key = folder.file("keys/signing.key")
        let made = try GTIOBinary.run(["keys", "new", "--out", key])
        #expect(made.status == 0, "\(made.stderr)")
        let publicKey = made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(publicKey.hasPrefix("ed25519:") && publicKey.count == 72)
        let signing = ["GTIO_SIGNING_KEY": key]
        #expect(try GTIOBinary.run(["ingest", feed("1.jsonl", ids: ["a", "b"]), "--store", store], environment: signing).status == 0)
        #expect(try GTIOBinary.run(["keys", "show", "--key", key]).stdout == publicKey + "\n")

        let anchors = folder.file("anchors.txt")
        #expect(try GTIOBinary.run(["anchor", "--out", anchors, "--store", store]).status == 0)
        let proven = try GTIOBinary.run(["verify", "--key", publicKey, "--anchor", anchors, "--store", store])
        #expect(proven.status == 0, "\(proven.stderr)")
        #expect(proven.stdout.contains("every event is covered by a head signed with key \(publicKey.dropFirst(8).prefix(8)) (last signed seq 2)"))

        // Appended without the key (no GTIO_SIGNING_KEY, no key in the configuration folder).
        let unsigned = ["XDG_CONFIG_HOME": folder.file("nowhere")]
        #expect(try GTIOBinary.run(["ingest", feed("2.jsonl", ids: ["c"]), "--store", store], environment: unsigned).status == 0)
        let found = try GTIOBinary.run(["verify", "--key", publicKey, "--store", store])
        #expect(found.status == 1)
        #expect(found.stderr.hasPrefix("gtio: the log is not intact at seq 3: unsigned: seq 3 carries no head signed by key"))
    }

    @Test func aMissingSigningKeyNamedByTheEnvironmentIsAnError() throws {
        let result = try GTIOBinary.run(["ingest", feed("1.jsonl", ids: ["a"]), "--store", store],
                                        environment: ["GTIO_SIGNING_KEY": folder.file("typo.key")])
        #expect(result.status == 2)
        #expect(result.stderr.contains("cannot read the key \(folder.file("typo.key"))"))
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    @Test func sqlKeepsTenThousandRowsUnlessToldAndSaysSo() throws {
        #expect(try GTIOBinary.run(["ingest", feed("1.jsonl", ids: ["a"]), "--store", store]).status == 0)
        let many = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 20000) SELECT x FROM c"
        let capped = try GTIOBinary.run(["sql", many, "--format", "csv", "--store", store])
        #expect(capped.status == 0)
        #expect(capped.stdout.split(whereSeparator: \.isNewline).count == 10_001)
        #expect(capped.stderr == "gtio: sql: stopped at 10000 rows; there are more (add LIMIT, or --limit 0 for all)\n")
        let all = try GTIOBinary.run(["sql", many, "--format", "csv", "--limit", "0", "--store", store])
        #expect(all.stdout.split(whereSeparator: \.isNewline).count == 20_001)
        #expect(all.stderr.isEmpty)
    }

    @Test func anEndlessStatementStopsAtItsTimeout() throws {
        #expect(try GTIOBinary.run(["ingest", feed("1.jsonl", ids: ["a"]), "--store", store]).status == 0)
        let endless = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT COUNT(*) FROM c"
        let result = try GTIOBinary.run(["sql", endless, "--timeout", "0.5", "--store", store])
        #expect(result.status == 1)
        #expect(result.stderr == "gtio: sql: stopped after 0.5 s (narrow the statement with WHERE or LIMIT, or give it longer with --timeout)\n")
    }

    @Test func aDamagedReadModelPageIsNamedAndRebuildRecovers() throws {
        let events = folder.file("demo.jsonl")
        #expect(try GTIOBinary.run(["demo", "--events", "5000", "--out", events]).status == 0)
        #expect(try GTIOBinary.run(["ingest", events, "--store", store]).status == 0)
        let before = try GTIOBinary.run(["looks", "--format", "csv", "--store", store]).stdout
        // Scribble over the root pages of rm_posts and its indexes, as a bad disk or an editor would.
        let rows = try GTIOBinary.run(["sql", """
            SELECT rootpage, (SELECT page_size FROM pragma_page_size WHERE schema = 'tables') FROM tables.sqlite_master WHERE tbl_name = 'rm_posts'
            """, "--format", "csv", "--store", store]).stdout.split(whereSeparator: \.isNewline).dropFirst()
        #expect(rows.count == 7)  // the table and its six indexes
        let handle = try #require(FileHandle(forUpdatingAtPath: store + "-tables"))
        for row in rows {
            let page = row.split(separator: ",").map { UInt64($0)! }
            try handle.seek(toOffset: (page[0] - 1) * page[1] + 12)
            try handle.write(contentsOf: Data(repeating: 0xFF, count: Int(page[1]) - 12))
        }
        try handle.close()

        let damaged = try GTIOBinary.run(["looks", "--store", store])
        #expect(damaged.status == 1)
        #expect(damaged.stderr == "gtio: the store file \(store)-tables is damaged (SQLite reports a malformed page): gtio verify says whether the log is hit; damaged read models are dropped and rebuilt by gtio rebuild\n")
        let rebuilt = try GTIOBinary.run(["rebuild", "--store", store])
        #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
        #expect(rebuilt.stderr.contains("the read models' tables are damaged: dropping them to rebuild them from the log"))
        #expect(try GTIOBinary.run(["verify", "--store", store]).status == 0)
        #expect(try GTIOBinary.run(["looks", "--format", "csv", "--store", store]).stdout == before)
    }

    /// An ingest that meets a damaged page of the log stops before appending anything, rather
    /// than writing on into a file SQLite has called malformed.
    @Test func anIngestThatMeetsADamagedLogPageAppendsNothing() throws {
        #expect(try GTIOBinary.run(["ingest", feed("1.jsonl", ids: ["a", "b", "c"]), "--store", store]).status == 0)
        let row = try GTIOBinary.run(["sql", """
            SELECT rootpage, (SELECT page_size FROM pragma_page_size) FROM sqlite_master WHERE name = 'batches'
            """, "--format", "csv", "--store", store]).stdout.split(whereSeparator: \.isNewline)[1]
        let page = row.split(separator: ",").map { UInt64($0)! }
        let offset = (page[0] - 1) * page[1] + 12
        let handle = try #require(FileHandle(forUpdatingAtPath: store))
        try handle.seek(toOffset: offset)
        let original = try #require(try handle.read(upToCount: Int(page[1]) - 12))
        try handle.seek(toOffset: offset)
        try handle.write(contentsOf: Data(repeating: 0xFF, count: original.count))

        let later = feed("2.jsonl", ids: ["d", "e"])
        let refused = try GTIOBinary.run(["ingest", later, "--store", store])
        #expect(refused.status == 1)
        #expect(refused.stderr == "gtio: the store file \(store) is damaged (SQLite reports a malformed page): gtio verify says whether the log is hit; damaged read models are dropped and rebuilt by gtio rebuild\n")
        #expect(try GTIOBinary.run(["verify", "--store", store]).status == 1)

        // Mend the page as a backup would: the log is as it was, and the same file goes in whole.
        try handle.seek(toOffset: offset)
        try handle.write(contentsOf: original)
        try handle.close()
        #expect(try GTIOBinary.run(["sql", "SELECT COUNT(*) FROM events", "--format", "csv", "--store", store]).stdout == "COUNT(*)\r\n3\r\n")
        #expect(try GTIOBinary.run(["verify", "--store", store]).status == 0)
        let retried = try GTIOBinary.run(["ingest", later, "--store", store])
        #expect(retried.status == 0, "\(retried.stderr)")
        #expect(retried.stdout.contains("appended 2, duplicates 0"))
    }

    @Test func onlyIngestCreatesAStore() throws {
        let typo = folder.file("tpyo.gtio")
        for arguments in [["rebuild"], ["rebuild", "--check"], ["quarantine", "retry"], ["resolve", "post:p1", "remove", "--as", "mod"],
                          ["verify"], ["looks"], ["status"], ["sql", "SELECT 1"], ["anchor"]] {
            let result = try GTIOBinary.run(arguments + ["--store", typo])
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr == "gtio: no store at \(typo) (check --store or GTIO_STORE; gtio ingest FILE creates one)\n", "\(arguments)")
            #expect(!FileManager.default.fileExists(atPath: typo), "\(arguments) created the store")
        }
    }
}

/// Outputs gathered from several threads.
private final class Results: @unchecked Sendable {
    // @unchecked: every access holds `lock`.
    private let lock = NSLock()
    private var outputs: [GTIOBinary.Output?] = []

    func add(_ output: GTIOBinary.Output?) {
        lock.lock()
        outputs.append(output)
        lock.unlock()
    }

    var all: [GTIOBinary.Output?] {
        lock.lock()
        defer { lock.unlock() }
        return outputs
    }
}
