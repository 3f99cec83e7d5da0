import Foundation
import GRDB
import GTIOStore
import GRDBSQLite

extension SQLiteStore {
    /// Hashes every stored event after `seq` in seq order, straight from SQLite's column bytes
    /// (no Swift strings), calling `body` with each seq, the hash the chain gives it, and the
    /// hash stored with it (nil before the chain existed, or when it is missing).
    static func chainStoredEvents(
        after seq: Int64, from previous: [UInt8], in db: Database,
        _ body: (Int64, [UInt8], UnsafeRawBufferPointer?) throws -> Bool
    ) throws {
        let hasHashColumn = try db.columns(in: "events").contains { $0.name == "hash" }
        let statement = try db.makeStatement(sql: """
            SELECT seq, id, type, at, recorded, user, device, v, subject, object, value, flag, number, text, original, batch\(hasHashColumn ? ", hash" : "")
            FROM events WHERE seq > ? ORDER BY seq
            """)
        let handle = statement.sqliteStatement
        sqlite3_bind_int64(handle, 1, seq)
        let lists = try db.makeStatement(sql: "SELECT user FROM event_lists WHERE seq = ? ORDER BY position")
        var chain = EventHashChain()
        var hash = previous
        func text(_ column: Int32) {
            guard let pointer = sqlite3_column_text(handle, column) else { return chain.null() }
            chain.text(UnsafeRawBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(handle, column))))
        }
        func integer(_ column: Int32) {
            chain.integer(sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : sqlite3_column_int64(handle, column))
        }
        while try nextRow(handle, in: db) {
            let seq = sqlite3_column_int64(handle, 0)
            chain.begin()
            text(1); text(2); integer(3); text(5); text(6); integer(7); text(8); text(9); text(10); integer(11)
            chain.number(sqlite3_column_type(handle, 12) == SQLITE_NULL ? nil : sqlite3_column_double(handle, 12))
            text(13); text(14)
            let isShown = sqlite3_column_bytes(handle, 2) == 14
                && memcmp(sqlite3_column_text(handle, 2), "quickadd.shown", 14) == 0
            let list = isShown ? try String.fetchAll(lists, arguments: [seq]) : []
            chain.integer(Int64(list.count))
            for user in list { chain.text(user) }
            hash = chain.finish().withUnsafeBytes { digest in
                EventHashChain.link(
                    after: hash, seq: seq, recorded: sqlite3_column_int64(handle, 4), batch: sqlite3_column_int64(handle, 15),
                    digest: digest)
            }
            let stored = hasHashColumn && sqlite3_column_type(handle, 16) == SQLITE_BLOB
                ? UnsafeRawBufferPointer(start: sqlite3_column_blob(handle, 16), count: Int(sqlite3_column_bytes(handle, 16)))
                : nil
            guard try body(seq, hash, stored) else { return }
        }
    }

    /// Walks the whole log: a gap in seq, a missing or wrong hash, a log shorter than its
    /// batches say, ids that disagree with the dedup index, or (with `audit`) a head that its
    /// signature or an anchor contradicts, reported at the first seq where it happens.
    public func verify(_ audit: LogAudit, progress: (Int64) -> Void) throws -> LogVerdict {
        try readDatabase { db in
            if let problem = try Self.quickCheck(db) { return .broken(seq: 0, problem: problem) }
            let stored = try Self.signatures(in: db)
            let records = try Self.batchRecords(in: db)
            // The signed heads to meet on the walk, by seq: those by the audit's key (all of
            // them when it gave none, to check that each matches its own batch), and the anchors.
            let signatures = audit.key.map { key in stored.filter { $0.publicKey == key.bytes } } ?? stored
            // Each signature is checked with the audit's key, or without one with the key stored beside it.
            func forged(_ signature: BatchSignature, _ what: String) -> LogVerdict? {
                guard let key = audit.key ?? (try? SigningPublicKey(bytes: signature.publicKey)),
                      !signature.isValid(by: key) else { return nil }
                return .broken(seq: signature.lastSeq, problem: "forged: \(what) does not verify with key \(key.shortName)")
            }
            for signature in signatures {
                if let verdict = forged(signature, "batch \(signature.batch)'s signature") { return verdict }
                // A signature whose batch row is gone is judged after the walk: a cut tail, or a deleted row.
                if let record = records[signature.batch], record.digest != signature.record {
                    return .broken(seq: signature.lastSeq, problem: "changed: batch \(signature.batch)'s record (source, lines, counts) is not the one signed")
                }
            }
            for anchor in audit.anchors {
                if let verdict = forged(anchor, "the anchor of batch \(anchor.batch)") { return verdict }
            }
            var heads = (signatures + audit.anchors).map { ($0.lastSeq, $0) }.sorted { $0.0 < $1.0 }[...]
            while let first = heads.first, first.0 == 0 { heads = heads.dropFirst() }

            var expected: Int64 = 1
            var head = EventHashChain.genesis
            var lastMet: Int64 = 0
            var verdict: LogVerdict?
            try SQLiteStore.chainStoredEvents(after: 0, from: EventHashChain.genesis, in: db) { seq, hash, stored in
                if seq != expected {
                    verdict = .broken(seq: expected, problem: "missing: the log jumps from seq \(expected - 1) to \(seq)")
                    return false
                }
                guard let stored else {
                    verdict = .broken(seq: seq, problem: "no hash recorded for this event")
                    return false
                }
                if !stored.elementsEqual(hash) {
                    verdict = .broken(seq: seq, problem: "changed: its content does not match the hash chain")
                    return false
                }
                while let (at, signature) = heads.first, at == seq {
                    guard signature.head == hash else {
                        verdict = .broken(seq: lastMet + 1, problem: """
                            changed: the events from seq \(lastMet + 1) to \(seq) no longer give the head signed for batch \(signature.batch) \
                            (rewritten with a recomputed chain)
                            """)
                        return false
                    }
                    lastMet = seq
                    heads = heads.dropFirst()
                }
                if seq & 0xFFFF == 0 { progress(seq) }
                head = hash
                expected += 1
                return true
            }
            if let verdict { return verdict }
            let last = expected - 1
            if let (at, signature) = heads.first {
                return .broken(seq: last + 1, problem: """
                    cut: batch \(signature.batch) was signed with the log reaching seq \(at), but it ends at seq \(last)
                    """)
            }
            if let signature = signatures.first(where: { records[$0.batch] == nil }) {
                return .broken(seq: signature.lastSeq, problem: "missing: the record of batch \(signature.batch), which was signed, is gone from batches")
            }
            if let odd = try Int64.fetchOne(db, sql: "SELECT MIN(seq) FROM events WHERE seq <= 0") {
                return .broken(seq: odd, problem: "inserted: no event is ever appended at a seq below 1")
            }
            let batchesEnd = try Int64.fetchOne(db, sql: "SELECT IFNULL(MAX(last_seq), 0) FROM batches") ?? 0
            if batchesEnd > last {
                return .broken(seq: last + 1, problem: "missing: batches appended up to seq \(batchesEnd) but the log ends at \(last)")
            }
            if let problem = try Self.idsDisagree(in: db) { return problem }
            let lastSigned = signatures.map(\.lastSeq).max() ?? 0
            if let key = audit.key, lastSigned < last {
                let tail = lastSigned + 1 == last ? "seq \(last) carries" : "seqs \(lastSigned + 1)–\(last) carry"
                return .broken(seq: lastSigned + 1, problem: """
                    unsigned: \(tail) no head signed by key \(key.shortName) \
                    (appended without the signing key, or forged); the log is proven up to seq \(lastSigned)
                    """)
            }
            return .intact(events: last, head: head, signatures: SignatureFindings(
                signedBatches: stored.count, lastSignedSeq: lastSigned, checked: audit.key != nil, anchors: audit.anchors.count))
        }
    }

    /// SQLite's own check of the file's structure; nil when it finds nothing.
    private static func quickCheck(_ db: Database) throws -> String? {
        let answers = try String.fetchAll(db, sql: "PRAGMA quick_check")
        return answers == ["ok"] ? nil : "the file is damaged: " + answers.prefix(3).joined(separator: "; ")
    }

    /// The dedup index must hold exactly the log's ids: one missing lets a re-ingest append that
    /// id again, an extra one makes an event look like a duplicate that never was appended.
    private static func idsDisagree(in db: Database) throws -> LogVerdict? {
        let events = try Int64.fetchOne(db, sql: "SELECT COUNT(*) FROM events") ?? 0
        let ids = try Int64.fetchOne(db, sql: "SELECT COUNT(*) FROM event_ids") ?? 0
        guard events != ids else { return nil }
        if let row = try Row.fetchOne(db, sql: """
            SELECT id, MIN(seq), MAX(seq) FROM events GROUP BY id HAVING COUNT(*) > 1 ORDER BY MAX(seq) LIMIT 1
            """) {
            let id: String = row[0], first: Int64 = row[1], again: Int64 = row[2]
            return .broken(seq: again, problem: "duplicated: id \(id) was appended at seq \(first) and again here (its dedup row was deleted)")
        }
        if let seq = try Int64.fetchOne(db, sql: "SELECT MIN(seq) FROM events WHERE id NOT IN (SELECT id FROM event_ids)") {
            return .broken(seq: seq, problem: "dedup index: this event's id is missing from event_ids (a re-ingest would append it twice)")
        }
        return .broken(seq: 0, problem: "dedup index: event_ids holds \(ids) ids for \(events) events (ids without an event)")
    }
}
