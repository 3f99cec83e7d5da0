import Crypto
import GTIOCatalog

/// The tamper-evident chain over the log, so changing, removing or reordering any stored event
/// (even with the append-only triggers dropped) breaks every hash from it on:
///
///     digest = SHA-256(canonical content)
///     hash   = SHA-256(previous hash ‖ seq ‖ recorded ‖ batch ‖ digest)
///
/// The content is the stored columns id, type, at, user, device, v, subject, object, value,
/// flag, number, text, original and the list, each tagged 0 for NULL or 1 and its value:
/// integers as 8 bytes big-endian, doubles by their bit pattern, text as an 8-byte length and
/// its UTF-8. Digests are computed where there is time to spare (ingest's validating thread),
/// so the appending thread only chains 88 bytes per event.
public struct EventHashChain {
    /// The hash before the first event.
    public static let genesis = [UInt8](repeating: 0, count: 32)

    /// The previous hash followed by the canonical form being built; reused for every event,
    /// since ingest and verify hash every event of the log.
    private var buffer: [UInt8] = []

    public init() {
        buffer.reserveCapacity(4096)
    }

    /// Starts the next event's canonical content.
    public mutating func begin() {
        buffer.removeAll(keepingCapacity: true)
    }

    public mutating func integer(_ value: Int64?) {
        guard let value else { buffer.append(0); return }
        buffer.append(1)
        withUnsafeBytes(of: value.bigEndian) { buffer.append(contentsOf: $0) }
    }

    public mutating func number(_ value: Double?) { integer(value.map { Int64(bitPattern: $0.bitPattern) }) }

    public mutating func text(_ value: String?) {
        guard var value else { buffer.append(0); return }
        value.withUTF8 { text(UnsafeRawBufferPointer($0)) }
    }

    /// Text given as UTF-8 bytes (from SQLite's column buffer, say).
    public mutating func text(_ bytes: UnsafeRawBufferPointer) {
        buffer.append(1)
        withUnsafeBytes(of: Int64(bytes.count).bigEndian) { buffer.append(contentsOf: $0) }
        buffer.append(contentsOf: bytes)
    }

    public mutating func null() { buffer.append(0) }

    /// SHA-256 of the content built since `begin`: the event's digest.
    public func finish() -> [UInt8] { SHA256.hash(data: buffer).withUnsafeBytes { Array($0) } }

    /// The digest of a validated event's content, as it will be stored.
    public mutating func digest(of event: ValidatedEvent) -> [UInt8] {
        encode(event)
        return finish()
    }

    /// Appends the digest of a validated event's content to `digests`.
    public mutating func appendDigest(of event: ValidatedEvent, to digests: inout [UInt8]) {
        encode(event)
        finish(into: &digests)
    }

    private mutating func encode(_ event: ValidatedEvent) {
        begin()
        text(event.id); text(event.type.rawValue); integer(event.at.milliseconds); text(event.user); text(event.device)
        integer(event.version); text(event.subject); text(event.object); text(event.value)
        integer(event.flag.map { $0 ? 1 : 0 }); number(event.number); text(event.text); text(event.original)
        integer(Int64(event.list.count))
        for user in event.list { text(user) }
    }

    /// The chain link of the event at `seq`.
    public static func link(
        after previous: [UInt8], seq: Int64, recorded: Int64, batch: Int64, digest: UnsafeRawBufferPointer
    ) -> [UInt8] {
        var hasher = SHA256()
        previous.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        withUnsafeBytes(of: (seq.bigEndian, recorded.bigEndian, batch.bigEndian)) { hasher.update(bufferPointer: $0) }
        hasher.update(bufferPointer: digest)
        // Copied from the digest's bytes: `Array(digest)` goes element by element through
        // its iterator, 2 % of the collector's commit thread.
        return hasher.finalize().withUnsafeBytes { Array($0) }
    }

    /// The digest of the content built since `begin`, appended to `digests`.
    public mutating func finish(into digests: inout [UInt8]) {
        SHA256.hash(data: buffer).withUnsafeBytes { digests.append(contentsOf: $0) }
    }
}
