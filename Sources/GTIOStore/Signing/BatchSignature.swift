import Crypto

/// A batch's head signed by the writer's key: the chain's hash after the batch's last event,
/// and the batch's own record, so neither can change without the signature failing.
public struct BatchSignature: Sendable, Equatable {
    public var batch: Int64
    /// The seq of the batch's last event: the head is the chain's hash there.
    public var lastSeq: Int64
    public var head: [UInt8]
    /// SHA-256 of the batch's record (source, lines, counts, time), see `BatchRecord`.
    public var record: [UInt8]
    public var publicKey: [UInt8]
    public var signature: [UInt8]

    public init(batch: Int64, lastSeq: Int64, head: [UInt8], record: [UInt8], publicKey: [UInt8], signature: [UInt8]) {
        self.batch = batch
        self.lastSeq = lastSeq
        self.head = head
        self.record = record
        self.publicKey = publicKey
        self.signature = signature
    }

    /// The bytes signed: a tag naming the scheme, then batch, last seq, head and record digest.
    static func message(batch: Int64, lastSeq: Int64, head: [UInt8], record: [UInt8]) -> [UInt8] {
        var out = Array("gtio signed head v1\0".utf8)
        for value in [batch, lastSeq] { withUnsafeBytes(of: value.bigEndian) { out.append(contentsOf: $0) } }
        out += head
        out += record
        return out
    }

    /// Whether `key` made this signature over these values.
    public func isValid(by key: SigningPublicKey) -> Bool {
        guard publicKey == key.bytes else { return false }
        return key.key.isValidSignature(signature, for: Self.message(batch: batch, lastSeq: lastSeq, head: head, record: record))
    }
}

/// A batch's record as it is signed: every column of the `batches` row.
public struct BatchRecord: Sendable, Equatable {
    public var batch: Int64
    public var source: String
    public var firstLine: Int64?
    public var lastLine: Int64?
    public var firstSeq: Int64?
    public var lastSeq: Int64?
    public var read: Int64
    public var appended: Int64
    public var duplicates: Int64
    public var rejected: Int64
    public var recorded: Int64

    public init(batch: Int64, source: String, firstLine: Int64?, lastLine: Int64?, firstSeq: Int64?, lastSeq: Int64?,
                read: Int64, appended: Int64, duplicates: Int64, rejected: Int64, recorded: Int64) {
        self.batch = batch
        self.source = source
        self.firstLine = firstLine
        self.lastLine = lastLine
        self.firstSeq = firstSeq
        self.lastSeq = lastSeq
        self.read = read
        self.appended = appended
        self.duplicates = duplicates
        self.rejected = rejected
        self.recorded = recorded
    }

    /// The record of `batch`, appended as number `number` with `outcome` at `recorded`: the
    /// lines it spans, the seqs it took and its counts.
    public init(_ number: Int64, of batch: EventBatch, outcome: AppendOutcome, recorded: Int64) {
        let lines = batch.events.map(\.line) + batch.rejected.map(\.line)
        self.init(
            batch: number, source: batch.source, firstLine: lines.min().map(Int64.init), lastLine: lines.max().map(Int64.init),
            firstSeq: outcome.firstSeq, lastSeq: outcome.lastSeq, read: Int64(outcome.read), appended: Int64(outcome.appended),
            duplicates: Int64(outcome.duplicates), rejected: Int64(outcome.rejected), recorded: recorded)
    }

    /// SHA-256 of the record's columns in the hash chain's canonical encoding.
    public var digest: [UInt8] {
        var chain = EventHashChain()
        chain.begin()
        chain.integer(batch); chain.text(source); chain.integer(firstLine); chain.integer(lastLine)
        chain.integer(firstSeq); chain.integer(lastSeq)
        for value in [read, appended, duplicates, rejected, recorded] { chain.integer(value) }
        return chain.finish()
    }
}
