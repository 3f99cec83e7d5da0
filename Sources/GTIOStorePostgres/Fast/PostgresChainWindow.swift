import GTIOCatalog
import GTIOStore
import NIOCore
import PostgresNIO

/// A page of the log as `verify` reads it: every stored column the hash chain covers, sent by
/// the server as one row of arrays and read from their binary form, as `PostgresPage` reads a
/// scan's windows (a row per event cost `verify` most of its time in postgres-nio's row access).
struct PostgresChainWindow {
    /// The query of a page: the first `limit` events after seq `$1`, in seq order, as arrays
    /// (NULL when there are none); the nine text columns in one array of nine per event.
    static func query(limit: Int) -> String {
        """
        SELECT array_agg(seq), array_agg(at), array_agg(recorded), array_agg(v), array_agg(batch), array_agg(flag),
               array_agg(number), array_agg(ARRAY[id, type, user, device, subject, object, value, text, original]),
               array_agg(hash)
        FROM (SELECT seq, at, recorded, v, batch, flag, number, id, type, user, device, subject, object, value, text,
                     original, hash
              FROM events WHERE seq > ? ORDER BY seq LIMIT \(limit)) AS page
        """
    }

    /// The text columns in the order of the query's array of nine.
    enum TextColumn: Int, CaseIterable {
        case id, type, user, device, subject, object, value, text, original
    }

    private(set) var seqs: [Int64] = []
    private var ats: [Int64?] = [], recordeds: [Int64?] = [], versions: [Int64?] = [], batches: [Int64?] = []
    private var flags: [Int64?] = [], numbers: [Double?] = []
    /// The nine text columns of each event in turn, then each event's hash, as (start, count) in
    /// `bytes`; count -1 for NULL.
    private var spans: [Int] = []
    private var bytes: [UInt8] = []

    var count: Int { seqs.count }

    /// Reads the row of `query(limit:)`, checking that the seqs rise and every column is as long.
    init(_ rows: [PostgresRow]) throws {
        guard let row = rows.first else { return }
        var columns = PostgresBinaryArray.Columns(row)
        var seqs: [Int64] = [], spans: [Int] = [], bytes: [UInt8] = []
        try columns.seqs(into: &seqs)
        func integers() throws -> [Int64?] {
            var values: [Int64?] = []
            values.reserveCapacity(seqs.count)
            try PostgresBinaryArray.forEach(columns.next()) { values.append(try $0.optionalInteger()) }
            guard values.count == seqs.count else { throw Self.uneven }
            return values
        }
        func keep(_ element: PostgresBinaryArray.Element) {
            if let value = element.bytes {
                spans.append(bytes.count)
                spans.append(value.count)
                bytes.append(contentsOf: value)
            } else {
                spans.append(0)
                spans.append(-1)
            }
        }
        let (ats, recordeds, versions, batches, flags) = (try integers(), try integers(), try integers(), try integers(), try integers())
        var numbers: [Double?] = []
        try PostgresBinaryArray.forEach(columns.next()) { numbers.append(try $0.optionalNumber()) }
        let width = TextColumn.allCases.count
        try PostgresBinaryArray.forEach(columns.next(), rowsOf: Int32(width)) { element in
            guard spans.count < seqs.count * width * 2 else { throw Self.uneven }
            keep(element)
        }
        try PostgresBinaryArray.forEach(columns.next()) { element in
            guard spans.count < seqs.count * (width + 1) * 2 else { throw Self.uneven }
            keep(element)
        }
        guard numbers.count == seqs.count, spans.count == seqs.count * (width + 1) * 2 else { throw Self.uneven }
        (self.seqs, self.ats, self.recordeds, self.versions, self.batches) = (seqs, ats, recordeds, versions, batches)
        (self.flags, self.numbers, self.spans, self.bytes) = (flags, numbers, spans, bytes)
    }

    private static let uneven = PostgresBinaryArray.uneven

    /// Calls `body` with a text column's bytes, nil for NULL.
    func withText<T>(_ index: Int, _ column: TextColumn, _ body: (UnsafeRawBufferPointer?) throws -> T) rethrows -> T {
        try withSpan(index * TextColumn.allCases.count + column.rawValue, body)
    }

    /// Calls `body` with the stored hash's bytes, nil for NULL.
    func withHash<T>(_ index: Int, _ body: (UnsafeRawBufferPointer?) throws -> T) rethrows -> T {
        try withSpan(count * TextColumn.allCases.count + index, body)
    }

    private func withSpan<T>(_ span: Int, _ body: (UnsafeRawBufferPointer?) throws -> T) rethrows -> T {
        let start = spans[span * 2], count = spans[span * 2 + 1]
        guard count >= 0 else { return try body(nil) }
        return try bytes.withUnsafeBytes { all in try body(UnsafeRawBufferPointer(rebasing: all[start..<start + count])) }
    }

    /// Builds the event's canonical content into `chain`, from its `begin` on, the list given
    /// apart: the columns in the order `EventHashChain` hashes them.
    func content(_ index: Int, list: [String], into chain: inout EventHashChain) {
        func text(_ column: TextColumn) {
            withText(index, column) { bytes in if let bytes { chain.text(bytes) } else { chain.null() } }
        }
        chain.begin()
        text(.id); text(.type); chain.integer(ats[index])
        text(.user); text(.device); chain.integer(versions[index])
        text(.subject); text(.object); text(.value)
        chain.integer(flags[index]); chain.number(numbers[index]); text(.text); text(.original)
        chain.integer(Int64(list.count))
        for user in list { chain.text(user) }
    }

    func recorded(_ index: Int) -> Int64 { recordeds[index] ?? 0 }
    func batch(_ index: Int) -> Int64 { batches[index] ?? 0 }

    /// Whether the event's type is `type`.
    func isType(_ index: Int, _ type: EventType) -> Bool {
        withText(index, .type) { bytes in bytes.map { $0.elementsEqual(type.rawValue.utf8) } ?? false }
    }
}
