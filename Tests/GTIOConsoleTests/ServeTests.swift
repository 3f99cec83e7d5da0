import Foundation
import GRDB
import GTIOProjections
import GTIOSimulation
import GTIOStore
import GTIOStoreSQLite
import GTIOTestSupport
import Testing

/// `gtio serve` as the app and dashboards meet it: the real binary on a loopback port.
@Suite(.serialized) struct ServeTests {
    let folder = TemporaryDirectory()

    /// A store with `events` demo events ingested and one key of each role.
    func storeWithKeys(events: Int = 1_500, seed: UInt64 = 7) throws -> (store: String, write: String, read: String, moderate: String) {
        let store = folder.file("s\(seed).gtio")
        if events > 0 {
            let file = try demoLines(events: events, seed: seed).joined(separator: "\n")
            let ingest = try GTIOBinary.run(["ingest", "--store", store, folder.write("seed\(seed).jsonl", file + "\n")])
            #expect(ingest.status == 0, "\(ingest.stderr)")
        } else {
            _ = try GTIOBinary.run(["ingest", "--store", store, folder.write("empty.jsonl", "")])
        }
        func key(_ name: String, _ role: String) throws -> String {
            let made = try GTIOBinary.run(["keys", "add", name, "--role", role, "--store", store])
            #expect(made.status == 0, "\(made.stderr)")
            return made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return (store, try key("app", "write"), try key("dash", "read"), try key("ana", "moderate"))
    }

    func demoLines(events: Int, seed: UInt64) throws -> [String] {
        var bytes: [UInt8] = []
        try DemoCommunity(seed: seed, eventCount: events).write { bytes += $0 }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    func column(_ store: String, _ sql: String) throws -> [String] {
        try DatabaseQueue(path: store, configuration: { var c = Configuration(); c.readonly = true; return c }()).read {
            try String.fetchAll($0, sql: sql)
        }
    }

    @Test func eachContentTypeIsReadAndEveryEventGetsItsOwnResult() async throws {
        let keys = try storeWithKeys()
        let server = try ServerProcess(store: keys.store, folder: folder.path)
        let lines = try demoLines(events: 1_600, seed: 7).suffix(100).map { $0 }
        let last = try column(keys.store, "SELECT MAX(seq) FROM events")[0]

        // JSON Lines: three new, one broken, one repeated.
        let ndjson = [lines[0], lines[1], lines[2], "{\"id\": oops", lines[0]].joined(separator: "\n") + "\n"
        let reply = try await server.post(ndjson, key: keys.write)
        #expect(reply.status == 200)
        let answer = try #require(reply.json as? [String: Any])
        #expect(answer["received"] as? Int == 5)
        #expect(answer["appended"] as? Int == 3)
        #expect(answer["duplicates"] as? Int == 1)
        #expect(answer["rejected"] as? Int == 1)
        let results = try #require(answer["results"] as? [[String: Any]])
        #expect(results.map { $0["status"] as? String } == ["appended", "appended", "appended", "rejected", "duplicate"])
        #expect(results[0]["seq"] as? Int == Int(last)! + 1)
        #expect(results[2]["seq"] as? Int == Int(last)! + 3)
        #expect((results[3]["reason"] as? String)?.hasPrefix("invalid JSON") == true)

        // One object, and a pretty-printed array whose second element is not an event.
        let object = try await server.post(lines[3], key: keys.write, contentType: "application/json")
        #expect((object.json as? [String: Any])?["appended"] as? Int == 1)
        let pretty = "[\n  \(lines[4].replacingOccurrences(of: ",\"", with: ",\n    \"")),\n  42\n]"
        let array = try await server.post(pretty, key: keys.write, contentType: "application/json; charset=utf-8")
        let arrayResults = try #require((array.json as? [String: Any])?["results"] as? [[String: Any]])
        #expect(arrayResults.map { $0["status"] as? String } == ["appended", "rejected"])
        // The pretty-printed event is kept on one line, byte for byte as the JSON Lines file has it.
        let original = try column(keys.store, "SELECT CAST(original AS TEXT) FROM events WHERE id = '\(arrayResults[0]["id"]!)'")
        #expect(original == [lines[4]])

        // gzip.
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
        gzip.arguments = ["-c"]
        let input = Pipe(), output = Pipe()
        gzip.standardInput = input
        gzip.standardOutput = output
        try gzip.run()
        input.fileHandleForWriting.write(Data((lines[5...9].joined(separator: "\n") + "\n").utf8))
        try input.fileHandleForWriting.close()
        let compressed = output.fileHandleForReading.readDataToEndOfFile()
        let zipped = try await server.request("POST", "/v1/events", headers: [
            "Authorization": "Bearer \(keys.write)", "Content-Type": "application/x-ndjson", "Content-Encoding": "gzip",
        ], body: compressed)
        #expect((zipped.json as? [String: Any])?["appended"] as? Int == 5)
        // A stream cut short decompresses to the start of its first line, and one followed by
        // more bytes to its own lines alone: neither is a body to take events from.
        for broken in [compressed.prefix(compressed.count / 2), compressed + Data("{}".utf8)] {
            let refused = try await server.request("POST", "/v1/events", headers: [
                "Authorization": "Bearer \(keys.write)", "Content-Type": "application/x-ndjson", "Content-Encoding": "gzip",
            ], body: Data(broken))
            #expect(refused.status == 400 && refused.text.contains("cut short, or more follows its end"), "\(refused.text)")
        }

        // A broken line before new events: they are appended, each with its own hash (below).
        let after = try await server.post(["{\"id\": oops", lines[10], lines[11]].joined(separator: "\n"), key: keys.write)
        #expect((after.json as? [String: Any])?["appended"] as? Int == 2)

