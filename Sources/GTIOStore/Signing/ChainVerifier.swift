/// The judgement of `verify`, whatever the backend: a backend walks its log in seq order,
/// recomputing each event's link of the hash chain, and this says where the log first differs
/// from what was appended: a gap, a changed event, a head that its signature or an anchor
/// contradicts, a cut tail, an unsigned tail.
public struct ChainVerifier {
    private let audit: LogAudit
    private let stored: [BatchSignature]
    private let records: [Int64: BatchRecord]
    /// The signatures the walk holds the log to: by the audit's key, or all of them without one.
    private let signatures: [BatchSignature]
    /// Signed heads and anchors still to meet on the walk, by seq.
    private var heads: ArraySlice<(Int64, BatchSignature)>
    private var expected: Int64 = 1
    private var lastMet: Int64 = 0
    /// The chain's hash at the last event walked.
    public private(set) var head = EventHashChain.genesis

    /// A verifier of a log whose `batch_signatures` hold `stored` and `batches` hold `records`.
    public init(audit: LogAudit, signatures stored: [BatchSignature], records: [Int64: BatchRecord]) {
        self.audit = audit
        self.stored = stored
        self.records = records
        signatures = audit.key.map { key in stored.filter { $0.publicKey == key.bytes } } ?? stored
        var heads = (signatures + audit.anchors).map { ($0.lastSeq, $0) }.sorted { $0.0 < $1.0 }[...]
        while let first = heads.first, first.0 == 0 { heads = heads.dropFirst() }
        self.heads = heads
    }

    /// What is wrong before any event is read: a forged signature or anchor, a batch record
    /// that is not the one signed.
    public func checkSignatures() -> LogVerdict? {
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
        return nil
    }

    /// The next event of the walk: its seq, the hash the chain gives it and the hash stored with
    /// it (nil when none is). A verdict ends the walk; nil goes on.
    public mutating func visit(seq: Int64, hash: [UInt8], stored: UnsafeRawBufferPointer?) -> LogVerdict? {
        if seq != expected {
            return .broken(seq: expected, problem: "missing: the log jumps from seq \(expected - 1) to \(seq)")
        }
        guard let stored else { return .broken(seq: seq, problem: "no hash recorded for this event") }
        if !stored.elementsEqual(hash) {
            return .broken(seq: seq, problem: "changed: its content does not match the hash chain")
        }
        while let (at, signature) = heads.first, at == seq {
            guard signature.head == hash else {
                return .broken(seq: lastMet + 1, problem: """
                    changed: the events from seq \(lastMet + 1) to \(seq) no longer give the head signed for batch \(signature.batch) \
                    (rewritten with a recomputed chain)
                    """)
            }
            lastMet = seq
            heads = heads.dropFirst()
        }
        head = hash
        expected += 1
        return nil
    }

    /// The verdict after the whole log was walked. `lowestSeq` is the smallest seq in the log,
    /// `batchesEnd` the last seq the batches' rows claim; `backendCheck` is asked last, before
    /// the unsigned tail, for what only the backend can see (SQLite's dedup index).
    public func finish(lowestSeq: Int64?, batchesEnd: Int64, backendCheck: () throws -> LogVerdict? = { nil }) rethrows -> LogVerdict {
        let last = expected - 1
        if let (at, signature) = heads.first {
            return .broken(seq: last + 1, problem: """
                cut: batch \(signature.batch) was signed with the log reaching seq \(at), but it ends at seq \(last)
                """)
        }
        if let signature = signatures.first(where: { records[$0.batch] == nil }) {
            return .broken(seq: signature.lastSeq, problem: "missing: the record of batch \(signature.batch), which was signed, is gone from batches")
        }
        if let odd = lowestSeq, odd <= 0 {
            return .broken(seq: odd, problem: "inserted: no event is ever appended at a seq below 1")
        }
        if batchesEnd > last {
            return .broken(seq: last + 1, problem: "missing: batches appended up to seq \(batchesEnd) but the log ends at \(last)")
        }
        if let problem = try backendCheck() { return problem }
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
