/// The follow graph of EVENTS.md §3 by user key (`KeyTable`): each user's edges out and in
/// with their state, the counts of *following* edges, blocks and private accounts. By key
/// because a follow touched a dozen string-keyed tables, ~8 k instructions each, the most of
/// any event in a rebuild; `CommunityState` answers the same questions by id.
public struct FollowGraph: Sendable {
    public typealias EdgeState = CommunityState.EdgeState
    typealias KeyPair = CommunityState.KeyPair

    /// Each user's edges by target key, and into each user by follower key.
    private(set) var outgoing: [[IDKey: EdgeState]] = []
    private(set) var incoming: [[IDKey: EdgeState]] = []
    /// *Following* edges into and out of each user.
    private(set) var followers: [Int] = []
    private(set) var following: [Int] = []
    private(set) var isPrivate: [Bool] = []
    /// (blocker, blocked) pairs.
    private(set) var blockPairs: Set<KeyPair> = []

    public init() {}

    /// Grows the key-indexed tables to `count` keys.
    mutating func makeRoom(_ count: Int) {
        guard count > outgoing.count else { return }
        outgoing.pad(to: count, with: [:])
        incoming.pad(to: count, with: [:])
        followers.pad(to: count, with: 0)
        following.pad(to: count, with: 0)
        isPrivate.pad(to: count, with: false)
    }

    /// The edge `from → to`, nil when there is none (or either key is beyond the graph).
    func edge(_ from: Int, _ to: Int) -> EdgeState? {
        from < outgoing.count ? outgoing[from][IDKey(to)] : nil
    }

    /// Edges out of and into `user`; empty for a key beyond the graph.
    func edges(from user: Int) -> [IDKey: EdgeState] { user < outgoing.count ? outgoing[user] : [:] }
    func edges(to user: Int) -> [IDKey: EdgeState] { user < incoming.count ? incoming[user] : [:] }

    func followerCount(_ user: Int) -> Int { user < followers.count ? followers[user] : 0 }
    func followingCount(_ user: Int) -> Int { user < following.count ? following[user] : 0 }
    func isPrivate(_ user: Int) -> Bool { user < isPrivate.count && isPrivate[user] }

    /// Whether `blocker` blocked `blocked` (one way).
    func blocks(_ blocker: Int, _ blocked: Int) -> Bool { blockPairs.contains(KeyPair(blocker, blocked)) }

    /// Whether either of the two blocked the other.
    func isBlocked(_ a: Int, _ b: Int) -> Bool { blocks(a, b) || blocks(b, a) }

    /// Sets or removes the edge `from → to`, keeping both directions and the counts in step.
    mutating func setEdge(_ from: Int, _ to: Int, _ state: EdgeState?) {
        if outgoing[from][IDKey(to)] == .following {
            followers[to] -= 1
            following[from] -= 1
        }
        if state == .following {
            followers[to] += 1
            following[from] += 1
        }
        outgoing[from][IDKey(to)] = state
        incoming[to][IDKey(from)] = state
    }

    mutating func setPrivate(_ user: Int, _ value: Bool) { isPrivate[user] = value }

    /// Adds a block; false when it was there already.
    mutating func block(_ blocker: Int, _ blocked: Int) -> Bool { blockPairs.insert(KeyPair(blocker, blocked)).inserted }

    /// Removes a block; false when there was none.
    mutating func unblock(_ blocker: Int, _ blocked: Int) -> Bool { blockPairs.remove(KeyPair(blocker, blocked)) != nil }
}

extension FollowGraph {
    /// Edges out of each user (those into each are the same, turned round), private accounts and blocks.
    func write(to writer: inout StateWriter) {
        writer.write(outgoing.count)
        for edges in outgoing {
            writer.write(edges) { writer, edge in
                writer.write(edge.key.int)
                writer.write(edge.value == .following)
            }
        }
        writer.write(isPrivate) { $0.write($1) }
        writer.write(blockPairs) { $0.write($1.packed) }
    }

    /// Reads each user's edges into a table sized for them, then makes each user's table of
    /// edges in, sized the same way, from those edges grouped by target: a table grown an edge
    /// at a time is rehashed at every doubling, and one filled an edge at a time, in the order
    /// of the followers, is a cache miss per edge. Everything is built in locals and stored
    /// once: the graph's own arrays were checked for a unique owner at every edge.
    init(from reader: inout StateReader) throws {
        self.init()
        let count = try reader.readCount()
        var outgoing = [[IDKey: EdgeState]](repeating: [:], count: count)
        var followers = [Int](repeating: 0, count: count), following = [Int](repeating: 0, count: count)
        // Edges into each user, counted as they are read, then as where each user's run of
        // them starts in `sources` (a counting sort by target).
        var starts = [Int](repeating: 0, count: count + 1)
        var edgeCount = 0
        for follower in 0..<count {
            let edges = try reader.readCount()
            guard edges > 0 else { continue }
            var out = [IDKey: EdgeState](minimumCapacity: edges)
            var followed = 0
            for _ in 0..<edges {
                let target = try reader.readCount()
                let isFollowing = try reader.readBool()
                guard target < count else { throw FoldSnapshotError.malformed("an edge to key \(target) of \(count)") }
                guard out.updateValue(isFollowing ? .following : .requested, forKey: IDKey(target)) == nil else {
                    throw FoldSnapshotError.malformed("an edge from key \(follower) to \(target) twice")
                }
                if isFollowing {
                    followed += 1
                    followers[target] += 1
                }
                starts[target + 1] += 1
            }
            following[follower] = followed
            edgeCount += edges
            outgoing[follower] = out
        }
        for user in 0..<count { starts[user + 1] += starts[user] }
        var sources = [(follower: IDKey, state: EdgeState)](repeating: (IDKey(0), .following), count: edgeCount)
        var next = starts
        for follower in 0..<count {
            for (target, state) in outgoing[follower] {
                sources[next[target.int]] = (IDKey(follower), state)
                next[target.int] += 1
            }
        }
        var incoming = [[IDKey: EdgeState]](repeating: [:], count: count)
        for user in 0..<count where starts[user + 1] > starts[user] {
            var into = [IDKey: EdgeState](minimumCapacity: starts[user + 1] - starts[user])
            for index in starts[user]..<starts[user + 1] { into[sources[index].follower] = sources[index].state }
            incoming[user] = into
        }
        (self.outgoing, self.incoming, self.followers, self.following) = (outgoing, incoming, followers, following)
        let privacy = try reader.readArray { try $0.readBool() }
        guard privacy.count == count else { throw FoldSnapshotError.malformed("\(privacy.count) privacy flags for \(count) users") }
        isPrivate = privacy
        blockPairs = try reader.readSet { KeyPair(packed: try $0.readInt()) }
    }
}
