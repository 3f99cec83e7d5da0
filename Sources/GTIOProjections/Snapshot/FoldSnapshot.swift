import Crypto
import GTIOStore

/// A fold's whole state saved in the store at one seq (`rm_fold_state`), so that a writer in a
/// new process continues from it rather than folding the log from seq 1.
///
/// Part 0 is a header: what it is, the byte layout and table definition it was written with, its
/// seq and newest `at`, the state's length, where its second half begins, and its SHA-256.
/// Parts 1… are the state in slices of about 8 MB, the first half's then the second's (SQLite
/// keeps a value under 1 GB, and a slice of a few MB is written and read in one step). Like
/// every `rm_` table it is derived: a rebuild or a changed definition replaces it, and one that
/// fails to read is set aside with a notice and written again.
public enum FoldSnapshot {
    static let table = TableLayout(name: "rm_fold_state", columns: [("part", .integer), ("bytes", .blob)], keyCount: 1)

    /// Bumped whenever `CommunityState.write(to:)` changes its byte layout.
    static let format: Int64 = 8
    private static let magic = Array("gtio fold state\0".utf8)
    static let partSize = 8 << 20

    /// What part 0 says.
    struct Header: Equatable {
        var seq: Int64
        /// The largest `at` among the events applied: an as-of view before it cannot start here.
        var newestAt: Int64?
        var length: Int
        /// Where the second half of the state begins (`CommunityState.encodedHalves`).
        var split: Int
        var digest: [UInt8]
    }

    /// The seq the saved state stands at, nil when there is none this build can read.
    public static func savedSeq(_ tables: any TableReading) throws -> Int64? {
        try header(tables)?.seq
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

        /// `partSize`: the bytes of a part, give or take a value (`StateWriter`).
        init(_ state: CommunityState, partSize: Int = FoldSnapshot.partSize) {
            let (people, rest) = state.encodedHalves(chunkSize: partSize)
            parts = people + rest
            seq = state.lastSeq
            var digest = SHA256()
            for part in parts { digest.update(data: part) }
            var header = StateWriter(chunkSize: 1 << 10)
            header.writeBytes(magic)
            header.write(format)
            header.write(ReadModelSchema.version)
            header.write(state.lastSeq)
            header.write(state.newestAt)
            header.write(parts.reduce(0) { $0 + $1.count })
            header.write(people.reduce(0) { $0 + $1.count })
            header.writeBytes(Array(digest.finalize()))
            self.header = Array(header.chunks.joined())
        }

        /// Replaces the saved state with this one, in the caller's transaction.
        func save(in tx: any TableWriting) throws {
            try tx.deleteAll(from: table.name)
            try tx.insert([.integer(0), .blob(header)], into: table)
            for (index, part) in parts.enumerated() {
                try tx.insert([.integer(Int64(index) + 1), .blob(part)], into: table)
            }
        }
    }

    /// The saved state when it stands at `seq` or before, nil when there is none (or one of
    /// another layout or definition); throws `FoldSnapshotError` when it is there but damaged.
    public static func load(_ tables: any TableReading, atMost seq: Int64) throws -> CommunityState? {
        try load(tables) { $0.seq <= seq }
    }

    /// The saved state when its header is one `accept` takes (read in the same snapshot as the
    /// state), nil when there is none or `accept` refuses it; throws when it is damaged.
    static func load(_ tables: any TableReading, accept: (Header) -> Bool) throws -> CommunityState? {
        guard let header = try header(tables), accept(header) else { return nil }
        LogScanCounter.addFoldState()
        // The header is outside the checksum: its length is trusted only once the parts agree.
        let stored = try tables.row("SELECT IFNULL(SUM(length(bytes)), 0) FROM \(table.name) WHERE part > 0")?[0].int ?? 0
        guard stored == header.length else {
            throw FoldSnapshotError.incomplete(seq: header.seq, expected: header.length, found: stored)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(stored)
        var notBytes = false
        // Each part copied once, from the backend's own bytes, and hashed while it is fresh in the cache.
        var hash = SHA256()
        try tables.forEachBlob("SELECT bytes FROM \(table.name) WHERE part > 0 ORDER BY part", []) { part in
            guard let part else {
                notBytes = true
                return false
            }
            bytes.append(contentsOf: part)
            hash.update(bufferPointer: part)
            return true
        }
        if notBytes || bytes.count != stored { throw FoldSnapshotError.malformed("a part that is not bytes") }
        guard Array(hash.finalize()) == header.digest else { throw FoldSnapshotError.checksumMismatch(seq: header.seq) }
        guard header.split <= bytes.count else { throw FoldSnapshotError.malformed("a split at \(header.split) of \(bytes.count) bytes") }
        let state = try bytes.withUnsafeBytes { buffer in
            try CommunityState.decoded(
                people: UnsafeRawBufferPointer(rebasing: buffer[..<header.split]),
                rest: UnsafeRawBufferPointer(rebasing: buffer[header.split...]))
        }
        guard state.lastSeq == header.seq else { throw FoldSnapshotError.malformed("a state at seq \(state.lastSeq) under a header at \(header.seq)") }
        return state
    }

    /// Part 0 read, nil when the table or the part is missing or written by another layout or
    /// definition (a migration drops it then; until it runs, it is as good as missing).
    static func header(_ tables: any TableReading) throws -> Header? {
        guard try tables.hasTable(table.name),
              let row = try tables.row("SELECT bytes FROM \(table.name) WHERE part = 0"), case .blob(let bytes) = row[0]
        else { return nil }
        return try bytes.withUnsafeBytes { buffer -> Header? in
            var reader = StateReader(buffer)
            guard try reader.readBytes(magic.count) == magic else { return nil }
            guard try reader.readInt64() == format, try reader.readInt64() == ReadModelSchema.version else { return nil }
            let seq = try reader.readInt64(), newestAt = try reader.readOptionalInt64()
            let length = try reader.readInt(), split = try reader.readInt()
            return Header(seq: seq, newestAt: newestAt, length: length, split: split, digest: try reader.readBytes(32))
        }
    }
}
