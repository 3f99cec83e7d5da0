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
