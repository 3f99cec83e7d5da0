import GTIOStore

/// Some entries of a list and how many the whole list holds: what a card shows of a list that can
/// run to hundreds of thousands (everyone who hearted a viral post, every flag of it).
public struct Excerpt<Entry: Sendable>: Sendable {
    public var entries: [Entry]
    /// How many entries the list holds, those shown included.
    public var total: Int

    public init(_ entries: [Entry], total: Int) {
        self.entries = entries
        self.total = total
    }

    /// The entries left out.
    public var omitted: Int { total - entries.count }
}

extension TableReading {
    /// The first `count` rows (all with nil) of `SELECT columns source ORDER BY order`, and how
    /// many rows `source` holds: `total` when the caller keeps that figure already, else counted
    /// in `counting` (`source` unless given), only when the rows read fill the page. A list cut
    /// at ten reads ten rows and at most one count, never the list; cut at none, no rows.
    func excerpt<Entry: Sendable>(
        _ columns: String, _ source: String, orderedBy order: String, _ arguments: [StoreValue], first count: Int?,
        counting: String? = nil, total: Int? = nil, _ entry: ([StoreValue]) throws -> Entry
    ) throws -> Excerpt<Entry> {
        let limit = count.map { " LIMIT \(max(0, $0))" } ?? ""
        let entries = count == 0 ? [] : try rows("SELECT \(columns) \(source) ORDER BY \(order)\(limit)", arguments).map(entry)
        guard let count, entries.count >= count else { return Excerpt(entries, total: entries.count) }
        return Excerpt(entries, total: try total ?? row("SELECT COUNT(*) \(counting ?? source)", arguments)?[0].int ?? entries.count)
    }
}
