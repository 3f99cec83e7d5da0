import Foundation
import GRDB
import GRDBSQLite
import GTIOCatalog
import GTIOStore

/// The ids of the log's newest events, which the dedup index (`event_ids`) does not hold yet,
/// and their move into it in sorted runs.
///
/// Producer ids are random, so an id inserted into `event_ids` on its own lands on a B-tree
/// page of its own: a commit of 1,600 new ids rewrote ~1,600 pages, and the collector's commits
/// spent most of their time writing those pages to the write-ahead log and checkpointing them
/// back (docs/PERFORMANCE.md). Ids now wait until there are enough of them to share pages.
/// `event_ids_through` says through which seq `event_ids` holds every id; the ids of the events
/// after it are read from the events themselves and kept here, and an append checks a new id
/// against both. Once there are `runLength` of them, they are sorted and moved into `event_ids`
/// a slice per append, so that no one commit of a long-lived writer (the collector) pays for the
/// whole run. A run lives in the memory of the process that started it, so a process that read
/// the waiting ids afresh for this append (a one-shot `ingest` or `resolve`, which appends once)
/// moves a run it starts whole: otherwise each such process would move the same first slice and
/// the mark would never advance. A large batch (an ingest's) has enough ids of its own: they go
/// into `event_ids` with their events, after the ids still waiting, so that every id after the
/// mark waits and a new process does not read back ids already in the index.
///
/// What is kept here is checked against the log at the start of every append (the log's end and
/// that event's hash), so that what another process committed is read, and it is dropped when
/// a transaction of this process rolls back. It is each waiting id's seq under a hash of its
/// bytes, not the id: a process that appends once reads up to ~260 k of them, and a hash found
/// is confirmed against the event at its seq, so the check stays exact. The hash is seeded per
/// process (Swift's `Hasher`), so ids crafted to collide cannot be.
///
/// A writer that appends without pause (the collector) also keeps a filter of every id in the
/// log (`IDFilter`, read aside by `IDFilterLoader`): an id it has not seen is new without a
/// look-up in `event_ids`. The filter is read in a snapshot of its own, so from the moment it is
/// asked for, every id seen here (appended by this process, or read from another's batches) is
/// noted for it too, and it is dropped whenever what is kept here is read afresh.
final class RecentIDs: @unchecked Sendable {
    // @unchecked: only touched inside write transactions of the log, which its writer
    // connection runs one at a time on its own queue (rollbacks are reported there too).

    /// Through which seq `event_ids` holds every id; nil when what is kept here must be read again.
    private var through: Int64?
    /// The log's end as last seen, and that event's hash.
    private var end: Int64 = 0
    private var endHash: [UInt8] = []
    /// The waiting ids' seqs and hashes, in seq order.
    private var recent: [(seq: Int64, hash: UInt64)] = []
    /// The seq of the waiting id under each hash, and the few whose hash another took first.
    private var seqByHash: [UInt64: Int64] = [:]
    private var collided: [ExactText: Int64] = [:]
    /// A run being moved into `event_ids`: the ids through seq `through`, sorted by their bytes,
    /// of which the first `moved` are in.
    private var run: (ids: [String], through: Int64, moved: Int)?
    /// Whether this append read the waiting ids afresh (a new process, or after a rollback): a
    /// run it starts is moved whole, since no later append of this process may continue it.
    private var readAfresh = false
    /// How many times the waiting ids were read afresh: a run sorted aside for an earlier
    /// reading is not taken.
    private var generation = 0
    /// The log's end at the last commit of this process's appends (or as read afresh): every
    /// event through it is committed, and another connection can read it.
    private var committedEnd: Int64 = 0
    /// Sorts the next run beside the writer, for a writer that appends without pause; nil:
    /// the append that starts a run reads and sorts it (`RunSorter`).
    var runSorter: RunSorter?
    /// Reads the filter of the log's ids beside the writer, for a writer that appends without
    /// pause; nil: every new id is looked up in `event_ids`.
    var filterLoader: IDFilterLoader? {
        didSet { dropFilter() }
    }
    /// Every id in the log, once read, with those seen since; nil before.
    private var filter: IDFilter?
    /// The ids' hashes seen since the filter being read was asked for; nil when none is.
    private var seenWhileLoading: [UInt64]?
    /// Whether a transaction of this process is open with an append in it: a filter is asked
    /// for only before a transaction's first append, when every id it can see is committed.
    private var appending = false

