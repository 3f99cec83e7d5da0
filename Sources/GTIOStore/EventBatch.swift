import GTIOCatalog

/// A run of consecutive input lines from one source, appended in one transaction:
/// after a crash the log ends at a batch boundary, never inside one.
public struct EventBatch: Sendable {
    /// Where the lines came from: an absolute file path, `<stdin>`, or a request name.
    public var source: String
    /// The valid events with their line numbers, in input order.
    public var events: [(line: Int, event: ValidatedEvent)]
    /// The lines that failed validation.
    public var rejected: [RejectedLine]
    /// The events' content digests for the hash chain, 32 bytes each in event order, when the
    /// producer computed them (ingest does, on its validating thread, while batches are mostly
    /// new events); empty otherwise, and the store computes those of new events. One buffer, not
    /// an array per event: a million small arrays freed on the other thread cost measurably.
    public var digests: [UInt8] = []
    /// Non-blank lines read for this batch (events plus rejected).
    public var read: Int { events.count + rejected.count }

    public init(source: String, events: [(line: Int, event: ValidatedEvent)] = [], rejected: [RejectedLine] = []) {
        self.source = source
        self.events = events
        self.rejected = rejected
    }

    /// Validates `text`, input line `line`, and keeps it: with the events when valid, with the
    /// rejected lines and the reason otherwise. The event when it was valid.
    @discardableResult
    public mutating func add(_ text: UnsafeBufferPointer<UInt8>, line: Int) -> ValidatedEvent? {
        switch EventValidator.validate(text) {
        case .success(let event):
            events.append((line, event))
            return event
        case .failure(let rejection):
            rejected.append(RejectedLine(line: line, reason: rejection.description, original: Array(text)))
            return nil
        }
    }
}

/// A line that failed validation, kept byte for byte (it may not even be UTF-8).
public struct RejectedLine: Sendable, Equatable {
    public var line: Int
    public var reason: String
    public var original: [UInt8]

    public init(line: Int, reason: String, original: [UInt8]) {
        self.line = line
        self.reason = reason
        self.original = original
    }
}

extension EventBatch {
    /// The hash-chain link of its event at `index`, appended at `seq` after `previous`: from the
    /// digest the producer computed when there is one, else computed here with `chain`.
    public func link(
        _ index: Int, after previous: [UInt8], seq: Int64, recorded: Int64, batch: Int64, chain: inout EventHashChain
    ) -> [UInt8] {
        let end = (index + 1) * 32
        if end <= digests.count {
            return digests.withUnsafeBytes { all in
                EventHashChain.link(after: previous, seq: seq, recorded: recorded, batch: batch,
                                    digest: UnsafeRawBufferPointer(rebasing: all[(end - 32)..<end]))
            }
        }
        return chain.digest(of: events[index].event).withUnsafeBytes {
            EventHashChain.link(after: previous, seq: seq, recorded: recorded, batch: batch, digest: $0)
        }
    }
}

extension RejectedLine {
    /// FNV-1a of the line's bytes: a cheap fingerprint to tell one rejected line's bytes from
    /// another's, so that a store keeps the same line of the same source once.
    public var fingerprint: Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in original {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return Int64(bitPattern: hash)
    }
}
