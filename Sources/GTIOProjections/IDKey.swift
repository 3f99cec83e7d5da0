/// An id's dense key (`KeyTable`) as the key of a set or dictionary of the fold's state: a
/// post's hearters and voters, each user's follow edges, the activity calendars' older spans.
///
/// Hashed by two multiply-xorshift rounds of the key and the table's seed, as `KeyPair` is,
/// where `Int` would set up SipHash for each: a saved state puts millions of them back into
/// their tables at every load (docs/PERFORMANCE.md). Still seeded per table, so that nobody can
/// lay out keys that collide; and four bytes, as keys fit 31 bits, so that the tables weigh half.
public struct IDKey: Hashable, Sendable {
    let raw: Int32

    init(_ key: Int) {
        raw = Int32(truncatingIfNeeded: key)
    }

    /// The key as the state's arrays index by it.
    var int: Int { Int(raw) }

    public func _rawHashValue(seed: Int) -> Int {
        CommunityState.KeyPair.mix(UInt64(UInt32(bitPattern: raw)), seed: seed)
    }
}
