/// One quick-add or suggested-friend entry (1.8, 6.2).
public struct FriendSuggestion: Sendable, Equatable {
    public var rank: Int
    public var user: String
    public var mutual: Int
    public var followers: Int

    /// `followed by N people you follow`, or `popular`.
    public var reason: String { mutual > 0 ? "followed by \(mutual) people you follow" : "popular" }

    /// The ranking's order: more mutual follows, then more followers, then by id.
    static func ranksBefore(_ a: FriendSuggestion, _ b: FriendSuggestion) -> Bool {
        if a.mutual != b.mutual { return a.mutual > b.mutual }
        if a.followers != b.followers { return a.followers > b.followers }
        return a.user.utf8.lexicographicallyPrecedes(b.user.utf8)
    }
}

extension ReadModels {
    /// Quick-add suggestions for `user`, page by page (`page` from 1; refresh is the next page).
    public func suggestions(for user: String, page: Int = 1, pageSize: Int = 10) -> [FriendSuggestion] {
        guard page >= 1, pageSize >= 1 else { return [] }
        // A page so far out that its place overflows is past any ranking.
        let (start, startOverflows) = (page - 1).multipliedReportingOverflow(by: pageSize)
        let (end, endOverflows) = start.addingReportingOverflow(pageSize)
        guard !startOverflows, !endOverflows else { return [] }
        let head = ranked(for: user, count: end)
        guard start < head.count else { return [] }
        return Array(head[start...])
    }

    /// Every candidate for `user`, ranked.
    public func allSuggestions(for user: String) -> [FriendSuggestion] {
        ranked(for: user, count: nil)
    }

    /// The first `count` candidates for `user` (all when nil), ranked by mutual follows, then
    /// followers, then id. Candidates with mutual follows are few and sorted here; the rest
    /// follow in the view's popularity order, sorted once per view (its first query pays the
    /// sort) and read only as far as `count` needs.
    func ranked(for user: String, count: Int?) -> [FriendSuggestion] {
        // Taken before `authors`: the indexes' lock is not reentrant.
        let eligible = eligiblePosts
        let authors = indexes.authors { SuggestableAuthors(IDSet(eligible.map(\.author)), followers: followerCount) }
        // By key, as the follow graph keeps them (0, no user's key, for a user the log never named).
        let graph = state.follows, keys = state.userKeys
        let me = keys.key(user) ?? 0
        let mine = graph.edges(from: me)
        func open(_ candidate: Int) -> Bool {
            candidate != me && mine[IDKey(candidate)] == nil && !graph.isBlocked(me, candidate)
        }
        var mutual: [Int: Int] = [:]
        for (friend, edge) in mine where edge == .following {
            for (candidate, second) in graph.edges(from: friend.int) where second == .following {
                mutual[candidate.int, default: 0] += 1
            }
        }
        var result = mutual.compactMap { candidate, shared in
            authors.members.contains(keys[candidate]) && open(candidate)
                ? FriendSuggestion(rank: 0, user: keys[candidate], mutual: shared, followers: graph.followerCount(candidate)) : nil
        }
        result.sort(by: FriendSuggestion.ranksBefore)
        if let count, result.count > count { result.removeSubrange(count...) }
        // The rest have no mutual follow: the view's popularity order, as far as `count` needs.
        for author in authors.ranked {
            if let count, result.count >= count { break }
            // Every author posted, so the log named them and they have a key.
            guard let candidate = keys.key(author.user), mutual[candidate] == nil, open(candidate) else { continue }
            result.append(author)
        }
        for index in result.indices { result[index].rank = index + 1 }
        return result
    }
}
