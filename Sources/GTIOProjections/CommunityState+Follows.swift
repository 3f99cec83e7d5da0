import GTIOStore

extension CommunityState {
    /// The state of the edge `from → to`, nil when there is none.
    public func edge(from: String, to: String) -> EdgeState? { outgoing[from]?[to] }

    public func isBlocked(_ a: String, _ b: String) -> Bool {
        blocks.contains(BlockPair(a, b)) || blocks.contains(BlockPair(b, a))
    }

    mutating func setEdge(from: String, to: String, _ state: EdgeState?) {
        if changes != nil {
            changes!.follows.insert(BlockPair(from, to))
            changes!.users.formUnion([from, to])
        }
        let previous = outgoing[from]?[to]
        if previous == .following {
            followerCounts[to, default: 0] -= 1
            followingCounts[from, default: 0] -= 1
        }
        if state == .following {
            followerCounts[to, default: 0] += 1
            followingCounts[from, default: 0] += 1
        }
        outgoing[from, default: [:]][to] = state
        incoming[to, default: [:]][from] = state
    }

    mutating func applyFollow(_ event: KeyedEvent) {
        guard let a = keys.id(event.user), let b = keys.id(event.subject) else { return }
        if a == b { return ignore(event, .selfFollow) }
        if isBlocked(a, b) { return ignore(event, .blocked) }
        if edge(from: a, to: b) != nil { return ignore(event, .alreadyFollowing) }
        setEdge(from: a, to: b, privateUsers.contains(b) ? .requested : .following)
    }

    mutating func applyUnfollow(_ event: KeyedEvent) {
        guard let a = keys.id(event.user), let b = keys.id(event.subject) else { return }
        guard edge(from: a, to: b) != nil else { return ignore(event, .noSuchEdge) }
        setEdge(from: a, to: b, nil)
    }

    /// `follow.approved` / `follow.declined`: the acting user owns the account, `subject` asked.
    mutating func applyAnswer(_ event: KeyedEvent) {
        guard let owner = keys.id(event.user), let follower = keys.id(event.subject) else { return }
        guard edge(from: follower, to: owner) == .requested else { return ignore(event, .noSuchEdge) }
        setEdge(from: follower, to: owner, event.type == .followApproved ? .following : nil)
    }

    mutating func applyPrivacy(_ event: KeyedEvent) {
        guard let user = keys.id(event.user), let isPrivate = event.flag else { return }
        changes?.users.insert(user)
        if isPrivate {
            privateUsers.insert(user)  // existing followers stay
            return
        }
        privateUsers.remove(user)
        // Going public approves every pending request.
        for (follower, state) in incoming[user] ?? [:] where state == .requested {
            setEdge(from: follower, to: user, .following)
        }
    }

    mutating func applyBlock(_ event: KeyedEvent) {
        guard let a = keys.id(event.user), let b = keys.id(event.subject) else { return }
        if a == b { return ignore(event, .selfBlock) }
        changes?.blocks.insert(BlockPair(a, b))
        if blocks.insert(BlockPair(a, b)).inserted == false { ignore(event, .repeated) }
        if edge(from: a, to: b) != nil { setEdge(from: a, to: b, nil) }
        if edge(from: b, to: a) != nil { setEdge(from: b, to: a, nil) }
    }

    mutating func applyUnblock(_ event: KeyedEvent) {
        guard let a = keys.id(event.user), let b = keys.id(event.subject) else { return }
        changes?.blocks.insert(BlockPair(a, b))
        if blocks.remove(BlockPair(a, b)) == nil { ignore(event, .noSuchBlock) }
    }
}
