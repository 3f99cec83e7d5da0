import Foundation
import GRDB
import GTIOCatalog
import GTIOTestSupport
import Testing
import GTIOStore
@testable import GTIOStoreSQLite

/// The attacks of someone who can write the store file, each caught by `verify` with the key
/// (and the anchor, for a cut tail), naming where.
@Suite struct TamperEvidenceTests {
    let folder = TemporaryDirectory()
    let signer = BatchSigner()
    var key: SigningPublicKey { signer.publicKey }

    /// Two signed batches: seqs 1–2 (batch 1) and 3–4 (batch 2).
    func signedStore() throws -> SQLiteStore {
        let store = try SQLiteStore(path: folder.file("log.gtio"), signer: signer)
        // Every id in `event_ids` at once, rather than once 65,536 wait (`RecentIDs`).
        store.recentIDs.minimumRun = 1
        _ = try store.append(batch([heart("a"), heart("b")]))
        _ = try store.append(batch([heart("c"), heart("d")], source: "second.jsonl"))
        return store
    }

    func execute(_ store: SQLiteStore, _ sql: String) throws {
        try store.pool.write { try $0.execute(sql: sql) }
    }

    func problem(_ verdict: LogVerdict) -> (seq: Int64, text: String)? {
        if case .broken(let seq, let problem) = verdict { return (seq, problem) }
        return nil
    }

    @Test func aSignedLogIsProvenToItsEnd() throws {
        let store = try signedStore()
        let verdict = try store.verify(LogAudit(key: key))
        guard case .intact(let events, _, let signatures, _) = verdict else { Issue.record("\(verdict)"); return }
        #expect(events == 4)
        #expect(signatures == SignatureFindings(signedBatches: 2, lastSignedSeq: 4, checked: true, anchors: 0))
    }

