import Crypto
import GTIOCatalog
import GTIOStore

/// A fold's whole state saved in the store at one seq (`rm_fold_state`), so that a writer in a
/// new process continues from it rather than folding the log from seq 1.
///
/// Each saved state has a header part: what it is, the byte layout and table definition it was
/// written with, its seq and newest `at`, the state's length, where its second half begins, and
/// the SHA-256 of each half (each checked on the thread that decodes that half, beside the
/// other); then the state in slices of about 8 MB, the first half's then the second's
/// (SQLite keeps a value under 1 GB, and a slice of a few MB is written and read in one step).
/// Like every `rm_` table it is derived: a rebuild or a changed definition replaces it, and one
/// that fails to read is set aside with a notice and written again.
///
/// Two states are kept (`Slot`): the latest, which writers continue from, and the last one saved
/// before the latest's UTC day began. An as-of view can only start from a state none of whose
/// events is after its moment, and the latest holds the newest day's events: without the earlier
/// one, the nightly report of the day before folded the log from seq 1 (docs/PERFORMANCE.md).
public enum FoldSnapshot {
    static let table = TableLayout(name: "rm_fold_state", columns: [("part", .integer), ("bytes", .blob)], keyCount: 1)

    /// Bumped whenever `CommunityState.write(to:)` changes its byte layout.
    static let format: Int64 = 15
    private static let magic = Array("gtio fold state\0".utf8)
    static let partSize = 8 << 20

    /// Where a saved state's parts are: the first slot's header is part 0 and its slices 1, 2…;
    /// the second's are −1, then −2, −3… (a gtio from before the second slot reads parts ≥ 0
    /// only). Which slot holds the latest state is told by their headers' seqs.
    enum Slot: CaseIterable {
        case first, second

        /// The number of the part `index` (0: the header, 1…: the slices).
        func part(_ index: Int) -> Int64 { self == .first ? Int64(index) : -Int64(index) - 1 }
        /// The condition on `part` that picks the slot's slices.
        var slices: String { self == .first ? "part > 0" : "part < -1" }
        /// The slices in their order.
        var sliceOrder: String { self == .first ? "part" : "part DESC" }
        /// The condition on `part` that picks the slot's header and slices.
        var parts: String { self == .first ? "part >= 0" : "part < 0" }
        var other: Slot { self == .first ? .second : .first }
    }

    /// The SHA-256 of `parts` one after another.
    static func digest(of parts: [[UInt8]]) -> [UInt8] {
        var digest = SHA256()
        for part in parts { digest.update(data: part) }
        return Array(digest.finalize())
    }

    /// What a state's header part says.
    struct Header: Equatable {
        var seq: Int64
        /// The largest `at` among the events applied: an as-of view before it cannot start here.
        var newestAt: Int64?
        var length: Int
        /// Where the second half of the state begins (`CommunityState.encodedHalves`).
        var split: Int
        /// The SHA-256 of each half's bytes.
        var peopleDigest: [UInt8]
        var restDigest: [UInt8]
    }

    /// The seq the latest saved state stands at, nil when there is none this build can read.
    public static func savedSeq(_ tables: any TableReading) throws -> Int64? {
        try headers(tables).map(\.header.seq).max()
    }

    /// The seq, newest `at` and length in bytes of each state saved that this build can read, the
    /// latest last.
    public static func saved(_ tables: any TableReading) throws -> [(seq: Int64, newestAt: Int64?, length: Int)] {
        try headers(tables).map { ($0.header.seq, $0.header.newestAt, $0.header.length) }.sorted { $0.seq < $1.seq }
    }

    /// Whether a writer whose fold stands at `lastSeq` should save it: when more than an eighth
    /// of the log (and at least 50,000 events) came after the saved one. A writer then folds at
    /// most that much before its own events, and saving, which costs about as much as folding
    /// that eighth, happens once per eighth of growth.
    public static func isDue(lastSeq: Int64, saved: Int64?) -> Bool {
        let since = lastSeq - (saved ?? 0)
        return since >= max(50_000, lastSeq / 8)
    }

