/// One quick-add or suggested-friend entry (1.8, 6.2).
public struct FriendSuggestion: Sendable, Equatable {
    public var rank: Int
    public var user: String
    public var mutual: Int
    public var followers: Int

    /// `followed by N people you follow`, or `popular`.
    public var reason: String { mutual > 0 ? "followed by \(mutual) people you follow" : "popular" }
}

extension ReadModels {
    /// Quick-add suggestions for `user`, page by page (`page` from 1; refresh is the next page).
    public func suggestions(for user: String, page: Int = 1, pageSize: Int = 10) -> [FriendSuggestion] {
        let all = allSuggestions(for: user)
        let start = (page - 1) * pageSize
        guard page >= 1, pageSize >= 1, start < all.count else { return [] }
        return Array(all[start..<min(all.count, start + pageSize)])
    }

    /// Every candidate for `user`, ranked.
    public func allSuggestions(for user: String) -> [FriendSuggestion] {
        var mutual: [String: Int] = [:]
        for (friend, state) in self.state.outgoing[user] ?? [:] where state == .following {
            for (candidate, second) in self.state.outgoing[friend] ?? [:] where second == .following {
                mutual[candidate, default: 0] += 1
            }
        }
        var candidates: [FriendSuggestion] = []
        // Authors of an eligible post are public, with a live, visible post created by now.
        // Taken before `authors`: the indexes' lock is not reentrant.
        let eligible = eligiblePosts
        let authors = indexes.authors { Set(eligible.map(\.author)) }
        for author in authors where author != user {
            guard state.edge(from: user, to: author) == nil, !state.isBlocked(user, author) else { continue }
            candidates.append(FriendSuggestion(
                rank: 0, user: author, mutual: mutual[author] ?? 0, followers: followerCount(author)))
        }
        candidates.sort { a, b in
            if a.mutual != b.mutual { return a.mutual > b.mutual }
            if a.followers != b.followers { return a.followers > b.followers }
            return a.user.utf8.lexicographicallyPrecedes(b.user.utf8)
        }
        for index in candidates.indices { candidates[index].rank = index + 1 }
        return candidates
    }
}
