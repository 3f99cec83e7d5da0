import GTIOStore

/// A post's row as a query needs it: whether it exists, and its life.
public struct StoredPost: Sendable, Equatable {
    public var id: String
    public var author: String
    public var life: CommunityState.Life
}

extension StoredReadModels {
    /// The post `id`, nil when no `post.created` made it.
    public func post(_ id: String) throws -> StoredPost? {
        try read { tables in
            try tables.row("SELECT author, state FROM rm_posts WHERE post = ?", [.text(id)]).map { row in
                StoredPost(id: id, author: row[0].string ?? "", life: CommunityState.Life(column: row[1].string ?? ""))
            }
        }
    }

    // MARK: Vote verdicts (3.2)

    /// Every live post with at least one counted vote, best Wilson bound first, then more votes,
    /// then id; the first `limit` (nil or 0: all), read in the order of the table's index.
    public func verdicts(limit: Int? = nil) throws -> [VoteVerdict] {
        var sql = "SELECT post, wear_it, change_it FROM rm_verdicts ORDER BY wilson DESC, votes DESC, post"
        var arguments: [StoreValue] = []
        if let limit, limit > 0 {
            sql += " LIMIT ?"
            arguments.append(.integer(Int64(limit)))
        }
        return try read { tables in try tables.rows(sql, arguments).map(Self.verdict) }
    }

    /// The verdict of one post: nil when it has none (no counted vote, or deleted or removed).
    public func verdict(post: String) throws -> VoteVerdict? {
        try read { tables in
            try tables.row("SELECT post, wear_it, change_it FROM rm_verdicts WHERE post = ?", [.text(post)]).map(Self.verdict)
        }
    }

    private static func verdict(_ row: [StoreValue]) -> VoteVerdict {
        VoteVerdict(post: row[0].string ?? "", wearIt: row[1].int, changeIt: row[2].int)
    }
}

extension CommunityState.Life {
    /// The life a `state` column of `rm_posts` names.
    init(column: String) {
        switch column {
        case "deleted": self = .deleted
        case "removed": self = .removed
        default: self = .live
        }
    }
}