    /// Whether a writer that had to fold `folded` events past the saved state, before it could
    /// apply its own, should save its state at its write: when those were more than a 64th of
    /// the log (and at least 10,000 events), the next writer would fold them again. `isDue` alone
    /// lets the saved state fall up to an eighth of the log behind, which a long-lived writer (a
    /// server, a projector) folds once; one-shot writers (a cron `ingest`, a `resolve`) fold it at
    /// every start, ~1 s a million events, where saving costs about a fifth of that per million
    /// events of log, once per 64th of growth.
    public static func isWorthSaving(folded: Int64, lastSeq: Int64) -> Bool {
        folded >= max(10_000, lastSeq / 64)
    }

    /// Replaces the saved state with `state`, in the caller's transaction.
    public static func save(_ state: CommunityState, in tx: any TableWriting) throws {
        try Encoded(state).save(in: tx)
    }

    /// A state encoded and checksummed, ready to be saved: the work done before a write
    /// transaction, so that the transaction only writes the bytes.
    struct Encoded: Sendable {
        private let header: [UInt8]
        /// The state's bytes as the parts that are saved, the first half's before the second's.
        private let parts: [[UInt8]]
        /// The seq of the state encoded.
        let seq: Int64
        /// The newest `at` among its events.
        let newestAt: Int64?

        /// `partSize`: the bytes of a part, give or take a value (`StateWriter`).
        init(_ state: CommunityState, partSize: Int = FoldSnapshot.partSize) {
            let (people, rest) = state.encodedHalves(chunkSize: partSize)
            parts = people + rest
            seq = state.lastSeq
            newestAt = state.newestAt
            var digests: (people: [UInt8], rest: [UInt8]) = ([], [])
            try! SideBySide.run({ digests.people = FoldSnapshot.digest(of: people) }, { digests.rest = FoldSnapshot.digest(of: rest) })
            var header = StateWriter(chunkSize: 1 << 10)
            header.writeBytes(magic)
            header.write(format)
            header.write(ReadModelSchema.version)
            header.write(state.lastSeq)
            header.write(state.newestAt)
            header.write(parts.reduce(0) { $0 + $1.count })
            header.write(people.reduce(0) { $0 + $1.count })
            header.writeBytes(digests.people)
            header.writeBytes(digests.rest)
            self.header = Array(header.chunks.joined())
        }

        /// Saves this state as the latest, in the caller's transaction. The latest saved before
        /// stays as the earlier state when this one's newest event is of a later UTC day, so that
        /// the earlier one ends before the latest's day; otherwise this one takes its place. With
        /// `replacingBoth` (a rebuild), no other state is kept.
        func save(in tx: any TableWriting, replacingBoth: Bool = false) throws {
            let saved = replacingBoth ? [] : try FoldSnapshot.headers(tx)
            let latest = saved.max { $0.header.seq < $1.header.seq }
            var slot = latest?.slot ?? .first
            if let latest, let before = latest.header.newestAt, let newest = newestAt,
               Timestamp(milliseconds: before).day < Timestamp(milliseconds: newest).day {
                slot = latest.slot.other
            }
            if replacingBoth {
                try tx.deleteAll(from: table.name)
            } else {
                for row in try tx.rows("SELECT part FROM \(table.name) WHERE \(slot.parts)", []) {
                    try tx.delete(from: table, key: [row[0]])
                }
            }
            try tx.insert([.integer(slot.part(0)), .blob(header)], into: table)
            for (index, part) in parts.enumerated() {
                try tx.insert([.integer(slot.part(index + 1)), .blob(part)], into: table)
            }
        }
    }