    /// The fewest ids a run moves (tests make it small, to see runs in a few events).
    var minimumRun = 65_536
    /// How many events a batch needs for its ids to go into `event_ids` with them rather than
    /// wait here: enough to share pages by themselves.
    var largeBatch = 4_096
    /// The hash bits kept (tests keep two, so that ids collide all the time).
    var hashMask: UInt64 = .max

    /// How many ids wait before a run starts: enough to share `event_ids`' pages (a run touches at
    /// most every page once), and few enough to read back quickly in a process that appends once.
    func runLength(logEnd: Int64) -> Int {
        Int(min(max(262_144, Int64(minimumRun)), max(Int64(minimumRun), logEnd / 16)))
    }

    /// Brings what is kept here in step with the log, inside an append's write transaction:
    /// `end` and `head` are the log's last seq and that event's hash as the transaction reads them.
    func prepare(in db: Database, end: Int64, head: [UInt8]) throws {
        let stored = try Self.storedThrough(in: db)
        let firstAppend = !appending
        appending = true
        db.afterNextTransaction(
            onCommit: { [weak self] _ in if let self { committedEnd = self.end; appending = false } },
            onRollback: { [weak self] _ in self?.through = nil; self?.appending = false })
        if let through, stored >= through, try isPrefix(ofLogEndingAt: end, head: head, in: db) {
            try read(after: self.end, through: end, in: db)
            if stored > through {
                drop(through: stored)
                self.through = stored
            }
        } else {
            through = stored
            recent = []
            seqByHash = [:]
            collided = [:]
            run = nil
            readAfresh = true
            generation += 1
            committedEnd = end
            dropFilter()
            try read(after: stored, through: end, in: db)
        }
        self.end = end
        endHash = head
        if let filterLoader { takeFilter(from: filterLoader, asking: firstAppend) }
    }

    /// Takes the filter once read, with the ids seen since it was asked for; asks for one when
    /// there is none, before a transaction's first append.
    private func takeFilter(from loader: IDFilterLoader, asking: Bool) {
        guard filter == nil else { return }
        if let seen = seenWhileLoading {
            guard var loaded = loader.filter(for: generation) else { return }
            for hash in seen { loaded.insert(hash) }
            filter = loaded
            seenWhileLoading = nil
        } else if asking, loader.filter(for: generation) == nil {
            // Every id this transaction sees is committed, so in the snapshot the filter is read
            // from; those seen from now on are noted for it. (A filter returned at once was asked
            // for before and is not taken: what was seen since is not known.)
            seenWhileLoading = []
        }
    }

    private func dropFilter() {
        filter = nil
        seenWhileLoading = nil
    }

    /// How many ids the filter holds once taken (for tests).
    var filteredIDs: Int? { filter?.count }

    /// False only when `id` is certainly not in the log: it is then new without a look-up.
    func mayHold(_ id: String) -> Bool {
        guard let filter else { return true }
        return filter.mayContain(Self.fullHash(id))
    }

    /// Whether `id` is among the waiting ids (`event_ids` holds the others).
    func contains(_ id: String, in db: Database) throws -> Bool {
        guard !recent.isEmpty else { return false }
        if let seq = seqByHash[hash(id)], try Self.id(at: seq, isExactly: id, in: db) { return true }
        return !collided.isEmpty && collided[ExactText(id)] != nil
    }

    /// Notes the event just appended at `seq`, with `hash`, whose id waits outside `event_ids`.
    func add(_ id: String, seq: Int64, hash: [UInt8]) {
        note(seq: seq, idHash: Self.fullHash(id)) { ExactText(id) }
        advance(seq: seq, hash: hash)
    }

    /// Notes the event just appended at `seq`, with `hash`, whose id went into `event_ids` with it.
    func addIndexed(_ id: String, seq: Int64, hash: [UInt8]) {
        seen(Self.fullHash(id))
        advance(seq: seq, hash: hash)
    }

    private func advance(seq: Int64, hash: [UInt8]) {
        end = seq
        endHash = hash
    }

