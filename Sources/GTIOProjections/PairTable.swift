/// Pairs of keys (`CommunityState.KeyPair`) with a value each, for a table that is read back
/// whole far more often than it grows: the quick-add pairs shown, millions on a large log.
///
/// The pairs read back from a saved state stay in one array sorted by pair, found by binary
/// search; those added since go to a hash table. Read back, the saved pairs are copied in order
/// rather than hashed one by one into a table of millions, each a cache miss
/// (docs/PERFORMANCE.md); saved, both are merged in order again. Neither can be flooded: the
/// search is logarithmic whatever the pairs, and the table hashes with its own seed.
struct PairTable<Value: Sendable>: Sendable {
    typealias KeyPair = CommunityState.KeyPair

    /// The pairs as read back, ascending, and their values.
    private var sortedPairs: [Int] = []
    private var sortedValues: [Value] = []
    /// The pairs added since (never one of `sortedPairs`).
    private var added: [KeyPair: Value] = [:]

    init() {}

    var count: Int { sortedPairs.count + added.count }

    subscript(pair: KeyPair) -> Value? {
        if let value = added[pair] { return value }
        return index(of: pair).map { sortedValues[$0] }
    }

    /// Sets the value of `pair`, adding the pair when it is new.
    mutating func set(_ value: Value, for pair: KeyPair) {
        if let index = index(of: pair) {
            sortedValues[index] = value
        } else {
            added[pair] = value
        }
    }

    /// Where `pair` is in `sortedPairs`, nil when it is not there.
    private func index(of pair: KeyPair) -> Int? {
        var low = 0, high = sortedPairs.count
        while low < high {
            let middle = (low + high) >> 1
            if sortedPairs[middle] < pair.packed { low = middle + 1 } else { high = middle }
        }
        return low < sortedPairs.count && sortedPairs[low] == pair.packed ? low : nil
    }

    /// Calls `body` with every pair and its value, in ascending order of pair: the pairs read
    /// back and those added since, merged as they go rather than into one more array.
    func forEachInOrder(_ body: (KeyPair, Value) -> Void) {
        let fresh = added.sorted { $0.key.packed < $1.key.packed }
        var old = 0, new = 0
        while old < sortedPairs.count || new < fresh.count {
            if new == fresh.count || (old < sortedPairs.count && sortedPairs[old] < fresh[new].key.packed) {
                body(KeyPair(packed: sortedPairs[old]), sortedValues[old])
                old += 1
            } else {
                body(fresh[new].key, fresh[new].value)
                new += 1
            }
        }
    }
}

extension PairTable {
    /// The pairs in ascending order, each as its distance from the one before (a few bytes where
    /// the pair itself takes up to nine), then its value by `value`.
    func write(to writer: inout StateWriter, _ value: (inout StateWriter, Value) -> Void) {
        writer.write(count)
        var previous = 0
        forEachInOrder { pair, held in
            writer.write(pair.packed - previous)
            value(&writer, held)
            previous = pair.packed
        }
    }

    /// Reads what `write` wrote, refusing pairs that do not ascend (each distance ≥ 1, the first
    /// pair ≥ 0) or overflow.
    init(from reader: inout StateReader, _ value: (inout StateReader) throws -> Value) throws {
        let count = try reader.readCount()
        sortedPairs.reserveCapacity(count)
        sortedValues.reserveCapacity(count)
        var previous = 0
        for index in 0..<count {
            let distance = try reader.readInt()
            guard distance >= (index == 0 ? 0 : 1), distance <= Int.max - previous else {
                throw FoldSnapshotError.malformed("pairs saved out of order")
            }
            previous += distance
            sortedPairs.append(previous)
            sortedValues.append(try value(&reader))
        }
    }
}
