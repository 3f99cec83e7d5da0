import Foundation
import GRDB
import GTIOCatalog
import GTIOTestSupport
import Testing
@testable import GTIOStore

/// A valid post.hearted line with id `id`, by `user`, at second `second` of 2012-04-23.
func heart(_ id: String, user: String = "u1", post: String = "p1", second: Int = 0) -> ValidatedEvent {
    let at = "2012-04-23T00:00:" + (second < 10 ? "0\(second)" : "\(second)") + "Z"
    return try! EventValidator.validate(
        #"{"id":"\#(id)","type":"post.hearted","at":"\#(at)","user":"\#(user)","data":{"post":"\#(post)"}}"#).get()
}

func batch(_ events: [ValidatedEvent], source: String = "test.jsonl", rejected: [RejectedLine] = []) -> EventBatch {
    EventBatch(source: source, events: events.enumerated().map { ($0.offset + 1, $0.element) }, rejected: rejected)
}

@Suite struct EventStoreTests {
    let folder = TemporaryDirectory()

    func store() throws -> EventStore { try EventStore(path: folder.file("log.gtio")) }

    @Test func appendAssignsGaplessSeqAndSkipsIDsAlreadyInTheLog() throws {
        let store = try store()
        let first = try store.append(batch([heart("a"), heart("b"), heart("c")]))
        #expect(first.appended == 3)
        #expect(first.firstSeq == 1)
        #expect(first.lastSeq == 3)
        let second = try store.append(batch([heart("b"), heart("d"), heart("a"), heart("e")]))
        #expect(second.appended == 2)
        #expect(second.duplicates == 2)
        #expect(second.firstSeq == 4)
        #expect(second.lastSeq == 5)
        var ids: [String] = []
        try store.readEvents(in: 1...99) { ids.append($0.event.id) }
        #expect(ids == ["a", "b", "c", "d", "e"])
        #expect(try store.lastSeq() == 5)
    }

    @Test func aResentIDWithDifferentContentKeepsTheFirst() throws {
        let store = try store()
        let outcome = try store.append(batch([heart("x", user: "first"), heart("x", user: "second")]))
        #expect(outcome.appended == 1)
        #expect(outcome.duplicates == 1)
        #expect(try store.event(at: 1)?.event.user == "first")
    }

    @Test func storesTypedColumnsAndTheOriginalVerbatim() throws {
        let store = try store()
        let lines = SharedFiles.exampleLines
        let events = try lines.map { try EventValidator.validate($0).get() }
        #expect(try store.append(batch(events)).appended == 37)
        for (index, line) in lines.enumerated() {
            let stored = try #require(try store.event(at: Int64(index + 1)))
            #expect(stored.event == events[index])
            #expect(stored.event.original == line)
        }
        let shown = try #require(try store.events(matching: { var f = EventFilter(); f.types = [.quickaddShown]; return f }()).first)
        #expect(shown.event.list == ["u797d76de", "ua4b66f8c"])
        // The columns are plain SQL for analysts.
        let row = try store.pool.read { db in
            try Row.fetchOne(db, sql: "SELECT type, at, user, subject, value, flag FROM events WHERE type = 'post.created'")!
        }
        #expect(row[0] == "post.created")
        #expect(row[1] == Timestamp(rfc3339: "2012-04-24T12:10:50.283Z")!.milliseconds)
        #expect(row[2] == "ua4b66f8c")
        #expect(row[3] == "p2545f4914f6d")
        #expect(row[4] == "outfit")
        #expect(row[5] == 1)
    }

    @Test func theDatabaseRefusesUpdatesDeletesAndGaps() throws {
        let store = try store()
        _ = try store.append(batch([heart("a"), heart("b")]))
        for sql in [
            "UPDATE events SET user = 'mallory' WHERE seq = 1",
            "DELETE FROM events WHERE seq = 2",
            "DELETE FROM event_ids",
            "UPDATE batches SET appended = 0",
            "INSERT INTO events (seq, id, type, at, recorded, v, original, batch) VALUES (9, 'z', 'track', 0, 0, 1, '{}', 1)",
            "INSERT OR REPLACE INTO events (seq, id, type, at, recorded, v, original, batch) VALUES (1, 'z', 'track', 0, 0, 1, '{}', 1)",
        ] {
            #expect(throws: DatabaseError.self, "\(sql)") { try store.pool.write { try $0.execute(sql: sql) } }
        }
        #expect(try store.event(at: 1)?.event.user == "u1")
        #expect(try store.lastSeq() == 2)
    }

    @Test func theSqlite3ShellIsRefusedToo() throws {
        let store = try store()
        _ = try store.append(batch([heart("a")]))
        for sql in ["UPDATE events SET user = 'mallory';", "DELETE FROM events;"] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
            process.arguments = [store.path, sql]
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus != 0)
            #expect(message.contains("the event log is append-only"))
        }
        #expect(try store.event(at: 1)?.event.user == "u1")
    }

    @Test func quarantinesRejectedLinesOnceWithSourceLineAndReason() throws {
        let store = try store()
        let broken: [UInt8] = Array("{\"id\":".utf8) + [0xFF, 0xFE]
        let rejected = [
            RejectedLine(line: 2, reason: "type: missing", original: Array(#"{"id":"e9"}"#.utf8)),
            RejectedLine(line: 3, reason: "invalid JSON: unexpected non-ASCII byte at byte 7", original: broken),
        ]
        let outcome = try store.append(batch([heart("a")], rejected: rejected))
        #expect(outcome.rejected == 2)
        #expect(outcome.quarantined == 2)
        // The same input again (an interrupted ingest re-run): nothing is kept twice.
        let again = try store.append(batch([heart("a")], rejected: rejected))
        #expect(again.quarantined == 0)
        let entries = try store.quarantineEntries()
        #expect(entries.count == 2)
        #expect(entries[0].source == "test.jsonl")
        #expect(entries[0].line == 2)
        #expect(entries[0].reason == "type: missing")
        #expect(entries[0].originalText == #"{"id":"e9"}"#)
        #expect(entries[1].original == broken)
        #expect(try store.status().quarantined == 2)
    }

    @Test func aCorrectedLineAtTheSameSourceAndLineSettlesItsEntry() throws {
        let store = try store()
        _ = try store.append(EventBatch(source: "f.jsonl", rejected: [RejectedLine(line: 1, reason: "bad", original: [1])]))
        let outcome = try store.append(EventBatch(source: "f.jsonl", events: [(1, heart("fixed"))]))
        #expect(outcome.settled == 1)
        let entry = try #require(try store.quarantineEntries(includeSettled: true).first)
        #expect(entry.status == "appended")
        #expect(entry.seq == 1)
        #expect(try store.quarantineEntries().isEmpty)
    }

    @Test func retryAppendsWhatIsNowValidAndKeepsTheRest() throws {
        let store = try store()
        let good = #"{"id":"ok","type":"post.hearted","at":"2012-04-23T00:00:00Z","user":"u","data":{"post":"p"}}"#
        _ = try store.append(EventBatch(source: "f.jsonl", rejected: [
            RejectedLine(line: 1, reason: "old reason", original: Array(good.utf8)),
            RejectedLine(line: 2, reason: "old reason", original: Array("nope".utf8)),
        ]))
        let outcome = try store.retryQuarantine { bytes in bytes.withUnsafeBufferPointer { EventValidator.validate($0) } }
        #expect(outcome == { var o = QuarantineRetryOutcome(); o.appended = 1; o.stillRejected = 1; return o }())
        #expect(try store.event(at: 1)?.event.id == "ok")
        let open = try store.quarantineEntries()
        #expect(open.map(\.line) == [2])
        #expect(open[0].reason == "invalid JSON: invalid literal (expected true, false or null) at byte 1")
    }

    @Test func checkpointsCommitOrRollBackWithTheirTransaction() throws {
        let store = try store()
        #expect(try store.checkpoint(named: "looks") == 0)
        try store.pool.write { try EventStore.setCheckpoint($0, name: "looks", seq: 7) }
        #expect(try store.checkpoint(named: "looks") == 7)
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try store.pool.write { db in
                try EventStore.setCheckpoint(db, name: "looks", seq: 9)
                throw Boom()
            }
        }
        #expect(try store.checkpoint(named: "looks") == 7)
    }

    @Test func reopeningKeepsTheLog() throws {
        _ = try store().append(batch([heart("a"), heart("b")]))
        let reopened = try store()
        #expect(try reopened.status().events == 2)
        #expect(try reopened.append(batch([heart("b"), heart("c")])).appended == 1)
    }
}
