import GTIOStore

extension CommunityState {
    /// The state of the edge `from → to`, nil when there is none.
    public func edge(from: String, to: String) -> EdgeState? {
        guard let a = userKeys.key(from), let b = userKeys.key(to) else { return nil }
        return follows.edge(a, b)
    }

    /// Whether either user blocked the other.
    public func isBlocked(_ a: String, _ b: String) -> Bool {
        guard let a = userKeys.key(a), let b = userKeys.key(b) else { return false }
        return follows.isBlocked(a, b)
    }

    /// Whether `blocker` blocked `blocked` (one way).
    public func blocks(_ blocker: String, _ blocked: String) -> Bool {
        guard let a = userKeys.key(blocker), let b = userKeys.key(blocked) else { return false }
        return follows.blocks(a, b)
    }

    /// Every block, as (blocker, blocked).
    public var blockPairs: [BlockPair] {
        follows.blockPairs.map { BlockPair(userKeys[$0.first], userKeys[$0.second]) }
    }

    public func isPrivate(_ user: String) -> Bool { userKeys.key(user).map(follows.isPrivate) ?? false }
    public func followerCount(of user: String) -> Int { userKeys.key(user).map(follows.followerCount) ?? 0 }
    public func followingCount(of user: String) -> Int { userKeys.key(user).map(follows.followingCount) ?? 0 }

    /// `user`'s edges by target, and the edges into `user` by follower.
    public func outgoing(of user: String) -> IDMap<EdgeState> { byID(userKeys.key(user).map(follows.edges(from:))) }
    public func incoming(of user: String) -> IDMap<EdgeState> { byID(userKeys.key(user).map(follows.edges(to:))) }

    /// Users with a *following* edge to `user`, and those `user` follows, unordered: picked
    /// by key before any id is looked up (the most-followed user has thousands of edges).
    public func users(following user: String) -> [String] { following(userKeys.key(user).map(follows.edges(to:))) }
    public func users(followedBy user: String) -> [String] { following(userKeys.key(user).map(follows.edges(from:))) }

    private func following(_ edges: [IDKey: EdgeState]?) -> [String] {
        (edges ?? [:]).compactMap { $0.value == .following ? userKeys[$0.key.int] : nil }
    }

    private func byID(_ edges: [IDKey: EdgeState]?) -> IDMap<EdgeState> {
        var byID = IDMap<EdgeState>(minimumCapacity: edges?.count ?? 0)
        for (user, state) in edges ?? [:] { byID[userKeys[user.int]] = state }
        return byID
    }

    /// Sets the display name of the user with key `key`. Their edges' rows carry it (the lists
    /// of followers are read from `rm_follows` alone), so a name that changes, byte for byte,
    /// rewrites each edge into and out of them.
    mutating func setName(_ name: String, ofUser key: Int) {
        let user = userKeys[key]
        let before = names[key]
        names[key] = name
        guard changes != nil else { return }
        changes!.users.insert(user)
        guard !name.isExactly(before) else { return }
        for target in follows.edges(from: key).keys { changes!.follows.insert(BlockPair(user, userKeys[target.int])) }
        for follower in follows.edges(to: key).keys { changes!.follows.insert(BlockPair(userKeys[follower.int], user)) }
    }

    mutating func setEdge(from: Int, to: Int, _ state: EdgeState?) {
        if changes != nil {
            changes!.follows.insert(BlockPair(userKeys[from], userKeys[to]))
            changes!.users.formUnion([userKeys[from], userKeys[to]])
        }
        follows.setEdge(from, to, state)
    }

    mutating func applyFollow(_ event: KeyedEvent) {
        let a = event.user, b = event.subject
        guard a != 0, b != 0 else { return }
        if a == b { return ignore(event, .selfFollow) }
        if follows.isBlocked(a, b) { return ignore(event, .blocked) }
        if follows.edge(a, b) != nil { return ignore(event, .alreadyFollowing) }
        setEdge(from: a, to: b, follows.isPrivate(b) ? .requested : .following)
    }

    mutating func applyUnfollow(_ event: KeyedEvent) {
        let a = event.user, b = event.subject
        guard a != 0, b != 0 else { return }
        guard follows.edge(a, b) != nil else { return ignore(event, .noSuchEdge) }
        setEdge(from: a, to: b, nil)
    }

    /// `follow.approved` / `follow.declined`: the acting user owns the account, `subject` asked.
    mutating func applyAnswer(_ event: KeyedEvent) {
        let owner = event.user, follower = event.subject
        guard owner != 0, follower != 0 else { return }
        guard follows.edge(follower, owner) == .requested else { return ignore(event, .noSuchEdge) }
        setEdge(from: follower, to: owner, event.type == .followApproved ? .following : nil)
    }

    mutating func applyPrivacy(_ event: KeyedEvent) {
        let user = event.user
        guard user != 0, let isPrivate = event.privacy.isPrivate else { return }
        changes?.users.insert(userKeys[user])
        if follows.isPrivate(user) != isPrivate {
            // Their posts' rows say whether their author is private (rankings leave them out).
            for slot in postSlots(of: user) {
                changes?.posts.insert(posts.values[slot].id)
                unsettlePlace(slot)
            }
        }
        follows.setPrivate(user, isPrivate)
        // Existing followers stay; going public approves every pending request.
        guard !isPrivate else { return }
        for (follower, state) in follows.edges(to: user) where state == .requested {
            setEdge(from: follower.int, to: user, .following)
        }
    }

    mutating func applyBlock(_ event: KeyedEvent) {
        let a = event.user, b = event.subject
        guard a != 0, b != 0 else { return }
        if a == b { return ignore(event, .selfBlock) }
        changes?.blocks.insert(BlockPair(userKeys[a], userKeys[b]))
        if !follows.block(a, b) { ignore(event, .repeated) }
        if follows.edge(a, b) != nil { setEdge(from: a, to: b, nil) }
        if follows.edge(b, a) != nil { setEdge(from: b, to: a, nil) }
    }

    mutating func applyUnblock(_ event: KeyedEvent) {
        let a = event.user, b = event.subject
        guard a != 0, b != 0 else { return }
        changes?.blocks.insert(BlockPair(userKeys[a], userKeys[b]))
        if !follows.unblock(a, b) { ignore(event, .noSuchBlock) }
    }
}
