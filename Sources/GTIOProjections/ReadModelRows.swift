import GRDB
import GTIOCatalog

/// The row each read-model table holds for one key, or nil when it holds none. Full writes and
/// incremental ones both build rows here, so they cannot drift apart.
extension ReadModels {
    typealias Pair = CommunityState.BlockPair

    func userRow(_ user: String) -> [DatabaseValue]? {
        guard state.knows(user) || state.names[user] != nil else { return nil }
        let signup = state.signups[user]
        return [user.databaseValue, name(of: user).databaseValue, state.isPrivate(user).databaseValue,
                followerCount(user).databaseValue, followingCount(user).databaseValue,
                signup?.at.databaseValue ?? .null, signup?.provider.databaseValue ?? .null]
    }

    func followRow(_ pair: Pair) -> [DatabaseValue]? {
        guard let edge = state.edge(from: pair.first, to: pair.second) else { return nil }
        return [pair.first.databaseValue, pair.second.databaseValue, edge.column.databaseValue]
    }

    func blockRow(_ pair: Pair) -> [DatabaseValue]? {
        state.blocks(pair.first, pair.second) ? [pair.first.databaseValue, pair.second.databaseValue] : nil
    }

    func postRow(_ id: String) -> [DatabaseValue]? {
        guard let post = state.posts[id] else { return nil }
        let life = switch post.life { case .live: "live"; case .deleted: "deleted"; case .removed: "removed" }
        return [post.id.databaseValue, post.author.databaseValue, post.kind.databaseValue, post.voting.databaseValue,
                post.created.databaseValue, life.databaseValue, post.heartCount.databaseValue,
                post.wearIt.databaseValue, post.changeIt.databaseValue, post.liveReviews.databaseValue,
                post.shares.databaseValue, state.isHidden("post:" + post.id).databaseValue, post.description.databaseValue]
    }

    /// `pair` is (post, user).
    func heartRow(_ pair: Pair) -> [DatabaseValue]? {
        guard let user = state.keys.key(pair.second), let seq = state.posts[pair.first]?.hearters[user] else { return nil }
        return [pair.first.databaseValue, pair.second.databaseValue, seq.databaseValue]
    }

    func reviewRow(_ id: String) -> [DatabaseValue]? {
        guard let review = state.reviews[id] else { return nil }
        return [review.id.databaseValue, review.post.databaseValue, review.author.databaseValue, review.at.databaseValue,
                review.removed.databaseValue, review.agreers.count.databaseValue, review.text.databaseValue]
    }

    func verdictRow(_ post: String) -> [DatabaseValue]? {
        guard let verdict = verdict(post: post) else { return nil }
        return [verdict.post.databaseValue, verdict.wearIt.databaseValue, verdict.changeIt.databaseValue,
                verdict.share.databaseValue, verdict.wilson.databaseValue, verdict.label.databaseValue]
    }

    func flagRow(_ item: String) -> [DatabaseValue]? {
        guard let entry = state.items[item], !entry.open.isEmpty, let first = state.firstFlagged(item) else { return nil }
        return [item.databaseValue, entry.open.count.databaseValue, first.at.databaseValue,
                (entry.open.count >= CommunityState.hiddenAt).databaseValue,
                (entry.open.values.map(\.at).max() ?? first.at).databaseValue, entry.lastFlagSeq.databaseValue]
    }

    func decisionRow(_ index: Int) -> [DatabaseValue]? {
        guard index < state.decisions.count else { return nil }
        let d = state.decisions[index]
        return [d.seq.databaseValue, d.at.databaseValue, d.item.databaseValue, d.action.databaseValue,
                d.moderator.databaseValue, d.note.databaseValue, d.flaggers.databaseValue, d.firstFlagged.databaseValue]
    }


    /// `single`: compute this day's windows on their own (a catch-up touching a few days).
    func dayRow(_ day: Int64, single: Bool = false) -> [DatabaseValue]? {
        guard state.eventsByDay[day] != nil else { return nil }
        let figures = engagement(on: day, single: single)
        var row: [DatabaseValue] = [figures.date.databaseValue, figures.dau.databaseValue, figures.wau.databaseValue,
                                    figures.mau.databaseValue, figures.devices.databaseValue,
                                    figures.signups.values.reduce(0, +).databaseValue]
        row += CommunityState.Action.allCases.map { (figures.actions[$0] ?? 0).databaseValue }
        row.append(figures.events.databaseValue)
        return row
    }

    func signupRows(_ day: Int64) -> [[DatabaseValue]] {
        (state.signupsByDay[day] ?? [:]).sorted { $0.key < $1.key }.map {
            [Timestamp.dateString(ofDay: day).databaseValue, $0.key.databaseValue, $0.value.databaseValue]
        }
    }

    func anomalyRows() -> [[DatabaseValue]] {
        anomalies().map { [$0.type.rawValue.databaseValue, $0.anomaly.rawValue.databaseValue, $0.count.databaseValue] }
    }

    /// Every user any table row mentions.
    var allUsers: Set<String> { state.knownUsers.union(state.names.keys) }
    /// Every row of `rm_follows` and `rm_hearts`, straight from the state rather than looking
    /// each pair up again as `followRow` and `heartRow` do for a few changed pairs.
    var followRows: [[DatabaseValue]] {
        let keys = state.keys
        return state.follows.outgoing.indices.flatMap { follower in
            state.follows.outgoing[follower].map {
                [keys[follower].databaseValue, keys[$0.key].databaseValue, $0.value.column.databaseValue]
            }
        }
    }
    var heartRows: [[DatabaseValue]] {
        let keys = state.keys
        return state.posts.values.flatMap { post in
            post.hearters.map { [post.id.databaseValue, keys[$0.key].databaseValue, $0.value.databaseValue] }
        }
    }
    var allDays: [Int64] { state.eventsByDay.keys.sorted() }
}

extension CommunityState.EdgeState {
    /// The edge's `state` in `rm_follows`.
    var column: String { self == .following ? "following" : "requested" }
}
