import GTIOCatalog
/// Ids to their keys, for `KeyTable`: an open-addressing table whose slots hold ids of up to 16
/// UTF-8 bytes (every id the app mints) inline, so that a lookup reads one cache line; longer
/// ids go to a dictionary. Hand-written because `Dictionary<String, Int>` was the bottleneck of
/// a rebuild (docs/PERFORMANCE.md).
struct IDIndex: Sendable {
    /// An id's bytes as two words and a length.
    struct Packed: Sendable, Equatable {
        var low: UInt64 = 0
        var high: UInt64 = 0
        var length: UInt64 = 0
    }

    /// 24 bytes: lookups are mostly cache misses, fewer the smaller the table.
    private struct Slot: Sendable {
        var low: UInt64 = 0
        var high: UInt64 = 0
        /// The id's length above, its key below; 0 marks an empty slot (key 0 is never an id's).
        var meta: UInt64 = 0

        init() {}
        init(_ packed: Packed, key: Int) {
            low = packed.low
            high = packed.high
            meta = packed.length << 32 | UInt64(key)
        }

        var key: Int { Int(meta & 0xFFFF_FFFF) }
        func holds(_ packed: Packed) -> Bool { low == packed.low && high == packed.high && meta >> 32 == packed.length }
    }

    private var slots = [Slot](repeating: Slot(), count: 1024)
    private var used = 0
    private var long: [ExactText: Int] = [:]

    init() {}

    /// The index of `ids`, keyed 1, 2, … in their order; nil when an id comes twice. Filled in
    /// the order of the ids' home slots, so that the table is written front to back, where
    /// keying one id after another writes it at random (a saved state's millions of ids).
    init?(keying ids: borrowing [String]) {
        var capacity = 1024
        while ids.count * 10 > capacity * 7 { capacity *= 2 }
        slots = [Slot](repeating: Slot(), count: capacity)
        let mask = capacity - 1
        var packs: [Packed] = []
        packs.reserveCapacity(ids.count)
        var homes: [UInt64] = []
        homes.reserveCapacity(ids.count)
        for (offset, id) in ids.enumerated() {
            var id = id
            guard let packed = id.withUTF8({ Self.pack($0) }) else {
                guard long.updateValue(offset + 1, forKey: ExactText(id)) == nil else { return nil }
                packs.append(Packed())
                continue
            }
            packs.append(packed)
            // Home slot above, key below: sorted, they come in the order of their home slots.
            homes.append(UInt64(Self.hash(packed) & mask) << 32 | UInt64(offset + 1))
        }
        Self.sortByHome(&homes, slotBits: capacity.trailingZeroBitCount)
        for entry in homes {
            let key = Int(entry & 0xFFFF_FFFF), packed = packs[key - 1]
            var index = Int(entry >> 32)
            while slots[index].meta != 0 {
                if slots[index].holds(packed) { return nil }
                index = (index + 1) & mask
            }
            slots[index] = Slot(packed, key: key)
        }
        used = homes.count
    }

    /// Sorts entries of a home slot (the upper word, below 2^`slotBits`) and a key (the lower)
    /// by home slot: a radix sort in passes of 11 bits, where a comparison sort of millions of
    /// entries took as long as the random writes it saves.
    private static func sortByHome(_ entries: inout [UInt64], slotBits: Int) {
        var other = [UInt64](repeating: 0, count: entries.count)
        var shift = 32
        while shift < 32 + slotBits {
            var starts = [Int](repeating: 0, count: 2048 + 1)
            for entry in entries { starts[Int(entry >> UInt64(shift)) & 2047 + 1] += 1 }
            for bucket in 0..<2048 { starts[bucket + 1] += starts[bucket] }
            for entry in entries {
                let bucket = Int(entry >> UInt64(shift)) & 2047
                other[starts[bucket]] = entry
                starts[bucket] += 1
            }
            swap(&entries, &other)
            shift += 11
        }
    }

    /// The key of `id`, or nil.
    func key(_ id: String) -> Int? {
        var id = id
        return id.withUTF8 { key(utf8: $0) }
    }

    /// The key of the id with these UTF-8 bytes, or nil.
    func key(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let packed = Self.pack(bytes) else { return long[ExactText(String(decoding: bytes, as: UTF8.self))] }
        let key = slots[slot(of: packed)].key
        return key == 0 ? nil : key
    }