        // The rejected lines are in the quarantine, named by the request they came in.
        let sources = try column(keys.store, "SELECT source FROM quarantine ORDER BY entry")
        #expect(sources.count == 3)
        #expect(sources.allSatisfy { $0.hasPrefix("http 127.0.0.1:") })
        #expect(server.stop() == 0)
        // Each event's hash is its own, whatever lines were rejected or repeated beside it.
        let verify = try GTIOBinary.run(["verify", "--store", keys.store])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }

    @Test func badBodiesTypesAndSizesGetTheirStatusAndSayWhy() async throws {
        let keys = try storeWithKeys(events: 200)
        let server = try ServerProcess(store: keys.store, ["--max-body", "4096", "--max-event", "512"], folder: folder.path)
        let notJSON = try await server.post("hello", key: keys.write, contentType: "application/json")
        #expect(notJSON.status == 400)
        #expect(notJSON.text.contains("not JSON"))
        let unclosed = try await server.post("[{\"id\":\"a\"}", key: keys.write, contentType: "application/json")
        #expect(unclosed.status == 400)
        let csv = try await server.post("a,b", key: keys.write, contentType: "text/csv")
        #expect(csv.status == 415)
        #expect(csv.text.contains("application/x-ndjson"))
        let big = try await server.post(String(repeating: " ", count: 5_000) + "{}", key: keys.write)
        #expect(big.status == 413)
        #expect(big.text.contains("4096 bytes per request"))
        // One event over the per-event limit is rejected alone; its neighbour is appended.
        let line = try demoLines(events: 300, seed: 7).last!
        let long = "{\"id\":\"long1\",\"type\":\"app.opened\",\"at\":\"2012-05-01T00:00:00Z\",\"pad\":\"\(String(repeating: "x", count: 600))\"}"
        let mixed = try await server.post(long + "\n" + line + "\n", key: keys.write)
        #expect(mixed.status == 200)
        let results = try #require((mixed.json as? [String: Any])?["results"] as? [[String: Any]])
        #expect(results.map { $0["status"] as? String } == ["rejected", "appended"])
        #expect((results[0]["reason"] as? String)?.contains("512 bytes per event") == true)
        #expect(server.stop() == 0)
    }

    @Test func keysAreAskedForCheckedByRoleAndRevocable() async throws {
        let keys = try storeWithKeys(events: 200)
        let server = try ServerProcess(store: keys.store, folder: folder.path)
        let none = try await server.request("GET", "/v1/verdicts")
        #expect(none.status == 401)
        #expect(none.text.contains("gtio keys add"))
        let wrong = try await server.request("GET", "/v1/verdicts", headers: ["Authorization": "Bearer gtio_read_nope"])
        #expect(wrong.status == 401)
        let writer = try await server.request("GET", "/v1/verdicts", headers: ["Authorization": "Bearer \(keys.write)"])
        #expect(writer.status == 403)
        let reader = try await server.post("{}", key: keys.read)
        #expect(reader.status == 403)
        let moderator = try await server.request("GET", "/v1/verdicts", headers: ["Authorization": "Bearer \(keys.moderate)"])
        #expect(moderator.status == 200)
        // The store keeps digests only.
        let stored = try column(keys.store + "-tables", "SELECT hex(digest) FROM access_keys")
        #expect(stored.count == 3 && !stored.contains { keys.read.uppercased().contains($0) })
        #expect(try GTIOBinary.run(["keys", "revoke", "dash", "--store", keys.store]).status == 0)
        let listed = try GTIOBinary.run(["keys", "list", "--format", "csv", "--store", keys.store]).stdout
        let rows = listed.split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(rows.first == ["name", "role", "prefix", "created", "revoked"])
        #expect(rows.dropFirst().map { "\($0[0]) \($0[1]) \($0[4].isEmpty ? "live" : "revoked")" } == ["ana moderate live", "app write live", "dash read revoked"])  // by name
        #expect(!listed.contains(keys.read))  // never the key itself
        // A list of keys has no earlier moment to answer for.
        #expect(try GTIOBinary.run(["keys", "list", "--as-of", "2012-04-30", "--store", keys.store]).status == 2)
        try await Task.sleep(for: .milliseconds(1_200))
        let revoked = try await server.request("GET", "/v1/verdicts", headers: ["Authorization": "Bearer \(keys.read)"])
        #expect(revoked.status == 401)
        #expect(server.stop() == 0)
        let open = try GTIOBinary.run(["serve", "--store", keys.store, "--bind", "0.0.0.0", "--no-auth"])
        #expect(open.status == 2)
        #expect(open.stderr.contains("--no-auth is only allowed with a loopback --bind"))
    }

    @Test func theReadAPIAnswersAsTheConsoleDoesWithETagsAndDecisions() async throws {
        let keys = try storeWithKeys(events: 3_000, seed: 11)
        let console = try GTIOBinary.run(["looks", "popular", "--limit", "5", "--format", "json", "--store", keys.store])
        let server = try ServerProcess(store: keys.store, folder: folder.path)
        let auth = ["Authorization": "Bearer \(keys.read)"]
        let looks = try await server.request("GET", "/v1/looks/popular?limit=5", headers: auth)
        #expect(looks.status == 200)
        #expect(looks.text == console.stdout)
        let tag = try #require(looks.headers["etag"])
        let last = try column(keys.store, "SELECT MAX(seq) FROM events")[0]
        #expect(tag == "\"\(last)\"")
        let again = try await server.request("GET", "/v1/looks/popular?limit=5", headers: auth.merging(["If-None-Match": tag]) { $1 })
        #expect(again.status == 304)
        let past = try await server.request("GET", "/v1/verdicts?at_seq=100&limit=3", headers: auth)
        let pastConsole = try GTIOBinary.run(["verdicts", "--at-seq", "100", "--limit", "3", "--format", "json", "--store", keys.store])
        #expect(past.text == pastConsole.stdout)
        // Answered for the last seq, a view folded with only the tables the answer reads gives
        // the latest answer (a table left out of its declaration would fail it).
        let author = try #require((looks.json as? [[String: Any]])?.first?["author"] as? String)
        for path in ["/v1/looks/popular?limit=5", "/v1/looks/wear-it?limit=5", "/v1/verdicts?limit=5", "/v1/flags?limit=5",
                     "/v1/stats", "/v1/users/\(author)/followers", "/v1/users/\(author)/following", "/v1/users/\(author)/suggestions"] {
            let latest = try await server.request("GET", path, headers: auth)
            let view = try await server.request("GET", path + (path.contains("?") ? "&" : "?") + "at_seq=\(last)", headers: auth)
            #expect(latest.status == 200 && view.status == 200, "\(path): \(view.text)")
            #expect(view.text == latest.text, "\(path)")
        }
        #expect(try await server.request("GET", "/v1/users/nobody", headers: auth).status == 404)
        #expect(try await server.request("GET", "/v1/looks/nope", headers: auth).status == 404)
        // A queue item's id where a post's is asked is pointed at the post.
        let post = try #require((looks.json as? [[String: Any]])?.first?["post"] as? String)
        let itemID = try await server.request("GET", "/v1/posts/post:\(post)", headers: auth)
        #expect(itemID.status == 404)
        #expect((itemID.json as? [String: Any])?["error"] as? String
                == "unknown post \"post:\(post)\": that is the id of a queue item; its post's id is \"\(post)\" (/v1/posts/\(post))", "\(itemID.text)")
        let missingID = try await server.request("GET", "/v1/users//followers", headers: auth)
        #expect(missingID.status == 404 && missingID.text.contains("an id is missing"), "\(missingID.text)")
        let misspelt = try await server.request("GET", "/v1/verdicts?limt=1", headers: auth)
        #expect(misspelt.status == 400 && misspelt.text.contains("takes limit, as_of, at_seq"), "\(misspelt.text)")
        #expect(try await server.request("GET", "/v1/looks/new?limit=-1", headers: auth).status == 400)
        let repeated = try await server.request("GET", "/v1/verdicts?limit=1&limit=2", headers: auth)
        #expect(repeated.status == 400 && repeated.text.contains("limit is given twice; give it once"), "\(repeated.text)")
        // The largest limit is every look, not a trap that ends the server with all it holds.
        let all = try await server.request("GET", "/v1/looks/popular?limit=\(Int64.max)", headers: auth)
        #expect(all.status == 200)
        #expect(try await server.request("GET", "/health").status == 200)

        // A decision against a stale version is 409; against the current one it is appended.
        let queue = try #require(try await server.request("GET", "/v1/flags?limit=1", headers: auth).json as? [[String: Any]])
        let item = try #require(queue.first?["item"] as? String), version = try #require(queue.first?["version"] as? Int)
        let moderate = ["Authorization": "Bearer \(keys.moderate)", "Content-Type": "application/json"]
        let stale = try await server.request("POST", "/v1/flags/\(item)/resolve", headers: moderate,
                                             body: Data("{\"action\":\"dismiss\",\"version\":\(version - 1)}".utf8))
        #expect(stale.status == 409)
        #expect(stale.text.contains("changed since you looked"))
        // A post's bare id is pointed at its item's path.
        let bare = try await server.request("POST", "/v1/flags/\(post)/resolve", headers: moderate,
                                            body: Data("{\"action\":\"dismiss\",\"version\":\(version)}".utf8))
        #expect(bare.status == 400)
        #expect((bare.json as? [String: Any])?["error"] as? String
                == "\"\(post)\" is not an item (expected post:<id> or review:<id>); it is a post: /v1/flags/post:\(post)/resolve", "\(bare.text)")
        let byReader = try await server.request("POST", "/v1/flags/\(item)/resolve", headers: auth,
                                                body: Data("{\"action\":\"dismiss\",\"version\":\(version)}".utf8))
        #expect(byReader.status == 403)
        // A moderator id the log would refuse (a control character) is the request's fault.
        let badModerator = try await server.request("POST", "/v1/flags/\(item)/resolve", headers: moderate,
                                                    body: Data("{\"action\":\"dismiss\",\"version\":\(version),\"moderator\":\"a\\u001bb\"}".utf8))
        #expect(badModerator.status == 400)
        #expect(badModerator.text.contains("the decision on \(item) is not valid input: user: holds the control character U+001B"), "\(badModerator.text)")
        let decided = try await server.request("POST", "/v1/flags/\(item)/resolve", headers: moderate,
                                               body: Data("{\"action\":\"dismiss\",\"version\":\(version)}".utf8))
        #expect(decided.status == 200)
        #expect((decided.json as? [String: Any])?["moderator"] as? String == "ana")
        let twice = try await server.request("POST", "/v1/flags/\(item)/resolve", headers: moderate,
                                             body: Data("{\"action\":\"dismiss\",\"version\":\(version)}".utf8))
        #expect(twice.status == 409)
        #expect(try await server.request("GET", "/health").status == 200)
        let ready = try await server.request("GET", "/ready")
        #expect(ready.status == 200)
        let metrics = try await server.request("GET", "/metrics")
        #expect(metrics.text.contains("gtio_events_appended_total"))
        #expect(server.stop() == 0)
        // One JSON log line per request, with its request id.
        let logLines = server.log.split(separator: "\n").filter { $0.contains("\"message\":\"request\"") }
        #expect(logLines.count >= 12)
        #expect(logLines.allSatisfy { $0.contains("\"hb.request.id\":") && $0.hasPrefix("{") })
    }

    /// An id that is not plain ASCII, or holds a space, reaches the server percent-encoded, as a
    /// URL must carry it: each route decodes it and answers as the console does for the id. It
    /// was looked up still encoded ("unknown user %C3%A9"), so such users and posts were out of reach.
    @Test func idsThatAURLMustEncodeAreDecoded() async throws {
        let store = folder.file("unicode.gtio")
        let lines = [
            #"{"id":"e1","type":"user.signed_up","at":"2012-05-01T00:00:00Z","user":"é","device":"d1","data":{"provider":"google","name":"E"}}"#,
            #"{"id":"e2","type":"post.created","at":"2012-05-01T00:01:00Z","user":"é","data":{"post":"p é","kind":"outfit","voting":true,"location":{"name":"Café"}}}"#,
            #"{"id":"e3","type":"user.followed","at":"2012-05-01T00:02:00Z","user":"u2","data":{"target":"é"}}"#,
            #"{"id":"e4","type":"post.flagged","at":"2012-05-01T00:03:00Z","user":"u2","data":{"post":"p é"}}"#,
        ]
        let ingest = try GTIOBinary.run(["ingest", "--store", store, folder.write("unicode.jsonl", lines.joined(separator: "\n") + "\n")])
        #expect(ingest.status == 0, "\(ingest.stderr)")
        let server = try ServerProcess(store: store, ["--no-auth"], folder: folder.path)
        for (path, command) in [
            ("/v1/users/%C3%A9", ["user", "é"]), ("/v1/users/%C3%A9/followers", ["followers", "é"]),
            ("/v1/posts/p%20%C3%A9", ["post", "p é"]), ("/v1/looks/new?place=Caf%C3%A9", ["looks", "new", "--place", "Café"]),
        ] {
            let answer = try await server.request("GET", path)
            #expect(answer.status == 200, "\(path): \(answer.text)")
            let console = try GTIOBinary.run(command + ["--format", "json", "--store", store])
            // A card is one object here, a one-row array from the console.
            let object = answer.text.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(answer.text == console.stdout || console.stdout == "[\n  \(object)\n]\n", "\(path): \(console.stdout)")
        }
        // %C3 alone is no UTF-8 text.
        let malformed = try await server.request("GET", "/v1/users/%C3")
        #expect(malformed.status == 400)
        #expect(malformed.text.contains("is not percent-encoded UTF-8"), "\(malformed.text)")
        let decided = try await server.request("POST", "/v1/flags/post:p%20%C3%A9/resolve", headers: ["Content-Type": "application/json"],
                                               body: Data(#"{"action":"dismiss","version":4,"moderator":"ana"}"#.utf8))
        #expect(decided.status == 200, "\(decided.text)")
        #expect(server.stop() == 0)
    }

    /// Posts `lines` in requests of `size` from `clients` concurrent senders; the ids each
    /// acknowledged as appended or duplicate.
    func load(_ server: ServerProcess, _ lines: [String], key: String, size: Int, clients: Int) async -> [String] {
        let chunks = stride(from: 0, to: lines.count, by: size).map { Array(lines[$0..<min($0 + size, lines.count)]) }
        return await withTaskGroup(of: [String].self) { group in
            for client in 0..<clients {
                group.addTask {
                    var acknowledged: [String] = []
                    for chunk in chunks.enumerated().filter({ $0.offset % clients == client }).map(\.element) {
                        guard let reply = try? await server.post(chunk.joined(separator: "\n"), key: key), reply.status == 200,
                              let results = (reply.json as? [String: Any])?["results"] as? [[String: Any]]
                        else { continue }
                        acknowledged += results.compactMap { $0["status"] as? String == "rejected" ? nil : $0["id"] as? String }
                    }
                    return acknowledged
                }
            }
            var all: [String] = []
            for await ids in group { all += ids }
            return all
        }
    }

    @Test(arguments: [SIGTERM, SIGKILL])
    func everyAcknowledgedEventIsInTheLogAfterTheServerStops(signal: Int32) async throws {
        let keys = try storeWithKeys(events: 0)
        let lines = try demoLines(events: 20_000, seed: 3)
        let server = try ServerProcess(store: keys.store, folder: folder.path)
        async let acknowledged = load(server, lines, key: keys.write, size: 50, clients: 8)
        // Mid-load: once the first commits are in (on a busy machine that can take a while).
        let appended = { (try? self.column(keys.store, "SELECT COUNT(*) FROM events").first.flatMap { Int($0) }) ?? 0 }
        for _ in 0..<200 where appended() == 0 { try await Task.sleep(for: .milliseconds(50)) }
        try await Task.sleep(for: .milliseconds(100))
        let status = server.stop(signal)
        let ids = await acknowledged
        if signal == SIGTERM { #expect(status == 0) }
        #expect(!ids.isEmpty)
        let inLog = Set(try column(keys.store, "SELECT id FROM events"))
        #expect(ids.filter { !inLog.contains($0) }.isEmpty, "acknowledged but not in the log")
        let verify = try GTIOBinary.run(["verify", "--store", keys.store])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        let check = try GTIOBinary.run(["rebuild", "--check", "--store", keys.store])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    /// One event of each type of the contract (the app's `track` calls among them), each in a
    /// request of its own as a phone sends it, gives the log that ingesting the file gives.
    @Test func everyEventTypePostedOneByOneLandsAsIngestPutsIt() async throws {
        let lines = SharedFiles.exampleLines
        let keys = try storeWithKeys(events: 0, seed: 2)
        let server = try ServerProcess(store: keys.store, folder: folder.path)
        for line in lines {
            let reply = try await server.post(line, key: keys.write, contentType: "application/json")
            #expect((reply.json as? [String: Any])?["appended"] as? Int == 1, "\(line): \(reply.text)")
        }
        #expect(server.stop() == 0)
        let ingested = folder.file("examples.gtio")
        #expect(try GTIOBinary.run(["ingest", "--store", ingested, folder.write("examples.jsonl", lines.joined(separator: "\n") + "\n")]).status == 0)
        let sql = "SELECT seq, id, type, at, user, device, subject, object, value, flag, number, text, CAST(original AS TEXT) FROM events ORDER BY seq"
        let viaHTTP = try DatabaseQueue(path: keys.store).read { try Row.fetchAll($0, sql: sql) }
        #expect(viaHTTP.count == lines.count)
        #expect(viaHTTP == (try DatabaseQueue(path: ingested).read { try Row.fetchAll($0, sql: sql) }))
        let properties = "SELECT seq, name, position, text, number FROM event_properties ORDER BY seq, name, position"
        let httpProperties = try DatabaseQueue(path: keys.store).read { try Row.fetchAll($0, sql: properties) }
        let ingestedProperties = try DatabaseQueue(path: ingested).read { try Row.fetchAll($0, sql: properties) }
        #expect(httpProperties == ingestedProperties)
    }

    /// With `gtio project --follow` leading, the server leaves the read models to it: the
    /// projector applies every event the server appends, and the answers are an ingest's.
    @Test func aFailedCatchUpIsTriedAgainWithoutWaitingForACommit() async throws {
        let keys = try storeWithKeys(events: 300, seed: 29)
        let more = try demoLines(events: 600, seed: 29).suffix(300)
        let server = try ServerProcess(store: keys.store, folder: folder.path)
        // Something outside gtio stops the read models from moving, for a while.
        let queue = try DatabaseQueue(path: keys.store + "-tables")
        try await queue.write { db in
            try db.execute(sql: """
                CREATE TRIGGER test_block_update BEFORE UPDATE ON checkpoints WHEN NEW.name LIKE 'read_model.%'
                BEGIN SELECT RAISE(ABORT, 'blocked by the test'); END
                """)
        }
        #expect(try await server.post(more.joined(separator: "\n"), key: keys.write).status == 200)
        let readiness = { () async throws -> (status: Int, reason: String) in
            let reply = try await server.request("GET", "/ready")
            return (reply.status, (reply.json as? [String: Any])?["reason"] as? String ?? "")
        }
        var blocked = (status: 0, reason: "")
        for _ in 0..<100 where !blocked.reason.contains("blocked by the test") {
            try await Task.sleep(for: .milliseconds(100))
            blocked = try await readiness()
        }
        #expect(blocked.status == 503)
        #expect(blocked.reason.contains("the read models failed to catch up"), "\(blocked.reason)")
        try await queue.write { db in try db.execute(sql: "DROP TRIGGER test_block_update") }
        // No request comes: the server tries again on its own.
        var recovered = (status: 0, reason: "")
        for _ in 0..<100 where recovered.status != 200 {
            try await Task.sleep(for: .milliseconds(100))
            recovered = try await readiness()
        }
        #expect(recovered.status == 200, "\(recovered.reason) \(server.log)")
        #expect(server.stop() == 0)
        #expect(try GTIOBinary.run(["rebuild", "--check", "--store", keys.store]).status == 0)
    }

    #if os(Linux)
    /// The nice value and scheduling policy of each of a process's threads by name (the main
    /// thread's under `main`), and how many threads bear each name, once every name in `named`
    /// is there.
    func threadPriorities(
        of pid: Int32, naming named: [String]
    ) async throws -> (nice: [String: Int], policy: [String: Int], threads: [String: Int]) {
        var nice: [String: Int] = [:]
        var policy: [String: Int] = [:]
        var threads: [String: Int] = [:]
        // The threads are named as they start, which may be after the server listens.
        for _ in 0..<50 where named.contains(where: { nice[$0] == nil }) {
            try await Task.sleep(for: .milliseconds(100))
            threads = [:]
            let tasks = "/proc/\(pid)/task"
            for task in try FileManager.default.contentsOfDirectory(atPath: tasks) {
                guard let comm = try? String(contentsOfFile: "\(tasks)/\(task)/comm", encoding: .utf8),
                      let stat = try? String(contentsOfFile: "\(tasks)/\(task)/stat", encoding: .utf8),
                      let afterName = stat.range(of: ") ", options: .backwards)
                else { continue }
                let name = task == "\(pid)" ? "main" : comm.trimmingCharacters(in: .newlines)
                // Fields after the name start at the state, field 3; nice is field 19, the
                // scheduling policy field 41.
                let fields = stat[afterName.upperBound...].split(separator: " ")
                nice[name] = Int(fields[16])
                policy[name] = Int(fields[38])
                threads[name, default: 0] += 1
            }
        }
        return (nice, policy, threads)
    }

    /// Whether this process may raise a thread's priority: `CAP_SYS_NICE` (bit 23 of the
    /// effective capabilities), which the server it starts inherits.
    var mayRaisePriority: Bool {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("CapEff:") }),
              let caps = UInt64(line.dropFirst("CapEff:".count).trimmingCharacters(in: .whitespaces), radix: 16)
        else { return false }
        return caps & (1 << 23) != 0
    }

    /// The read models' catch-ups give way to commits, which clients wait for: the projector's
    /// thread runs at nice 10 (or lower, in a process already niced more), below the commit
    /// thread, which runs 10 steps above the main thread where the server may raise it (and the
    /// checkpoint thread, which it starts, stays as it was); and under the idle policy where the
    /// server may also move it back (`StarvationGuard`). Each of the server's own threads shows
    /// under its own name.
    @Test func theProjectorsThreadGivesWayToTheCommitThread() async throws {
        let keys = try storeWithKeys(events: 300, seed: 31)
        let server = try ServerProcess(store: keys.store, folder: folder.path)
        // It loads the read models at the server's priority, and gives way once they are loaded.
        #expect(try await server.becomesReady())
        let (nice, policy, threads) = try await threadPriorities(
            of: server.process.processIdentifier,
            naming: ["gtio-projector", "gtio-commit", "gtio-checkpoint", "gtio-log-watch", "gtio-idle-guard"])
        let projector = try #require(nice["gtio-projector"], "\(nice)")
        let commit = try #require(nice["gtio-commit"], "\(nice)")
        let checkpoint = try #require(nice["gtio-checkpoint"], "\(nice)")
        let main = try #require(nice["main"], "\(nice)")
        #expect(projector >= 10 && projector > commit, "\(nice)")
        // SCHED_IDLE (5) where the server may leave it again, as this process may.
        #expect(policy["gtio-projector"] == (ThreadPriority.mayLeaveIdle ? 5 : 0), "\(policy)")
        #expect(policy["gtio-idle-guard"] == 0 && policy["gtio-commit"] == 0, "\(policy)")
        if mayRaisePriority {
            #expect(commit == max(main - 10, -20), "\(nice)")
            #expect(checkpoint > commit, "\(nice)")
        }
        #expect(threads["gtio-commit"] == 1 && threads["gtio-checkpoint"] == 1 && threads["gtio-log-watch"] == 1, "\(threads)")
        #expect(threads["gtio-idle-guard"] == 1, "\(threads)")
        #expect(server.stop() == 0)
    }

    /// A server that may not raise its commit thread says so, and commits all the same.
    @Test func aServerWithoutTheRightToRaiseItsCommitThreadSaysSo() async throws {
        let keys = try storeWithKeys(events: 300, seed: 32)
        // No RLIMIT_NICE to raise a thread with, and no CAP_SYS_NICE where the tests have it
        // (dropping it from the bounding set needs that the tests have CAP_SETPCAP as well).
        let launcher = ["/usr/bin/prlimit", "--nice=0"] + (mayRaisePriority ? ["/usr/bin/setpriv", "--bounding-set=-sys_nice"] : [])
        let server = try ServerProcess(store: keys.store, folder: folder.path, launcher: launcher)
        #expect(try await server.becomesReady())
        let (nice, policy, _) = try await threadPriorities(
            of: server.process.processIdentifier, naming: ["gtio-commit", "gtio-projector"])
        let commit = try #require(nice["gtio-commit"], "\(nice)")
        #expect(commit >= nice["main"] ?? 0, "\(nice)")
        // Nor may it leave the idle policy: the catch-ups stay at nice 10, where they cannot starve.
        #expect(policy["gtio-projector"] == 0 && (nice["gtio-projector"] ?? 0) >= 10, "\(policy) \(nice)")
        let lines = try demoLines(events: 20, seed: 33)
        let reply = try await server.post(lines.joined(separator: "\n"), key: keys.write)
        #expect(reply.status == 200)
        #expect((reply.json as? [String: Any])?["appended"] as? Int == 20, "\(reply.text)")
        #expect(server.stop() == 0)
        let log = try String(contentsOfFile: server.stderrFile, encoding: .utf8)
        #expect(log.contains("the commit thread runs at the process's priority: raising it 10 nice steps"), "\(log)")
    }
    #endif

    @Test func aLeadingProjectorAppliesWhatTheServerAppends() async throws {
        let lines = try demoLines(events: 3_000, seed: 23)
        let keys = try storeWithKeys(events: 0, seed: 23)
        let projectorLog = folder.file("projector23.log")
        _ = FileManager.default.createFile(atPath: projectorLog, contents: nil)
        let projector = Process()
        projector.executableURL = URL(fileURLWithPath: GTIOBinary.path)
        projector.arguments = ["project", "--follow", "--store", keys.store]
        projector.standardOutput = FileHandle(forWritingAtPath: projectorLog)
        projector.standardError = FileHandle.nullDevice
        projector.standardInput = FileHandle.nullDevice
        try projector.run()
        defer { if projector.isRunning { kill(projector.processIdentifier, SIGKILL) } }
        let output = { (try? String(contentsOfFile: projectorLog, encoding: .utf8)) ?? "" }
        #expect(eventually(30) { output().contains("leading the read models") })
        let server = try ServerProcess(store: keys.store, folder: folder.path)
        for start in stride(from: 0, to: lines.count, by: 500) {
            let reply = try await server.post(lines[start..<min(start + 500, lines.count)].joined(separator: "\n"), key: keys.write)
            #expect(reply.status == 200)
        }
        let lastSeq = { try column(keys.store, "SELECT CAST(MAX(seq) AS TEXT) FROM events").first.flatMap { Int64($0) } ?? 0 }
        let applied = {
            try column(keys.store + "-tables", "SELECT CAST(MIN(seq) AS TEXT) FROM checkpoints WHERE name LIKE 'read_model.%'").first.flatMap { Int64($0) } ?? 0
        }
        #expect(try eventually(30) { try applied() == lastSeq() })
        #expect(server.stop() == 0)
        kill(projector.processIdentifier, SIGTERM)
        projector.waitUntilExit()
        let log = try String(contentsOfFile: server.stderrFile, encoding: .utf8)
        #expect(log.contains("read models: left to the projector that leads"), "\(log)")
        // Every event reached the tables through the projector: it reports them all applied.
        let reported = output().split(separator: "\n").compactMap { line -> Int? in
            guard line.hasPrefix("applied ") else { return nil }
            return Int(line.split(separator: " ")[1])
        }
        #expect(Int64(reported.reduce(0, +)) == (try lastSeq()))
        #expect(try lastSeq() > 2_900)
        #expect(try GTIOBinary.run(["rebuild", "--check", "--store", keys.store]).status == 0)
        let ingested = folder.file("ingested23.gtio")
        #expect(try GTIOBinary.run(["ingest", "--store", ingested, folder.write("all23.jsonl", lines.joined(separator: "\n") + "\n")]).status == 0)
        let answers = ["verdicts", "--format", "csv"]
        #expect(try GTIOBinary.run(answers + ["--store", keys.store]).stdout == GTIOBinary.run(answers + ["--store", ingested]).stdout)
    }

    /// With no `gtio project --follow` running, the server leads the read models itself: an
    /// ingest beside it leaves the tables to it, and the server applies those events with no
    /// request of its own; a decision beside it is checked against the server's tables. Neither
    /// one-shot process reads the fold's state back or scans the log for it.
    @Test(arguments: StoreBackend.all)
    func writersBesideTheServerLeaveTheReadModelsToIt(_ backend: StoreBackend) async throws {
        let lines = try demoLines(events: 1_500, seed: 37)
        let location = try backend.location(in: folder)
        let first = folder.write("first37.jsonl", lines.prefix(1_000).joined(separator: "\n") + "\n")
        #expect(try GTIOBinary.run(["ingest", first, "--store", location]).status == 0)
        let server = try ServerProcess(store: location, ["--no-auth"], folder: folder.path)
        // The server takes the lead with its first catch-up, which /ready waits for.
        #expect(try await server.becomesReady())
        let counted = ["GTIO_SCAN_STATS": "1"]
        let more = folder.write("more37.jsonl", lines.suffix(500).joined(separator: "\n") + "\n")
        let ingest = try GTIOBinary.run(["ingest", more, "--store", location], environment: counted)
        #expect(ingest.status == 0, "\(ingest.stderr)")
        #expect(ingest.stdout.contains("read models: left to the projector that leads"), "\(ingest.stdout)")
        #expect(ingest.stderr.contains("gtio: fold states read: 0"), "\(ingest.stderr)")

        // The queue as the server applied it: the ingest's flags are in it.
        let flags = try GTIOBinary.run(["flags", "--format", "csv", "--limit", "1", "--store", location], environment: counted)
        #expect(flags.stderr.contains("gtio: events scanned: 0"), "\(flags.stderr)")
        let row = try #require(flags.stdout.split(whereSeparator: \.isNewline).dropFirst().first, "\(flags)").split(separator: ",")
        let (item, version) = (String(row[0]), String(row[6]))
        let resolve = try GTIOBinary.run(
            ["resolve", item, "dismiss", "--as", "mod-37", "--expect", version, "--store", location], environment: counted)
        #expect(resolve.status == 0, "\(resolve.stderr)")
        #expect(resolve.stderr.contains("gtio: events scanned: 0"), "\(resolve.stderr)")
        #expect(resolve.stderr.contains("gtio: fold states read: 0"), "\(resolve.stderr)")

        let end = try #require(Int64(try GTIOBinary.run(["status", "--format", "json", "--store", location]).stdout
            .firstMatch(of: /"last_seq" *: *(\d+)/)?.1 ?? ""))
        #expect(end > 1_400)
        #expect(try eventually(30) {
            let status = try GTIOBinary.run(["status", "--format", "json", "--store", location]).stdout
            return status.matches(of: /"seq":(\d+),"lag":0,"current":true/).allSatisfy { Int64($0.1) == end }
                && status.matches(of: /"current":true/).count == ReadModelName.allCases.count
        })
        let decided = try GTIOBinary.run(["decisions", "--format", "csv", "--store", location]).stdout
        #expect(decided.contains(item) && decided.contains("mod-37"), "\(decided)")
        #expect(server.stop() == 0)
        #expect(try GTIOBinary.run(["rebuild", "--check", "--store", location]).status == 0)
    }

    /// Decisions made one after the other beside the server do not wait for its catch-up
    /// interval (ten minutes here): the one decision each leaves behind is applied at once.
    @Test func backToBackDecisionsBesideTheServerDoNotWaitForItsInterval() async throws {
        let location = folder.file("b41.gtio")
        let file = folder.write("b41.jsonl", try demoLines(events: 3_000, seed: 41).joined(separator: "\n") + "\n")
        #expect(try GTIOBinary.run(["ingest", file, "--store", location]).status == 0)
        let queue = try GTIOBinary.run(["flags", "--format", "csv", "--store", location]).stdout
        let items = queue.split(whereSeparator: \.isNewline).dropFirst().prefix(3).map { String($0.split(separator: ",")[0]) }
        #expect(items.count == 3)
        let server = try ServerProcess(store: location, ["--no-auth", "--project-interval", "600000"], folder: folder.path)
        #expect(try await server.becomesReady())
        for item in items {
            let started = Date()
            let resolve = try GTIOBinary.run(["resolve", item, "dismiss", "--as", "mod-41", "--store", location])
            #expect(resolve.status == 0, "\(resolve.stderr)")
            #expect(!resolve.stderr.contains("waiting for the projector"), "\(resolve.stderr)")
            #expect(Date().timeIntervalSince(started) < 20)
        }
        #expect(server.stop() == 0)
        #expect(try GTIOBinary.run(["rebuild", "--check", "--store", location]).status == 0)
    }

    /// A server that left the read models to `gtio project --follow` takes the lead once that
    /// process ends, without waiting for a commit, so that writers beside it keep leaving the
    /// tables to a leader.
    @Test func theServerTakesTheLeadWhenTheProjectorItDeferredToEnds() async throws {
        let keys = try storeWithKeys(events: 300, seed: 43)
        let projector = try GTIOBinary.start(["project", "--follow", "--store", keys.store])
        defer { if projector.isRunning { kill(projector.processIdentifier, SIGKILL) } }
        let store = try SQLiteStore(path: keys.store)
        #expect(try eventually(30) { try store.isLed(ReadModelFollower.role) })
        let server = try ServerProcess(store: keys.store, folder: folder.path)
        #expect(eventually(10) { server.log.contains("read models: left to the projector that leads") })
        kill(projector.processIdentifier, SIGTERM)
        projector.waitUntilExit()
        // No commit comes: the server's idle look finds no leader and takes the lead.
        #expect(eventually(10) { server.log.contains("read models: applied by this server again") })
        #expect(try store.isLed(ReadModelFollower.role))
        #expect(server.stop() == 0)
        #expect(try !store.isLed(ReadModelFollower.role))
    }

    /// A port another program listens on, or a host that does not resolve, is said in words
    /// (it was NIO's `bind(descriptor:ptr:bytes:): Address already in use) (errno: 98)`).
    @Test func aPlaceTheServerCannotListenOnIsNamed() async throws {
        let keys = try storeWithKeys(events: 0, seed: 5)
        let server = try ServerProcess(store: keys.store, folder: folder.path)
        // `timeout`: were the port taken anyway, the second server would never end on its own.
        let taken = try GTIOBinary.run(executable: "/usr/bin/timeout", [
            "60", GTIOBinary.path, "serve", "--store", keys.store, "--port", "\(server.port)", "--log-level", "warning"])
        #expect(taken.status == 1)
        #expect(taken.stderr == "gtio: cannot listen on 127.0.0.1:\(server.port): another program listens there (pick another --port, or stop that one)\n", "\(taken.stderr)")
        #expect(server.stop() == 0)
        let unknown = try GTIOBinary.run(executable: "/usr/bin/timeout", [
            "60", GTIOBinary.path, "serve", "--store", keys.store, "--bind", "no-such-host.invalid", "--port", "0", "--log-level", "warning"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.hasPrefix("gtio: cannot listen on no-such-host.invalid:0: no-such-host.invalid is not an address this machine resolves"), "\(unknown.stderr)")
    }

    @Test func eventsPostedOverHTTPLandAsIngestPutsThem() async throws {
        let lines = try demoLines(events: 4_000, seed: 21)
        let keys = try storeWithKeys(events: 0, seed: 21)
        let server = try ServerProcess(store: keys.store, folder: folder.path)
        // In order, a request at a time, as one phone would send them.
        for start in stride(from: 0, to: lines.count, by: 400) {
            let reply = try await server.post(lines[start..<min(start + 400, lines.count)].joined(separator: "\n"), key: keys.write)
            #expect(reply.status == 200)
        }
        #expect(server.stop() == 0)
        let ingested = folder.file("ingested.gtio")
        #expect(try GTIOBinary.run(["ingest", "--store", ingested, folder.write("all.jsonl", lines.joined(separator: "\n") + "\n")]).status == 0)
        let columns = "seq, id, type, at, user, device, subject, object, value, flag, number, text, CAST(original AS TEXT)"
        let sql = "SELECT \(columns) FROM events ORDER BY seq"
        let viaHTTP = try DatabaseQueue(path: keys.store).read { try Row.fetchAll($0, sql: sql) }
        let viaIngest = try DatabaseQueue(path: ingested).read { try Row.fetchAll($0, sql: sql) }
        #expect(viaHTTP.count > 3_900)  // the demo's few bad lines are quarantined by both
        #expect(viaHTTP == viaIngest)
        let answers = ["looks", "popular", "--format", "csv"]
        #expect(try GTIOBinary.run(answers + ["--store", keys.store]).stdout == GTIOBinary.run(answers + ["--store", ingested]).stdout)
    }

    /// A disk that fills (a file size limit stands in for it): reads before the read models
    /// are built answer 503 rather than a missing table's 500, events 507 with Retry-After,
    /// `/ready` says commits fail; once there is room the same request is taken and the
    /// server is ready again.
    @Test func aFullDiskAnswers507AndNotReadyUntilThereIsRoom() async throws {
        let prlimit = "/usr/bin/prlimit"
        try #require(FileManager.default.isExecutableFile(atPath: prlimit), "prlimit (util-linux) gives the server room again")
        let lines = try demoLines(events: 4_500, seed: 31)
        let store = folder.file("full.gtio")
        #expect(try GTIOBinary.run(["ingest", "--store", store, folder.write("first.jsonl", lines.prefix(1_500).joined(separator: "\n") + "\n")]).status == 0)
        // Without its read models, which need more room than the log holds.
        for suffix in ["-tables", "-tables-wal", "-tables-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) }
        let logBytes = try #require(try FileManager.default.attributesOfItem(atPath: store)[.size] as? Int)
        let limit = logBytes / 1024 + 128  // in KiB: the log opens, its next 3,000 events do not fit
        let server = try ServerProcess(
            store: store, ["--no-auth"], folder: folder.path, launcher: ["/bin/bash", "-c", "ulimit -S -f \(limit); exec \"$0\" \"$@\""])
        defer { _ = server.stop() }

        let read = try await server.request("GET", "/v1/looks/popular?limit=2")
        #expect(read.status == 503, "\(read.text)")
        #expect(read.text.contains("the read models are not built yet"), "\(read.text)")
        let more = lines.dropFirst(1_500).joined(separator: "\n")
        let refused = try await server.post(more, key: nil)
        #expect(refused.status == 507, "\(refused.text)")
        #expect(refused.headers["retry-after"] == "30")
        #expect(refused.text.contains("the disk holding the store (\(store)) is full, nothing was applied; retry later"), "\(refused.text)")
        let ready = try await server.request("GET", "/ready")
        #expect(ready.status == 503)
        #expect((ready.json as? [String: Any])?["reason"] as? String == "commits fail: the disk holding the store (\(store)) is full", "\(ready.text)")

        let room = try GTIOBinary.run(executable: prlimit, ["--pid", "\(server.process.processIdentifier)", "--fsize=unlimited:"])
        #expect(room.status == 0, "\(room.stderr)")
        let taken = try await server.post(more, key: nil)
        #expect(taken.status == 200, "\(taken.text)")
        // The refused request left nothing behind: the log ends where one ingest of all the lines ends.
        let whole = folder.file("whole.gtio")
        let ingested = try GTIOBinary.run(["ingest", "--store", whole, "--format", "json", folder.write("all.jsonl", lines.joined(separator: "\n") + "\n")])
        let expected = try #require(try JSONSerialization.jsonObject(with: Data(ingested.stdout.utf8)) as? [String: Any])["last_seq"] as? Int
        #expect((taken.json as? [String: Any])?["last_seq"] as? Int == expected, "\(taken.text)")
        #expect(try await server.becomesReady(within: 60))
        #expect(try await server.request("GET", "/v1/looks/popular?limit=2").status == 200)
        #expect(server.stop() == 0)
        #expect(try GTIOBinary.run(["verify", "--store", store]).status == 0)
    }
}
