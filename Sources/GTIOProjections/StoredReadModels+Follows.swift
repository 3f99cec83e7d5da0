import GTIOStore

extension StoredReadModels {
    /// Whether `user` appears anywhere in the log in view (as actor or as another user's target).
    public func knows(user: String) throws -> Bool {
        try read { tables in try tables.row("SELECT 1 FROM rm_users WHERE user = ?", [.text(user)]) != nil }
    }

    /// The first `limit` (nil: all) users with a *following* edge to `user`, with their display
    /// names, by display name: in the order the table keeps for this list (`follower_order`, as
    /// `NameOrder` sorts), so that the first ten followers of a user followed by everybody cost
    /// ten rows, not the whole list.
    public func followers(of user: String, limit: Int? = nil) throws -> [(user: String, name: String?)] {
        var sql = "SELECT follower, follower_name FROM rm_follows WHERE target = ? AND state = 'following' ORDER BY follower_order, follower"
        var arguments: [StoreValue] = [.text(user)]
        if let limit {
            sql += " LIMIT ?"
            arguments.append(.integer(Int64(limit)))
        }
        return try people(sql, arguments)
    }

    /// The first `limit` (nil: all) users `user` follows (*following* edges only), with their
    /// display names, by display name. The table keeps no order for this list (a user follows
    /// few, where a user may be followed by everybody): it is read whole and sorted here.
    public func following(of user: String, limit: Int? = nil) throws -> [(user: String, name: String?)] {
        let entries = try people("SELECT target, target_name FROM rm_follows WHERE follower = ? AND state = 'following'", [.text(user)])
        return Array(NameOrder.sorted(entries, name: { $0.name ?? $0.user }, id: \.user).prefix(limit ?? .max))
    }

    /// The users and names `sql` selects, in its order; an empty name is none.
    private func people(_ sql: String, _ arguments: [StoreValue]) throws -> [(user: String, name: String?)] {
        try read { tables in try tables.rows(sql, arguments) }
            .map { row in (user: row[0].string ?? "", name: row[1].string.flatMap { $0.isEmpty ? nil : $0 }) }
    }

    /// Quick-add suggestions for `user`, page by page (`page` from 1; refresh is the next page).
    /// Candidates with mutual follows are few and sorted here; the rest come from walking
    /// users by followers, only as far as the page needs.
    public func suggestions(for user: String, page: Int = 1, pageSize: Int = 10) throws -> [FriendSuggestion] {
        guard page >= 1, pageSize >= 1 else { return [] }
        // A page so far out that its place overflows is past any ranking.
        let (start, startOverflows) = (page - 1).multipliedReportingOverflow(by: pageSize)
        let (end, endOverflows) = start.addingReportingOverflow(pageSize)
        guard !startOverflows, !endOverflows else { return [] }
        let head = try ranked(for: user, count: end)
        guard start < head.count else { return [] }
        return Array(head[start...])
    }

    /// Every candidate for `user`, ranked.
    public func allSuggestions(for user: String) throws -> [FriendSuggestion] {
        try ranked(for: user, count: nil)
    }

    /// Authors of an eligible post (see `looks`) may be suggested.
    private static let suggestable = """
        u.private = 0 AND EXISTS (SELECT 1 FROM rm_posts p WHERE p.author = u.user AND p.state = 'live'
        AND p.hidden = 0 AND p.created <= ?)
        """

    func ranked(for user: String, count: Int?) throws -> [FriendSuggestion] {
        try read { tables in
            let me = StoreValue.text(user)
            // Followed or requested by `user`, or blocked either way: never suggested.
            var closed: IDSet = [user]
            for row in try tables.rows("SELECT target FROM rm_follows WHERE follower = ?", [me]) { closed.insert(row[0].string ?? "") }
            for row in try tables.rows("SELECT blocked FROM rm_blocks WHERE blocker = ? UNION SELECT blocker FROM rm_blocks WHERE blocked = ?", [me, me]) {
                closed.insert(row[0].string ?? "")
            }
            // Everyone followed by someone `user` follows, with how many of those follow them:
            // grouped before each is asked whether they may be suggested, so that a user who
            // follows thousands asks once per candidate, not once per path to them.
            var mutual = IDSet()
            var result: [FriendSuggestion] = []
            let shared = try tables.rows("""
                SELECT c.target, c.mutual, u.followers, CASE WHEN \(Self.suggestable) THEN 1 ELSE 0 END
                FROM (SELECT f2.target AS target, COUNT(*) AS mutual FROM rm_follows f1
                      JOIN rm_follows f2 ON f2.follower = f1.target AND f2.state = 'following'
                      WHERE f1.follower = ? AND f1.state = 'following' GROUP BY f2.target) c
                LEFT JOIN rm_users u ON u.user = c.target
                """, [.integer(now), me])
            // Every user with a mutual follow is left out of the popular walk, suggestable or not.
            for row in shared {
                let candidate = row[0].string ?? ""
                mutual.insert(candidate)
                guard row[3].int == 1, !closed.contains(candidate) else { continue }
                result.append(FriendSuggestion(rank: 0, user: candidate, mutual: row[1].int, followers: row[2].int))
            }
            result.sort(by: FriendSuggestion.ranksBefore)
            if let count, result.count > count { result.removeSubrange(count...) }
            if count.map({ result.count < $0 }) ?? true {
                try tables.forEachRow(
                    "SELECT u.user, u.followers FROM rm_users u WHERE \(Self.suggestable) ORDER BY u.followers DESC, u.user",
                    [.integer(now)]
                ) { row in
                    let candidate = row[0].string ?? ""
                    if !mutual.contains(candidate), !closed.contains(candidate) {
                        result.append(FriendSuggestion(rank: 0, user: candidate, mutual: 0, followers: row[1].int))
                    }
                    return count.map { result.count < $0 } ?? true
                }
            }
            for index in result.indices { result[index].rank = index + 1 }
            return result
        }
    }
}

extension StoredReadModels {
    /// Ids of `kind` starting with `prefix`, in id order, at most `limit`: for completion.
    public func ids(_ kind: IDKind, prefix: String, limit: Int = 200) throws -> [String] {
        let (table, column) = switch kind {
        case .user: ("rm_users", "user")
        case .post: ("rm_posts", "post")
        case .item: ("rm_flags", "item")
        case .product: ("rm_products", "product")
        }
        var found: [String] = []
        try read { tables in
            try tables.forEachRow("SELECT \(column) FROM \(table) WHERE \(column) >= ? ORDER BY \(column)", [.text(prefix)]) { row in
                guard let id = row[0].string, id.hasPrefix(prefix) else { return false }
                found.append(id)
                return found.count < limit
            }
        }
        return found
    }

    /// What an id names, for `ids(_:prefix:limit:)`.
    public enum IDKind: Sendable { case user, post, item, product }
}