    @Test func plainInsertsAndReplacesAreRefused() throws {
        let store = try signedStore()
        for sql in [
            // A forged append without the append path's hash, or into a batch already recorded.
            "INSERT INTO events (seq, id, type, at, recorded, v, original, batch) VALUES (NULL, 'z', 'track', 0, 0, 1, '{}', 3)",
            "INSERT INTO events (seq, id, type, at, recorded, v, original, batch, hash) VALUES (NULL, 'z', 'track', 0, 0, 1, '{}', 2, zeroblob(32))",
            "REPLACE INTO batches (batch, source, read, appended, duplicates, rejected, recorded) VALUES (1, 'elsewhere', 2, 0, 0, 0, 0)",
            "INSERT INTO batches (batch, source, first_seq, last_seq, read, appended, duplicates, rejected, recorded) VALUES (3, 'x', 5, 5, 1, 1, 0, 0, 0)",
            "REPLACE INTO event_lists (seq, position, user) VALUES (1, 0, 'mallory')",
            "INSERT INTO event_properties (seq, name, position, text) VALUES (1, 'brands', 0, 'mallory')",
            "REPLACE INTO batch_signatures SELECT * FROM batch_signatures WHERE batch = 1",
            "DELETE FROM batch_signatures",
        ] {
            #expect(throws: DatabaseError.self, "\(sql)") { try execute(store, sql) }
        }
        #expect(try store.verify(LogAudit(key: key)) == .intact(
            events: 4, head: try #require(try store.lastSignature()).head,
            signatures: SignatureFindings(signedBatches: 2, lastSignedSeq: 4, checked: true)))
    }

    @Test func aForgedAppendWithACorrectChainIsAnUnsignedTail() throws {
        _ = try signedStore()
        // The forger knows the chain's rules (gtio itself, without the key, is the easiest way).
        let forger = try SQLiteStore(path: folder.file("log.gtio"))
        _ = try forger.append(batch([heart("forged")], source: "forger"))
        guard case .intact = try forger.verify() else { Issue.record("the chain alone cannot tell"); return }
        let found = try #require(problem(try forger.verify(LogAudit(key: key))))
        #expect(found.seq == 5)
        #expect(found.text.hasPrefix("unsigned: seq 5 carries no head signed by key \(key.shortName)"))
    }

    @Test func aSignatureByAnotherKeyProvesNothing() throws {
        _ = try signedStore()
        let forger = try SQLiteStore(path: folder.file("log.gtio"), signer: BatchSigner())
        _ = try forger.append(batch([heart("forged")], source: "forger"))
        let found = try #require(problem(try forger.verify(LogAudit(key: key))))
        #expect(found.seq == 5)
        #expect(found.text.hasPrefix("unsigned:"))
    }

    @Test func aRewriteWithARecomputedChainBreaksTheSignedHead() throws {
        let store = try signedStore()
        try execute(store, "DROP TRIGGER events_no_update; UPDATE events SET user = 'mallory' WHERE seq = 3")
        try store.pool.write { db in
            var hashes: [(Int64, [UInt8])] = []
            let previous = try Data.fetchOne(db, sql: "SELECT hash FROM events WHERE seq = 2").map(Array.init)!
            try SQLiteStore.chainStoredEvents(after: 2, from: previous, in: db) { seq, hash, _ in
                hashes.append((seq, hash))
                return true
            }
            for (seq, hash) in hashes { try db.execute(sql: "UPDATE events SET hash = ? WHERE seq = ?", arguments: [Data(hash), seq]) }
        }
        // The stored signatures are checked even without the key; with it, re-signing by the
        // attacker's own key would not help either (aSignatureByAnotherKeyProvesNothing).
        for audit in [LogAudit(), LogAudit(key: key)] {
            let found = try #require(problem(try store.verify(audit)))
            #expect(found.seq == 3)
            #expect(found.text.hasPrefix("changed: the events from seq 3 to 4 no longer give the head signed for batch 2"))
        }
    }

    @Test func aCutTailIsFoundByItsSignatureOrByTheAnchor() throws {
        let store = try signedStore()
        let anchor = try #require(try store.lastSignature())
        try execute(store, """
            DROP TRIGGER events_no_delete; DROP TRIGGER batches_no_delete; DROP TRIGGER event_ids_no_delete;
            DELETE FROM events WHERE batch = 2; DELETE FROM batches WHERE batch = 2; DELETE FROM event_ids WHERE id IN ('c', 'd');
            DELETE FROM event_days WHERE first_seq > 2; UPDATE event_days SET last_seq = MIN(last_seq, 2);
            DROP TRIGGER event_ids_through_forward; UPDATE event_ids_through SET seq = 2;
            """)
        let bySignature = try #require(problem(try store.verify(LogAudit(key: key))))
        #expect(bySignature.seq == 3)
        #expect(bySignature.text == "cut: batch 2 was signed with the log reaching seq 4, but it ends at seq 2")

        try execute(store, "DROP TRIGGER batch_signatures_no_delete; DELETE FROM batch_signatures WHERE batch = 2")
        guard case .intact = try store.verify(LogAudit(key: key)) else { Issue.record("without the anchor, the cut is complete"); return }
        let parsed = try HeadAnchor.parse(HeadAnchor.line(anchor) + "\n")
        #expect(parsed == [anchor])
        let byAnchor = try #require(problem(try store.verify(LogAudit(key: key, anchors: parsed))))
        #expect(byAnchor.seq == 3)
        #expect(byAnchor.text.hasPrefix("cut: batch 2"))
    }

    @Test func deletedDedupRowsAreFoundBeforeAndAfterAReingest() throws {
        let store = try signedStore()
        try execute(store, "DROP TRIGGER event_ids_no_delete; DELETE FROM event_ids WHERE id = 'b'")
        let missing = try #require(problem(try store.verify()))
        #expect(missing.seq == 2)
        #expect(missing.text.hasPrefix("dedup index: this event's id is missing"))

        _ = try store.append(batch([heart("b")]))
        let twice = try #require(problem(try store.verify()))
        #expect(twice.seq == 5)
        #expect(twice.text.hasPrefix("duplicated: id b was appended at seq 2 and again here"))
    }

    /// The newest events' ids wait outside `event_ids` until enough of them can move in together;
    /// a mark moved past them by hand (which only dropping a trigger allows) is found.
    @Test func aDedupMarkMovedPastIdsNotInTheIndexIsFound() throws {
        let store = try SQLiteStore(path: folder.file("mark.gtio"))
        _ = try store.append(batch([heart("a"), heart("b"), heart("c")]))
        guard case .intact = try store.verify() else { Issue.record("ids waiting outside event_ids are no damage"); return }
        try execute(store, "DROP TRIGGER event_ids_through_forward; UPDATE event_ids_through SET seq = 3")
        let missing = try #require(problem(try store.verify()))
        #expect(missing.seq == 1)
        #expect(missing.text.hasPrefix("dedup index: this event's id is missing"))

        // With the mark past it, `a` is appended again; with the mark back, both are among the newer ids.
        #expect(try store.append(batch([heart("a")])).appended == 1)
        try execute(store, "UPDATE event_ids_through SET seq = 0")
        let twice = try #require(problem(try store.verify()))
        #expect(twice.seq == 4)
        #expect(twice.text == "duplicated: id a was appended at seq 1 and again here (past the dedup check)")
    }

    /// Insights read the window index alone, and SQLite's `quick_check` does not hold an index's
    /// entries to the rows: an entry edited in the file is found by `verify`, named at its seq,
    /// and gone once the index is made again.
    @Test func anEditedEntryOfTheWindowIndexIsFound() throws {
        let path = folder.file("window.gtio")
        let users = ["user-AAAA", "user-BBBB", "user-CCCC", "user-DDDD", "user-EEEE", "user-FFFF", "user-GGGG"]
        let page: Int64, pageSize: Int64
        do {
            let store = try SQLiteStore(path: path)
            _ = try store.append(batch((0..<3_000).map { heart("h\($0)", user: users[$0 % 7], post: "p\($0 % 11)") }))
            guard case .intact = try store.verify() else { Issue.record("the log is intact before the edit"); return }
            (page, pageSize) = try store.pool.read { db in
                (try #require(try Int64.fetchOne(db, sql: """
                    SELECT pageno FROM dbstat WHERE name = 'events_window' AND pagetype = 'leaf' ORDER BY pageno LIMIT 1 OFFSET 2
                    """)), try #require(try Int64.fetchOne(db, sql: "PRAGMA page_size")))
            }
        }
        // Every page in the file itself, none left in the write-ahead log.
        try DatabaseQueue(path: path).writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        let file = try #require(FileHandle(forUpdatingAtPath: path))
        try file.seek(toOffset: UInt64((page - 1) * pageSize))
        var bytes = [UInt8](try #require(try file.read(upToCount: Int(pageSize))))
        let name = Array("user-AAAA".utf8)
        let at = try #require((0...(bytes.count - name.count)).last { Array(bytes[$0..<$0 + name.count]) == name })
        bytes[at + name.count - 1] = UInt8(ascii: "B")
        try file.seek(toOffset: UInt64((page - 1) * pageSize))
        try file.write(contentsOf: bytes)
        try file.close()

        let store = try SQLiteStore(path: path)
        #expect(try store.pool.read { try String.fetchAll($0, sql: "PRAGMA quick_check") } == ["ok"])
        let edited = try #require(problem(try store.verify()))
        // The events of user-AAAA are the 1st, 8th, 15th…
        #expect(edited.seq % 7 == 1)
        #expect(edited.text.hasPrefix("window index: its user differs from the event's"))
        try store.pool.writeWithoutTransaction { try $0.execute(sql: "REINDEX events_window") }
        guard case .intact = try store.verify() else { Issue.record("the index made again from the rows"); return }
    }

    @Test func anEditedBatchRecordIsNotTheOneSigned() throws {
        let store = try signedStore()
        try execute(store, """
            DROP TRIGGER batches_append;
            REPLACE INTO batches SELECT batch, 'innocent.jsonl', first_line, last_line, first_seq, last_seq, read, appended, duplicates, rejected, recorded
            FROM batches WHERE batch = 1;
            """)
        #expect(try store.pool.read { try String.fetchOne($0, sql: "SELECT source FROM batches WHERE batch = 1") } == "innocent.jsonl")
        let found = try #require(problem(try store.verify(LogAudit(key: key))))
        #expect(found.seq == 2)
        #expect(found.text.hasPrefix("changed: batch 1's record"))
    }

    @Test func aKeyFileRoundTripsAndIsPrivate() throws {
        let path = folder.file("keys/signing.key")
        try signer.write(to: path)
        #expect(try BatchSigner(contentsOf: path).publicKey == key)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        #expect(throws: SigningKeyError.alreadyExists(path: path)) { try BatchSigner().write(to: path) }
        #expect(try SigningPublicKey(text: key.description) == key)
        #expect(throws: SigningKeyError.self) { try SigningPublicKey(text: "ed25519:1234") }
    }

    @Test func theGuardsOfAStoreANewerGtioMigratedAreLeftToIt() throws {
        let path = folder.file("newer.gtio")
        do {
            let store = try SQLiteStore(path: path)
            _ = try store.append(batch([heart("a")]))
            #expect(try store.guardFindings() == [])
            try execute(store, """
                INSERT INTO grdb_migrations (identifier) VALUES ('v99 from the future');
                CREATE TRIGGER events_v99 BEFORE INSERT ON events BEGIN SELECT 1; END;
                """)
            store.settle()
        }
        // Read, it is checked as far as this build can: the chain, but not triggers it does not know.
        let reader = try SQLiteStore(path: path, readOnly: true)
        #expect(try reader.guardFindings() == nil)
        guard case .intact = try reader.verify() else { Issue.record("the events are as appended"); return }
    }
}