    /// The key of `id`, or `make()` stored as its key when it has none yet.
    mutating func key(_ id: String, orAdd make: () -> Int) -> Int {
        var id = id
        return id.withUTF8 { key(utf8: $0) { _ in make() } }
    }

    /// The key of the id with these UTF-8 bytes, or `make(id)` stored as its key when it has
    /// none yet: a scan keys ids from SQLite's bytes and only makes a `String` of a new one.
    mutating func key(utf8 bytes: UnsafeBufferPointer<UInt8>, orAdd make: (String) -> Int) -> Int {
        guard let packed = Self.pack(bytes) else {
            let id = String(decoding: bytes, as: UTF8.self)
            if let key = long[ExactText(id)] { return key }
            let key = make(id)
            long[ExactText(id)] = key
            return key
        }
        let index = slot(of: packed)
        if slots[index].meta != 0 { return slots[index].key }
        let key = make(String(decoding: bytes, as: UTF8.self))
        slots[index] = Slot(packed, key: key)
        used += 1
        if used * 10 > slots.count * 7 { grow() }
        return key
    }

    /// The slot holding `packed`, or the empty slot where it would go.
    private func slot(of packed: Packed) -> Int {
        let mask = slots.count - 1
        var index = Self.hash(packed) & mask
        while slots[index].meta != 0 && !slots[index].holds(packed) { index = (index + 1) & mask }
        return index
    }

    /// Doubles at 70 % full, where linear probing stays short.
    private mutating func grow() {
        let old = slots
        slots = [Slot](repeating: Slot(), count: old.count * 2)
        for slot in old where slot.meta != 0 {
            slots[self.slot(of: Packed(low: slot.low, high: slot.high, length: slot.meta >> 32))] = slot
        }
    }

    /// An id's bytes as two words and a length, or nil when longer than 16 bytes; loaded as
    /// words, since a `memcpy` of the length costs a call per lookup.
    static func pack(_ bytes: UnsafeBufferPointer<UInt8>) -> Packed? {
        let count = bytes.count
        guard count <= 16 else { return nil }
        guard let base = bytes.baseAddress else { return Packed() }
        let raw = UnsafeRawPointer(base)
        guard count >= 8 else {
            var low: UInt64 = 0
            for offset in 0..<count { low |= UInt64(raw.load(fromByteOffset: offset, as: UInt8.self)) << UInt64(offset * 8) }
            return Packed(low: low, high: 0, length: UInt64(count))
        }
        // The high word is bytes 8..., read as the last eight bytes with those before byte 8
        // shifted out: nothing past the end is read.
        let low = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
        let last = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
        let high = count == 8 ? 0 : last >> UInt64((16 - count) * 8)
        return Packed(low: low, high: high, length: UInt64(count))
    }

    /// A keyed hash: producers choose ids, and with a fixed hash anyone could send ids that all
    /// land in one run of slots and make each lookup walk them all (quadratic keying). The keys
    /// are drawn at random once per process, so which ids collide cannot be worked out from
    /// outside; the mixing is wyhash's folded 128-bit multiply. Keys are handed out in the order
    /// ids are first seen, so no answer depends on the hash.
    static func hash(_ packed: Packed) -> Int {
        let seeds = Self.seeds
        return Int(truncatingIfNeeded: mum(mum(packed.low ^ seeds.0, packed.high ^ seeds.1), packed.length ^ seeds.2))
    }

    private static func mum(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let (high, low) = a.multipliedFullWidth(by: b)
        return high ^ low
    }

    /// Odd keys, so that no key is 0 (a product with 0 would lose the id).
    private static let seeds: (UInt64, UInt64, UInt64) = (
        UInt64.random(in: .min ... .max) | 1, UInt64.random(in: .min ... .max) | 1, UInt64.random(in: .min ... .max) | 1
    )

    /// The most slots a lookup of a stored id walks: what a flood of colliding ids would raise.
    var longestProbe: Int {
        let mask = slots.count - 1
        var longest = 0
        for (index, slot) in slots.enumerated() where slot.meta != 0 {
            let home = Self.hash(Packed(low: slot.low, high: slot.high, length: slot.meta >> 32)) & mask
            longest = max(longest, (index - home + slots.count) & mask + 1)
        }
        return longest
    }
}