    /// Whether a batch of `count` events puts its ids into `event_ids` with its events: when it
    /// is large enough to share pages by itself, and no fewer than the ids waiting, which go in
    /// first (`moveWaiting`) at no more than the batch's own cost.
    func insertsDirectly(_ count: Int) -> Bool {
        count >= largeBatch && count >= recent.count
    }

    /// Moves every waiting id into `event_ids` (sorted), before a batch that inserts its own.
    func moveWaiting(in db: Database) throws {
        guard !recent.isEmpty else { return }
        try moveAll(in: db)
    }

    /// Moves up to `budget` waiting ids into `event_ids`, starting a run when enough wait, and
    /// moves `event_ids_through` past the ids that no longer wait.
    func move(budget: Int, in db: Database) throws {
        // A run started by an append that read the waiting ids afresh goes in whole.
        let afresh = readAfresh
        let budget = afresh ? .max : budget
        readAfresh = false
        if run == nil, recent.count >= runLength(logEnd: end), let last = recent.last {
            if let runSorter, !afresh {
                // The committed ids among those waiting, sorted beside the writer: a later
                // append takes the run once it is.
                let bounds = RunSorter.Bounds(generation: generation, after: through ?? 0, through: committedEnd)
                if bounds.through > bounds.after, let sorted = runSorter.run(bounds) { run = (sorted.ids, sorted.through, 0) }
            } else {
                run = (Self.sortedByBytes(try Self.ids(after: through ?? 0, through: last.seq, in: db)), last.seq, 0)
            }
        }
        if let (ids, runThrough, moved) = run {
            let stop = moved + min(budget, ids.count - moved)
            let insert = try Self.insertID(in: db)
            for id in ids[moved..<stop] {
                insert.bind(1, id)
                try insert.step(db)
            }
            run?.moved = stop
            if stop == ids.count { drop(through: runThrough) }
        }
        // Through the event before the first id still waiting (ids inserted with their events,
        // by a large batch, never wait).
        let mark = (recent.first?.seq ?? end + 1) - 1
        if mark > through ?? 0 { try Self.mark(through: mark, in: db) }
        through = max(through ?? 0, mark)
    }

    /// Moves every waiting id into `event_ids` and `event_ids_through` to the log's end: what a
    /// copy of committed batches wants before it inserts their ids itself.
    func moveAll(in db: Database) throws {
        let ids = try String.fetchAll(db.cachedStatement(sql: "SELECT id FROM events WHERE seq > ?"), arguments: [through ?? 0])
        run = (Self.sortedByBytes(ids), end, 0)
        try move(budget: .max, in: db)
    }

    /// Forgets everything kept here: the next append reads it again.
    func invalidate() {
        through = nil
        dropFilter()
    }

    /// The statement that puts an id into `event_ids` (one row changed when it is new).
    static func insertID(in db: Database) throws -> SQLiteStatementBinding {
        SQLiteStatementBinding(try db.cachedStatement(sql: "INSERT OR IGNORE INTO event_ids (id) VALUES (?)"))
    }

    /// Moves `event_ids_through` to `seq`: `event_ids` holds every id through it.
    static func mark(through seq: Int64, in db: Database) throws {
        try db.execute(sql: "UPDATE event_ids_through SET seq = ?", arguments: [seq])
    }

    /// `event_ids_through`'s seq (a store from before it holds every id in `event_ids`).
    static func storedThrough(in db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT seq FROM event_ids_through")) ?? 0
    }

    /// Whether the log as last seen is a prefix of the log ending at `end` with `head`: the same
    /// event, with the same hash, at the end seen last. Not so after a rollback of this process
    /// or a store file replaced.
    private func isPrefix(ofLogEndingAt end: Int64, head: [UInt8], in db: Database) throws -> Bool {
        if end == self.end { return head == endHash }
        guard end > self.end else { return false }
        if self.end == 0 { return true }
        let hash = try Data.fetchOne(db.cachedStatement(sql: "SELECT hash FROM events WHERE seq = ?"), arguments: [self.end])
        return hash.map(Array.init) == endHash
    }

