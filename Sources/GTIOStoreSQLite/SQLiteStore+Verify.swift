import Foundation
import GRDB
import GTIOCatalog
import GTIOStore
import GRDBSQLite
import Synchronization

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

    /// Walks the whole log (see `ChainVerifier`), after SQLite's check of the file and with its
    /// own of the dedup index, reported at the first seq where something is wrong.
    ///
    /// SQLite's check of the file, of the property rows and of the window index read the log on
    /// a connection and a core of their own while the chain is walked, which is what a large
    /// log's verify waits for (docs/PERFORMANCE.md). A damaged file is named first; the other
    /// findings come after the chain's. Both connections see a whole number of commits of an
    /// append-only log, so what each finds holds of the log as the other sees it, up to the
    /// events appended between their two starts.
    public func verify(_ audit: LogAudit, progress: (Int64) -> Void) throws -> LogVerdict {
        let chainDone = ChainDone()
        let aside = WorkAside(named: "gtio-verify") { [self] in
            try readDatabase { db -> (file: String?, derived: LogVerdict?) in
                if let problem = try Self.quickCheck(db) { return (problem, nil) }
                // A chain that broke is reported before these: they are not read for nothing.
                if chainDone.isSet { return (nil, nil) }
                if let verdict = try Self.propertiesDisagree(in: db) { return (nil, verdict) }
                if chainDone.isSet { return (nil, nil) }
                return (nil, try Self.windowIndexDisagrees(in: db))
            }
        }
        let chained: Result<LogVerdict, any Error> = Result {
            try readDatabase { db in
                var verifier = ChainVerifier(audit: audit, signatures: try Self.signatures(in: db), records: try Self.batchRecords(in: db))
                if let verdict = verifier.checkSignatures() { return verdict }
                var verdict: LogVerdict?
                try SQLiteStore.chainStoredEvents(after: 0, from: EventHashChain.genesis, in: db) { seq, hash, stored in
                    verdict = verifier.visit(seq: seq, hash: hash, stored: stored)
                    if seq & 0xFFFF == 0 { progress(seq) }
                    return verdict == nil
                }
                if let verdict { return verdict }
                return try verifier.finish(
                    lowestSeq: try Int64.fetchOne(db, sql: "SELECT MIN(seq) FROM events"),
                    batchesEnd: try Int64.fetchOne(db, sql: "SELECT IFNULL(MAX(last_seq), 0) FROM batches") ?? 0,
                    backendCheck: { try Self.idsDisagree(in: db) ?? Self.daysDisagree(in: db) ?? aside.outcome().derived })
            }
        }
        // The walk has taken the derived checks' finding if it needed it (an intact chain); if
        // it broke, only the file's check is still to come.
        chainDone.set()
        // A damaged file is named first, even where reading it made the chain's walk fail.
        if let problem = try aside.outcome().file { return .broken(seq: 0, problem: problem) }
        return try chained.get()
    }

    /// Set once the chain's side of `verify` has its verdict, for the second connection to leave
    /// out checks that can no longer be reported.
    private final class ChainDone: Sendable {
        private let flag = Atomic<Bool>(false)
        func set() { flag.store(true, ordering: .relaxed) }
        var isSet: Bool { flag.load(ordering: .relaxed) }
    }

    /// SQLite's own check of the file's structure; nil when it finds nothing.
    private static func quickCheck(_ db: Database) throws -> String? {
        // The log's file only: the tables file holds what a rebuild writes again.
        let answers = try String.fetchAll(db, sql: "PRAGMA main.quick_check")
        return answers == ["ok"] ? nil : "the file is damaged: " + answers.prefix(3).joined(separator: "; ")
    }

    /// `event_days` must hold each day's first and last seq and time: a day missing or narrowed
    /// there hides its events from every scan of a time window (insights), and a wrong time
    /// moves the log's ends (`status`, an insight's "now").
    private static func daysDisagree(in db: Database) throws -> LogVerdict? {
        let log = try EventDays.ofLog(in: db), stored = try EventDays.stored(in: db)
        guard log != stored else { return nil }
        for day in Set(log.spans.keys).union(stored.spans.keys).sorted() where log.spans[day] != stored.spans[day] {
            let date = Timestamp.dateString(ofDay: day)
            guard let span = log.spans[day] else {
                let found = stored.spans[day].map { "seqs \($0.seqs.lowerBound)…\($0.seqs.upperBound)" } ?? "no row"
                return .broken(seq: 0, problem: "event_days: \(date) has \(found) but no event of the log falls on that day")
            }
            guard let found = stored.spans[day], found.seqs == span.seqs else {
                let found = stored.spans[day].map { "seqs \($0.seqs.lowerBound)…\($0.seqs.upperBound)" } ?? "no row"
                return .broken(
                    seq: span.seqs.lowerBound,
                    problem: "event_days: \(date) has \(found) where its events lie at seqs \(span.seqs.lowerBound)…\(span.seqs.upperBound) (insights over that day would miss events)")
            }
            func time(_ milliseconds: Int64) -> String { Timestamp(milliseconds: milliseconds).description }
            return .broken(
                seq: span.seqs.lowerBound,
                problem: "event_days: \(date) has times \(time(found.times.lowerBound))…\(time(found.times.upperBound)) where its events happened \(time(span.times.lowerBound))…\(time(span.times.upperBound)) (the log's first and last times would be wrong)")
        }
        return nil
    }

    /// `event_properties` must hold what the originals give (`PropertyAudit`).
    private static func propertiesDisagree(in db: Database) throws -> LogVerdict? {
        let types = PropertyAudit.types.map { "'\($0.rawValue)'" }.joined(separator: ",")
        let events = try db.makeStatement(sql: "SELECT seq, original FROM events WHERE type IN (\(types)) ORDER BY seq")
        let rows = events.sqliteStatement, properties = try PropertyCursor(afterSeq: .min, in: db)
        return try PropertyAudit.compare(
            events: {
                guard try nextRow(rows, in: db) else { return nil }
                return (sqlite3_column_int64(rows, 0), SQLiteRowCursor.bytes(rows, 1).map { String(decoding: $0, as: UTF8.self) } ?? "")
            },
            properties: properties.next)
    }

    /// The window index must hold each event's `type`, `at`, `user`, `device` and `value` as its
    /// row does: insights and time ranges read the index alone, and SQLite's `quick_check`
    /// checks an index's pages, not that its entries match the rows. Both are read in seq order
    /// and compared entry by entry; the first seq where they differ is named.
    static func windowIndexDisagrees(in db: Database) throws -> LogVerdict? {
        let names = ["seq", "type", "at", "user", "device", "value"], columns = names.joined(separator: ", ")
        let index = try db.makeStatement(sql: "SELECT \(columns) FROM events INDEXED BY \(windowIndex) ORDER BY seq")
        let rows = try db.makeStatement(sql: "SELECT \(columns) FROM events NOT INDEXED ORDER BY seq")
        let fromIndex = index.sqliteStatement, fromRow = rows.sqliteStatement
        func same(_ column: Int32) -> Bool {
            DatabaseValue(sqliteStatement: fromIndex, index: column) == DatabaseValue(sqliteStatement: fromRow, index: column)
        }
        while true {
            let inIndex = try nextRow(fromIndex, in: db), inRows = try nextRow(fromRow, in: db)
            guard inIndex || inRows else { return nil }
            guard inIndex && inRows else {
                let seq = sqlite3_column_int64(inIndex ? fromIndex : fromRow, 0)
                return .broken(seq: seq, problem: inIndex
                    ? "window index: it holds seq \(seq), past the log's last event \(Self.reindexAdvice)"
                    : "window index: it ends before this event \(Self.reindexAdvice)")
            }
            if let column = (0..<Int32(names.count)).first(where: { !same($0) }) {
                let seq = min(sqlite3_column_int64(fromIndex, 0), sqlite3_column_int64(fromRow, 0))
                return .broken(seq: seq, problem: "window index: its \(names[Int(column)]) differs from the event's \(Self.reindexAdvice)")
            }
        }
    }

    /// What to do about a window index that differs from the rows.
    private static let reindexAdvice = "(insights would read it; `REINDEX \(windowIndex)` in sqlite3 makes it again from the rows)"

    /// The dedup index must hold exactly the log's ids, less those of the newest events that
    /// have not moved there yet (`RecentIDs`): one missing lets a re-ingest append that id again,
    /// an extra one makes an event look like a duplicate that never was appended.
    ///
    /// Counted first: `event_ids` holds one row per distinct id, so it holds exactly the ids of
    /// the events through `event_ids_through` and some of the newer ones' when it has as many
    /// rows as those, no newer id is twice among the newer events, and every id through the mark
    /// is there. A duplicated id, anywhere, makes the count come short.
    private static func idsDisagree(in db: Database) throws -> LogVerdict? {
        let through = try RecentIDs.storedThrough(in: db)
        let end = try Int64.fetchOne(db, sql: "SELECT IFNULL(MAX(seq), 0) FROM events") ?? 0
        guard through <= end else {
            return .broken(seq: end, problem: "dedup index: event_ids_through stands at seq \(through), past the log's end (events after it were removed)")
        }
        let ids = try Int64.fetchOne(db, sql: "SELECT COUNT(*) FROM event_ids") ?? 0
        let early = try Int64.fetchOne(db, sql: "SELECT COUNT(*) FROM events WHERE seq > ? AND id IN event_ids", arguments: [through]) ?? 0
        let newerTwice = try Row.fetchOne(db, sql: """
            SELECT id, MIN(seq), MAX(seq) FROM events WHERE seq > ? GROUP BY id HAVING COUNT(*) > 1 ORDER BY MAX(seq) LIMIT 1
            """, arguments: [through])
        if ids == through + early, newerTwice == nil { return nil }
        // Two newer events with one id got past the waiting ids; otherwise a dedup row was lost.
        let why = newerTwice != nil ? "past the dedup check" : "its dedup row was deleted"
        if let row = try newerTwice ?? Row.fetchOne(db, sql: """
            SELECT id, MIN(seq), MAX(seq) FROM events GROUP BY id HAVING COUNT(*) > 1 ORDER BY MAX(seq) LIMIT 1
            """) {
            let id: String = row[0], first: Int64 = row[1], again: Int64 = row[2]
            return .broken(seq: again, problem: "duplicated: id \(id) was appended at seq \(first) and again here (\(why))")
        }
        if let seq = try Int64.fetchOne(db, sql: "SELECT MIN(seq) FROM events WHERE seq <= ? AND id NOT IN event_ids", arguments: [through]) {
            return .broken(seq: seq, problem: "dedup index: this event's id is missing from event_ids (a re-ingest would append it twice)")
        }
        return .broken(seq: 0, problem: "dedup index: event_ids holds \(ids) ids for \(through + early) events (ids without an event)")
    }
}
