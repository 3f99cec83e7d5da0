/// Orders ids as SQLite's BINARY collation does (by UTF-8 bytes), fast: by their first eight
/// bytes as one integer, and only ties by their bytes. Sorting a table's keys with `String`'s
/// `<` took a tenth of building the rebuilt tables' rows (perf, 1 M-event demo log).
enum IDOrder {
    /// The indices of `ids` in the ids' byte order.
    static func indices(_ ids: [String]) -> [Int] {
        let prefixes = ids.map(prefix)
        return ids.indices.sorted { a, b in
            if prefixes[a] != prefixes[b] { return prefixes[a] < prefixes[b] }
            return ids[a].utf8.lexicographicallyPrecedes(ids[b].utf8)
        }
    }

    /// `id`'s first eight bytes, big-endian, zero-padded: integers in the ids' byte order.
    static func prefix(_ id: String) -> UInt64 {
        var prefix: UInt64 = 0
        var shift: UInt64 = 56
        for byte in id.utf8.prefix(8) {
            prefix |= UInt64(byte) << shift
            shift &-= 8
        }
        return prefix
    }
}
