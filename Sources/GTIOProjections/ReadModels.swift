import Algorithms
import Foundation
import GTIOCatalog

/// The read models of one view of the log: a folded state and its "now".
public struct ReadModels: Sendable {
    public let state: CommunityState
    /// UTC ms: the as-of time, or the largest `at` in view.
    public let now: Int64
    let indexes = ViewIndexes()

    /// `state` with its places' tallies settled (`settlePlaces`): a writer that keeps its state
    /// settles it itself, so that the change set names the places changed.
    public init(state: CommunityState, now: Int64? = nil) {
        var state = state
        state.settlePlaces()
        self.state = state
        self.now = now ?? state.newestAt ?? 0
    }

    /// Whether `user` appears anywhere in the log in view (as actor or as another user's target).
    public func knows(user: String) -> Bool { state.knows(user) }

    // MARK: Popular looks (9.1)

    /// Hearts + counted votes + 2 × live reviews.
    public func points(_ post: CommunityState.Post) -> Int { post.points }

    /// Hours from `created` to now, never negative.
    func ageHours(_ post: CommunityState.Post) -> Double { Double(max(0, now - post.created)) / 3_600_000 }

    /// The posts that rankings consider and that make their authors quick-add candidates:
    /// live, not hidden, author not private, created by now. Computed once per view.
    var eligiblePosts: [CommunityState.Post] {
        indexes.eligiblePosts {
            let hidden = state.hiddenPosts
            let posts = state.posts.values
            return posts.indices.filter { slot in
                posts[slot].life == .live && !hidden.contains(slot) && !state.isPrivate(posts[slot].author)
                    && posts[slot].created <= now
            }.map { posts[$0] }
        }
    }

    /// The ranked looks of `tab`; `limit` nil or 0 for all. The view ranks each tab once.
    public func looks(_ tab: LooksTab, limit: Int? = 20) -> [Look] {
        let posts = eligiblePosts  // before `ranking`: the indexes' lock is not reentrant
        let count = limit.flatMap { $0 > 0 ? $0 : nil }
        // A cold view ranks at least 100, so that nearby limits and pages reuse the head.
        return indexes.ranking(tab, count: count) { wanted in rank(tab, posts, count: wanted.map { max($0, 100) }) }
    }

    /// The first `count` looks (all when nil), and whether that is every eligible post.
    private func rank(_ tab: LooksTab, _ posts: [CommunityState.Post], count: Int?) -> (looks: [Look], complete: Bool) {
        // Rank light (score, created, index) triples; build full rows after.
        var scored: [(score: Double, created: Int64, index: Int)] = []
        scored.reserveCapacity(posts.count)
        for (index, post) in posts.enumerated() {
            let score: Double
            switch tab {
            case .popular: score = Double(points(post)) / pow(ageHours(post) + 2, 1.8)
            case .new: score = ageHours(post)
            case .top: score = Double(points(post))
            case .wearIt:
                guard post.wearIt + post.changeIt >= 5 else { continue }
                score = VoteVerdict.wilsonLowerBound(successes: post.wearIt, trials: post.wearIt + post.changeIt)
            }
            scored.append((score, post.created, index))
        }
        let ordered: ((score: Double, created: Int64, index: Int), (score: Double, created: Int64, index: Int)) -> Bool = { a, b in
            if tab == .new {
                if a.created != b.created { return a.created > b.created }
            } else if a.score != b.score {
                return a.score > b.score
            }
            if a.created != b.created { return a.created > b.created }
            return posts[a.index].id.utf8.lexicographicallyPrecedes(posts[b.index].id.utf8)
        }
        let complete = count.map { $0 >= scored.count } ?? true
        let head = complete ? scored.sorted(by: ordered) : scored.min(count: count!, sortedBy: ordered)
        let looks = head.enumerated().map { rank, entry in
            let post = posts[entry.index]
            return Look(
                rank: rank + 1, post: post.id, author: post.author, points: points(post), hearts: post.heartCount,
                votes: post.wearIt + post.changeIt, reviews: post.liveReviews, score: entry.score, created: post.created)
        }
        return (looks, complete)
    }

    // MARK: Vote verdicts (3.2)

    /// Every live post with at least one counted vote, hidden and private ones included.
    public func verdicts() -> [VoteVerdict] {
        state.posts.values
            .filter { $0.life == .live && $0.wearIt + $0.changeIt > 0 }
            .map { VoteVerdict(post: $0.id, wearIt: $0.wearIt, changeIt: $0.changeIt) }
            .sorted { a, b in
                if a.wilson != b.wilson { return a.wilson > b.wilson }
                if a.votes != b.votes { return a.votes > b.votes }
                return a.post.utf8.lexicographicallyPrecedes(b.post.utf8)
            }
    }

    /// The verdict of one post: nil when it has none (no counted vote, or deleted or removed).
    public func verdict(post: String) -> VoteVerdict? {
        state.post(id: post).flatMap(verdict(of:))
    }

    func verdict(of post: CommunityState.Post) -> VoteVerdict? {
        guard post.life == .live, post.wearIt + post.changeIt > 0 else { return nil }
        return VoteVerdict(post: post.id, wearIt: post.wearIt, changeIt: post.changeIt)
    }

    // MARK: Follow graph (6.x, 7.7, 13.4)

    /// The display name: the latest signed-up or profile name; nil when none (or empty).
    public func name(of user: String) -> String? {
        guard let key = state.userKeys.key(user), key < state.names.count, let name = state.names[key], !name.isEmpty else { return nil }
        return name
    }

    /// Sorts users by display name (or id when nameless), as `NameOrder` does.
    func sortedByName(_ users: [String]) -> [String] {
        NameOrder.sorted(users, name: { name(of: $0) ?? $0 }, id: { $0 })
    }

    /// Users with a *following* edge to `user`, by display name.
    public func followers(of user: String) -> [String] {
        sortedByName(state.users(following: user))
    }

    /// Users `user` follows (*following* edges only), by display name.
    public func following(of user: String) -> [String] {
        sortedByName(state.users(followedBy: user))
    }

    public func followerCount(_ user: String) -> Int { state.followerCount(of: user) }
    public func followingCount(_ user: String) -> Int { state.followingCount(of: user) }

    /// The follow button viewer → target (13.4): 0 off, 1 following, 2 requested; nil for oneself.
    public func followButton(viewer: String, target: String) -> Int? {
        guard viewer != target else { return nil }
        switch state.edge(from: viewer, to: target) {
        case .following: return 1
        case .requested: return 2
        case nil: return 0
        }
    }
}
