/// Ids to their keys, for `KeyTable`. Hand-written because `Dictionary<String, Int>` was the
/// bottleneck of a rebuild: keying the ids of 1 M demo events took ~0.5 s of the scanning
/// thread (gtio-bench rebuild), mostly cache misses on its metadata, key, value and string
/// storage. Ids of up to 16 UTF-8 bytes (every id the app mints) are kept inline in one slot,
/// so a lookup reads one cache line; longer ids go to a dictionary.
struct IDIndex: Sendable {
    private struct Slot: Sendable {
        var low: UInt64 = 0
        var high: UInt64 = 0
        var length: Int32 = 0
        /// 0 marks an empty slot (key 0 is never an id's).
        var key: Int32 = 0
    }

    private var slots = [Slot](repeating: Slot(), count: 1024)
    private var used = 0
    private var long: [String: Int] = [:]

    /// The key of `id`, or nil.
    func key(_ id: String) -> Int? {
        guard let packed = Self.pack(id) else { return long[id] }
        let mask = slots.count - 1
        var index = Self.hash(packed) & mask
        while slots[index].key != 0 {
            if slots[index].low == packed.low && slots[index].high == packed.high && slots[index].length == packed.length {
                return Int(slots[index].key)
            }
            index = (index + 1) & mask
        }
        return nil
    }

    /// The key of `id`, or `make()` stored as its key when it has none yet.
    mutating func key(_ id: String, orAdd make: () -> Int) -> Int {
        guard let packed = Self.pack(id) else {
            if let key = long[id] { return key }
            let key = make()
            long[id] = key
            return key
        }
        let mask = slots.count - 1
        var index = Self.hash(packed) & mask
        while slots[index].key != 0 {
            if slots[index].low == packed.low && slots[index].high == packed.high && slots[index].length == packed.length {
                return Int(slots[index].key)
            }
            index = (index + 1) & mask
        }
        let key = make()
        slots[index] = Slot(low: packed.low, high: packed.high, length: packed.length, key: Int32(key))
        used += 1
        if used * 2 > slots.count { grow() }
        return key
    }

    /// Linear probing stays short at most half full.
    private mutating func grow() {
        let old = slots
        slots = [Slot](repeating: Slot(), count: old.count * 2)
        let mask = slots.count - 1
        for slot in old where slot.key != 0 {
            var index = Self.hash((slot.low, slot.high, slot.length)) & mask
            while slots[index].key != 0 { index = (index + 1) & mask }
            slots[index] = slot
        }
    }

    /// An id's bytes as two words and a length, or nil when longer than 16 bytes.
    private static func pack(_ id: String) -> (low: UInt64, high: UInt64, length: Int32)? {
        var id = id
        return id.withUTF8 { bytes -> (low: UInt64, high: UInt64, length: Int32)? in
            guard bytes.count <= 16 else { return nil }
            var words: (UInt64, UInt64) = (0, 0)
            withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(bytes)) }
            return (words.0, words.1, Int32(bytes.count))
        }
    }

    /// Multiply-xorshift mixing: the ids are the app's random-looking hex, and an unseeded hash
    /// is enough for a table that only ever holds the log's own ids.
    private static func hash(_ packed: (low: UInt64, high: UInt64, length: Int32)) -> Int {
        var h = packed.low &* 0x9E37_79B9_7F4A_7C15
        h ^= (packed.high &+ UInt64(packed.length)) &* 0xC2B2_AE3D_27D4_EB4F
        h ^= h >> 29
        h = h &* 0xBF58_476D_1CE4_E5B9
        h ^= h >> 32
        return Int(truncatingIfNeeded: h)
    }
}
