import GTIOCatalog
import GTIOStore
import NIOCore
import PostgresNIO

/// One window of a raw scan, its text kept in one buffer that lives until the next window: what
/// `EventRow` reads in place, as it reads SQLite's column buffers.
///
/// The server sends a window's events as one row of arrays (see `query(picking:)`) rather than a
/// row per event: postgres-nio takes each row in as a message of its own, and walks it cell by
/// cell, each cell a copy of its column's description; a rebuild spent most of its reading
/// threads' time there (docs/PERFORMANCE.md). Arrays in PostgreSQL's binary format are read here
/// straight from their bytes. `array_agg` keeps the order of the subquery it reads; the seqs
/// are checked, so that a window out of order fails the scan rather than misleads it.
final class PostgresPage: EventRowCursor {
    /// Seqs per window.
    static let size = 20_000

    /// The query of a window, its events picked by `conditions`: one row whose columns are
    /// arrays of the events' columns, in seq order (NULL when no event is picked); the six text
    /// columns in one array of six per event, one aggregate where six cost the server more.
    static func query(picking conditions: String) -> String {
        """
        SELECT array_agg(seq), array_agg(type), array_agg(at),
               array_agg(ARRAY[user, device, subject, object, value, text]), array_agg(flag), array_agg(number)
        FROM (SELECT seq, type, at, user, device, subject, object, value, text, flag, number FROM events
              WHERE \(conditions) ORDER BY seq) AS page
        """
    }

    private(set) var count = 0
    var current = 0
    private(set) var seqs: [Int64] = []
    private(set) var types: [EventType] = []
    private(set) var ats: [Int64] = []
    private var flags: [Bool?] = []
    private var numbers: [Double?] = []
    /// Per row, six text columns as (start, count) in `text`; count -1 for NULL.
    private var spans: [Int32] = []
    /// The window's text while it is loaded, then `stored`, whose address never moves.
    private var text: [UInt8] = []
    private var stored = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1)
    private var lists: [Int64: [String]] = [:]
    private var properties: [Int64: [EventProperty]] = [:]

    /// Takes in a window: the row of `query(picking:)`, and the window's lists and properties.
    /// The columns are filled as local arrays (the class's own are checked for exclusive access
    /// at every append) and kept once all of them agree.
    func load(_ window: [PostgresRow], lists listRows: [PostgresRow], properties propertyRows: [PostgresRow]) throws {
        var seqs = Self.emptied(&self.seqs), types = Self.emptied(&self.types), ats = Self.emptied(&self.ats)
        var flags = Self.emptied(&self.flags), numbers = Self.emptied(&self.numbers)
        var spans = Self.emptied(&self.spans), text = Self.emptied(&self.text)
        count = 0
        lists.removeAll(keepingCapacity: true)
        properties.removeAll(keepingCapacity: true)
        if let row = window.first {
            var columns = PostgresBinaryArray.Columns(row)
            try columns.seqs(into: &seqs)
            try PostgresBinaryArray.forEach(columns.next()) { name in
                guard let bytes = name.bytes, let type = EventType.named(utf8: bytes) else {
                    throw StoreError.database("an event of seqs \(seqs.first ?? 0)–\(seqs.last ?? 0) has a type unknown to this gtio")
                }
                types.append(type)
            }
            try PostgresBinaryArray.forEach(columns.next()) { ats.append(try $0.integer()) }
            // The six text columns, row after row: one array of six per event.
            try PostgresBinaryArray.forEach(columns.next(), rowsOf: 6) { element in
                guard spans.count < seqs.count * 12 else { throw Self.uneven }
                if let bytes = element.bytes {
                    spans.append(Int32(text.count))
                    spans.append(Int32(bytes.count))
                    text.append(contentsOf: bytes)
                } else {
                    spans.append(0)
                    spans.append(-1)
                }
            }
            guard spans.count == seqs.count * 12 else { throw Self.uneven }
            try PostgresBinaryArray.forEach(columns.next()) { flags.append(try $0.optionalInteger().map { $0 != 0 }) }
            try PostgresBinaryArray.forEach(columns.next()) { numbers.append(try $0.optionalNumber()) }
            guard types.count == seqs.count, ats.count == seqs.count, flags.count == seqs.count, numbers.count == seqs.count
            else { throw Self.uneven }
        }
        for row in listRows {
            var cells = row.makeIterator()
            let seq = try cells.next()!.decode(Int64.self)
            lists[seq, default: []].append(try cells.next()!.decode(String.self))
        }
        for row in propertyRows {
            var cells = row.makeIterator()
            let seq = try cells.next()!.decode(Int64.self)
            let name = try cells.next()!.decode(String.self), position = try cells.next()!.decode(Int64.self)
            let value = try cells.next()!.decode(String?.self), number = try cells.next()!.decode(Double?.self)
            properties[seq, default: []].append(EventProperty(name: name, position: Int(position), text: value, number: number))
        }
        stored.deallocate()
        stored = .allocate(capacity: max(text.count, 1))
        _ = stored.initialize(from: text)
        (self.seqs, self.types, self.ats, self.flags, self.numbers, self.spans, self.text) = (seqs, types, ats, flags, numbers, spans, text)
        count = seqs.count
    }

    private static let uneven = PostgresBinaryArray.uneven

    /// `array` emptied, its storage kept, and left empty in its place.
    private static func emptied<Element>(_ array: inout [Element]) -> [Element] {
        var taken: [Element] = []
        swap(&taken, &array)
        taken.removeAll(keepingCapacity: true)
        return taken
    }

    func bytes(_ column: EventRow.TextColumn) -> UnsafeBufferPointer<UInt8>? {
        let index = (current * 6 + column.rawValue) * 2
        let length = spans[index + 1]
        guard length >= 0 else { return nil }
        let start = Int(spans[index])
        return UnsafeBufferPointer(rebasing: stored[start..<start + Int(length)])
    }

    deinit { stored.deallocate() }

    func flag() -> Bool? { flags[current] }
    func number() -> Double? { numbers[current] }

    func forEachProperty(seq: Int64, _ body: (EventProperty) throws -> Void) throws {
        for property in properties[seq] ?? [] { try body(property) }
    }

    func forEachListed(seq: Int64, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        for var user in lists[seq] ?? [] { try user.withUTF8 { try body($0) } }
    }
}