    /// Reads the ids of the events after `after` through `end` from the log, straight from
    /// SQLite's bytes (no `String` per id).
    private func read(after: Int64, through end: Int64, in db: Database) throws {
        guard end > after else { return }
        seqByHash.reserveCapacity(seqByHash.count + Int(end - after))
        recent.reserveCapacity(recent.count + Int(end - after))
        let rows = SQLiteStatementBinding(try db.cachedStatement(sql: "SELECT seq, id FROM events WHERE seq > ? AND seq <= ? ORDER BY seq"))
        rows.bind(1, after)
        rows.bind(2, end)
        try rows.forEachRow(db) { row in
            let bytes = SQLiteRowCursor.bytes(row, 1) ?? UnsafeBufferPointer(start: nil, count: 0)
            note(seq: sqlite3_column_int64(row, 0), idHash: Self.fullHash(UnsafeRawBufferPointer(bytes))) {
                ExactText(String(decoding: bytes, as: UTF8.self))
            }
            return true
        }
    }

    /// Notes a waiting id by its seq and hash; `id` is asked for only when another waiting id
    /// has the hash already.
    private func note(seq: Int64, idHash fullHash: UInt64, id: () -> ExactText) {
        seen(fullHash)
        let idHash = fullHash & hashMask
        recent.append((seq, idHash))
        if seqByHash[idHash] == nil {
            seqByHash[idHash] = seq
        } else {
            collided[id()] = seq
        }
    }

    /// Forgets the waiting ids through `seq`, which `event_ids` now holds, and a run they end.
    private func drop(through seq: Int64) {
        let kept = recent.partitioningIndex { $0.seq > seq }
        for entry in recent[..<kept] where seqByHash[entry.hash] == entry.seq {
            seqByHash[entry.hash] = nil
        }
        if !collided.isEmpty { collided = collided.filter { $0.value > seq } }
        recent.removeFirst(kept)
        if let run, run.through <= seq { self.run = nil }
    }

    /// Whether the event at `seq` has exactly the id `id`.
    private static func id(at seq: Int64, isExactly id: String, in db: Database) throws -> Bool {
        try String.fetchOne(db.cachedStatement(sql: "SELECT id FROM events WHERE seq = ?"), arguments: [seq])?.isExactly(id) ?? false
    }

    /// Notes an id now in the log for the filter, or for the filter being read.
    private func seen(_ fullHash: UInt64) {
        if filter != nil {
            filter?.insert(fullHash)
        } else {
            seenWhileLoading?.append(fullHash)
        }
    }

    private func hash(_ id: String) -> UInt64 {
        Self.fullHash(id) & hashMask
    }

    private static func fullHash(_ id: String) -> UInt64 {
        var id = id
        return id.withUTF8 { fullHash(UnsafeRawBufferPointer($0)) }
    }

    /// The hash of an id's bytes, seeded per process (`hashMask` keeps some of its bits).
    static func fullHash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hasher = Hasher()
        hasher.combine(bytes: bytes)
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }

    /// The ids of the events after `after` through `through`: a run, before it is sorted.
    static func ids(after: Int64, through: Int64, in db: Database) throws -> [String] {
        try String.fetchAll(db.cachedStatement(sql: "SELECT id FROM events WHERE seq > ? AND seq <= ?"), arguments: [after, through])
    }

    /// `ids` in the order of their bytes (SQLite's order for `event_ids`), so that a run's inserts
    /// go through the B-tree's pages in turn. An 8-byte prefix compared as an integer first.
    static func sortedByBytes(_ ids: [String]) -> [String] {
        var keyed = ids.map { (prefix: prefix($0), id: $0) }
        keyed.sort { a, b in
            a.prefix != b.prefix ? a.prefix < b.prefix : a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
        }
        return keyed.map(\.id)
    }

    /// The first eight bytes of `id`, big-endian, zero-padded: ids in this order are in the order
    /// of their bytes, but for ties, and comparing integers is quicker than comparing strings.
    static func prefix(_ id: String) -> UInt64 {
        var prefix: UInt64 = 0, taken = 0
        for byte in id.utf8.prefix(8) {
            prefix = prefix << 8 | UInt64(byte)
            taken += 1
        }
        return prefix << (8 * UInt64(8 - taken))
    }
}

private extension Array {
    /// The index of the first element for which `isAfter` holds, all after it holding too.
    func partitioningIndex(where isAfter: (Element) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if isAfter(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