    /// The saved state when it stands at `seq` or before, nil when there is none (or one of
    /// another layout or definition); throws `FoldSnapshotError` when it is there but damaged.
    public static func load(_ tables: any TableReading, atMost seq: Int64) throws -> CommunityState? {
        try load(tables) { $0.seq <= seq }
    }

    /// The saved state of the largest seq whose header `accept` takes (read in the same snapshot
    /// as the state), nil when there is none or `accept` refuses both; throws when it is damaged.
    static func load(_ tables: any TableReading, accept: (Header) -> Bool) throws -> CommunityState? {
        guard let (slot, header) = try headers(tables).filter({ accept($0.header) }).max(by: { $0.header.seq < $1.header.seq })
        else { return nil }
        LogScanCounter.addFoldState()
        // The header is outside the checksum: its length is trusted only once the parts agree.
        let stored = try tables.row("SELECT IFNULL(SUM(length(bytes)), 0) FROM \(table.name) WHERE \(slot.slices)")?[0].int ?? 0
        guard stored == header.length else {
            throw FoldSnapshotError.incomplete(seq: header.seq, expected: header.length, found: stored)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(stored)
        var notBytes = false
        // Each part copied once, from the backend's own bytes.
        try tables.forEachBlob("SELECT bytes FROM \(table.name) WHERE \(slot.slices) ORDER BY \(slot.sliceOrder)", []) { part in
            guard let part else {
                notBytes = true
                return false
            }
            bytes.append(contentsOf: part)
            return true
        }
        if notBytes || bytes.count != stored { throw FoldSnapshotError.malformed("a part that is not bytes") }
        guard header.split <= bytes.count else { throw FoldSnapshotError.malformed("a split at \(header.split) of \(bytes.count) bytes") }
        // Each half is hashed on the thread that then decodes it: nothing is decoded from bytes
        // whose checksum failed, and the two hashes take one core's time each, side by side.
        let state = try bytes.withUnsafeBytes { buffer in
            try CommunityState.decoded(
                people: UnsafeRawBufferPointer(rebasing: buffer[..<header.split]),
                rest: UnsafeRawBufferPointer(rebasing: buffer[header.split...])
            ) { half, bytes in
                let expected = half == .people ? header.peopleDigest : header.restDigest
                guard Array(SHA256.hash(data: bytes)) == expected else { throw FoldSnapshotError.checksumMismatch(seq: header.seq) }
            }
        }
        guard state.lastSeq == header.seq else { throw FoldSnapshotError.malformed("a state at seq \(state.lastSeq) under a header at \(header.seq)") }
        return state
    }

    /// The headers of the states saved, with their slots: none when the table is missing, and
    /// none for a slot whose header is missing or of another layout or definition.
    static func headers(_ tables: any TableReading) throws -> [(slot: Slot, header: Header)] {
        guard try tables.hasTable(table.name) else { return [] }
        return try Slot.allCases.compactMap { slot in try header(tables, slot).map { (slot, $0) } }
    }

    /// The header of `slot`, nil when the part is missing or written by another layout or
    /// definition (a migration drops it then; until it runs, it is as good as missing).
    private static func header(_ tables: any TableReading, _ slot: Slot) throws -> Header? {
        guard let row = try tables.row("SELECT bytes FROM \(table.name) WHERE part = ?", [.integer(slot.part(0))]),
              case .blob(let bytes) = row[0]
        else { return nil }
        return try bytes.withUnsafeBytes { buffer -> Header? in
            var reader = StateReader(buffer)
            guard try reader.readBytes(magic.count) == magic else { return nil }
            guard try reader.readInt64() == format, try reader.readInt64() == ReadModelSchema.version else { return nil }
            let seq = try reader.readInt64(), newestAt = try reader.readOptionalInt64()
            let length = try reader.readInt(), split = try reader.readInt()
            let peopleDigest = try reader.readBytes(32)
            return Header(seq: seq, newestAt: newestAt, length: length, split: split, peopleDigest: peopleDigest,
                          restDigest: try reader.readBytes(32))
        }
    }
}
