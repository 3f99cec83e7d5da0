/// The hashes of every id a writer knows to be in the log, answering "maybe" or "certainly
/// not" for an id: a split-block Bloom filter, which grows by adding layers.
///
/// A new event's id is looked up in `event_ids`, one B-tree descent per id; in the collector
/// that was a seventh of the writer's time, nearly all for ids that are new (docs/PERFORMANCE.md).
/// An id this filter has not seen is new without a look-up; one it may have seen is looked up as
/// before, so dedup stays exact. A false "maybe" costs one look-up and comes about once in a
/// hundred ids. Each id sets one bit in each of eight 32-bit words of one 256-bit block
/// (Apache Parquet's filter): a look-up reads one cache line per layer.
///
/// The hashes are the writer's (`RecentIDs`), seeded per process, so ids crafted to fill one
/// block cannot be: such ids could only make look-ups as common as they were without a filter.
struct IDFilter {
    private struct Layer {
        var words: [UInt32]
        var blocks: Int
        var count = 0
        var capacity: Int

        init(capacity: Int) {
            self.capacity = capacity
            blocks = max(1, (capacity * IDFilter.bitsPerID + 255) / 256)
            words = [UInt32](repeating: 0, count: blocks * 8)
        }
    }

    /// Bits per id at a layer's capacity: about 1 % false "maybe".
    static let bitsPerID = 10
    private static let salts: [UInt32] = [
        0x47b6_137b, 0x4497_4d91, 0x8824_ad5b, 0xa2b7_289d, 0x7054_95c7, 0x2df1_424b, 0x9efc_4947, 0x5c6b_fb31,
    ]

    private var layers: [Layer]

    /// A filter for `capacity` ids; past that it adds a layer for twice as many, and so on.
    init(capacity: Int) {
        layers = [Layer(capacity: max(1, capacity))]
    }

    /// The ids' hashes held, all layers together.
    var count: Int { layers.reduce(0) { $0 + $1.count } }

    /// The bytes of its bit sets.
    var bytes: Int { layers.reduce(0) { $0 + $1.words.count * 4 } }

    /// Notes the id of `hash` (a full 64-bit hash of its bytes).
    mutating func insert(_ hash: UInt64) {
        if layers[layers.count - 1].count >= layers[layers.count - 1].capacity {
            layers.append(Layer(capacity: 2 * layers[layers.count - 1].capacity))
        }
        let last = layers.count - 1
        let (first, key) = Self.block(of: hash, among: layers[last].blocks)
        layers[last].words.withUnsafeMutableBufferPointer { words in
            for index in 0..<8 { words[first + index] |= Self.bit(key, index) }
        }
        layers[last].count += 1
    }

    /// False only when no id of this hash was inserted.
    func mayContain(_ hash: UInt64) -> Bool {
        for layer in layers {
            let (first, key) = Self.block(of: hash, among: layer.blocks)
            let found = layer.words.withUnsafeBufferPointer { words in
                (0..<8).allSatisfy { words[first + $0] & Self.bit(key, $0) != 0 }
            }
            if found { return true }
        }
        return false
    }

    /// The first word of the block the hash's high half picks (a multiply, not a modulo), and
    /// the low half, which picks a bit in each of its words.
    private static func block(of hash: UInt64, among blocks: Int) -> (first: Int, key: UInt32) {
        (Int(((hash >> 32) &* UInt64(blocks)) >> 32) * 8, UInt32(truncatingIfNeeded: hash))
    }

    private static func bit(_ key: UInt32, _ index: Int) -> UInt32 {
        1 << ((key &* salts[index]) >> 27)
    }
}
