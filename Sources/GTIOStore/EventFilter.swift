import GTIOCatalog

/// Which events `gtio events` shows: all criteria must hold.
public struct EventFilter: Sendable, Equatable {
    public var types: [EventType] = []
    public var user: String?
    /// A post: events whose subject is the post, and reviews added to it.
    public var post: String?
    public var since: Timestamp?
    public var until: Timestamp?
    public var afterSeq: Int64?
    public var throughSeq: Int64?
    /// At most this many, 0 or nil for all.
    public var limit: Int?
    /// The last `limit` matching events (still printed oldest first), like `tail`.
    public var newestFirst = false

    public init() {}
}

extension EventFilter {
    /// The statement selecting `columns` of the filter's events, and its arguments; `?` marks
    /// each argument, and the column `user` is named bare (a backend quotes it where it must).
    public func sql(columns: String = "*") -> (String, [StoreValue]) {
        var clauses: [String] = []
        var arguments: [StoreValue] = []
        if !types.isEmpty {
            clauses.append("type IN (\(types.map { _ in "?" }.joined(separator: ",")))")
            arguments += types.map { .text($0.rawValue) }
        }
        if let user { clauses.append("user = ?"); arguments.append(.text(user)) }
        if let post {
            clauses.append("(subject = ? OR (type = 'review.added' AND object = ?))")
            arguments += [.text(post), .text(post)]
        }
        if let since { clauses.append("at >= ?"); arguments.append(.integer(since.milliseconds)) }
        if let until { clauses.append("at <= ?"); arguments.append(.integer(until.milliseconds)) }
        if let afterSeq { clauses.append("seq > ?"); arguments.append(.integer(afterSeq)) }
        if let throughSeq { clauses.append("seq <= ?"); arguments.append(.integer(throughSeq)) }
        var sql = "SELECT \(columns) FROM events"
        if !clauses.isEmpty { sql += " WHERE " + clauses.joined(separator: " AND ") }
        sql += newestFirst ? " ORDER BY seq DESC" : " ORDER BY seq"
        if let limit, limit > 0 { sql += " LIMIT \(limit)" }
        return (sql, arguments)
    }
}

extension EventLog {
    /// `filter` with its seqs narrowed to the span in which the events of its times lie
    /// (`seqSpan`), nil when no event does: a listing of one day reads that day's part of the
    /// log rather than every event before it (the log has no index by time that a filter's
    /// `at` could use on SQLite). Filters without `since` or `until` come back as they are.
    public func narrowedToItsTimes(_ filter: EventFilter) throws -> EventFilter? {
        guard filter.since != nil || filter.until != nil else { return filter }
        guard let earliest = try filter.since?.milliseconds ?? timeExtent(throughSeq: filter.throughSeq, atMost: nil)?.lowerBound
        else { return nil }
        let scope = LogScope(
            afterSeq: filter.afterSeq ?? 0, throughSeq: filter.throughSeq, atMost: filter.until?.milliseconds, atLeast: earliest)
        guard let span = try seqSpan(scope) else { return nil }
        var narrowed = filter
        narrowed.afterSeq = max(filter.afterSeq ?? 0, span.lowerBound - 1)
        narrowed.throughSeq = min(filter.throughSeq ?? .max, span.upperBound)
        return narrowed
    }
}
