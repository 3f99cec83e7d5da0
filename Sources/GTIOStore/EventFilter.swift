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

    func sql() -> (String, [any DatabaseValueConvertibleSendable]) {
        var clauses: [String] = []
        var arguments: [any DatabaseValueConvertibleSendable] = []
        if !types.isEmpty {
            clauses.append("type IN (\(types.map { _ in "?" }.joined(separator: ",")))")
            arguments += types.map(\.rawValue)
        }
        if let user { clauses.append("user = ?"); arguments.append(user) }
        if let post {
            clauses.append("(subject = ? OR (type = 'review.added' AND object = ?))")
            arguments += [post, post]
        }
        if let since { clauses.append("at >= ?"); arguments.append(since.milliseconds) }
        if let until { clauses.append("at <= ?"); arguments.append(until.milliseconds) }
        if let afterSeq { clauses.append("seq > ?"); arguments.append(afterSeq) }
        if let throughSeq { clauses.append("seq <= ?"); arguments.append(throughSeq) }
        var sql = "SELECT * FROM events"
        if !clauses.isEmpty { sql += " WHERE " + clauses.joined(separator: " AND ") }
        sql += newestFirst ? " ORDER BY seq DESC" : " ORDER BY seq"
        if let limit, limit > 0 { sql += " LIMIT \(limit)" }
        return (sql, arguments)
    }
}
