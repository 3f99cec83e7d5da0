import GTIOStore

extension CommunityState {
    /// The post if it exists and is neither deleted nor removed, else why not.
    func livePost(_ id: String?) -> Result<Post, Anomaly> {
        guard let id, let post = posts[id] else { return .failure(.postMissing) }
        return post.life == .live ? .success(post) : .failure(.postGone)
    }

    mutating func applyPostCreated(_ event: LogRecord, day: Int64) {
        guard let id = event.subject, let author = event.user else { return }
        if posts[id] != nil { return ignore(event, .idReused) }
        posts[id] = Post(
            id: id, author: author, kind: event.value ?? "outfit", voting: event.flag ?? true, created: event.at,
            createdSeq: event.seq, description: event.text)
        postsByAuthor[author, default: []].append(id)
        changes?.posts.insert(id)
        count(.posts, day)
    }

    mutating func applyPostDeleted(_ event: LogRecord) {
        switch livePost(event.subject) {
        case .failure(let anomaly): ignore(event, anomaly)
        case .success(let post):
            guard post.author == event.user else { return ignore(event, .notAuthor) }
            endPost(post.id, as: .deleted)
        }
    }

    /// Deletion and removal alike: the post stops counting and its flags, and its reviews' flags, close.
    mutating func endPost(_ id: String, as life: Life) {
        posts[id]?.life = life
        changes?.posts.insert(id)
        closeFlags("post:" + id)
        for review in posts[id]?.reviews ?? [] { closeFlags("review:" + review) }
    }

    mutating func applyHeart(_ event: LogRecord, day: Int64) {
        guard let user = event.user else { return }
        switch livePost(event.subject) {
        case .failure(let anomaly): ignore(event, anomaly)
        case .success(let post):
            if post.hearts[user] != nil { return ignore(event, .repeated) }
            posts[post.id]!.hearts[user] = event.seq
            markHeart(post.id, user)
            count(.hearts, day)
        }
    }

    mutating func applyUnheart(_ event: LogRecord) {
        guard let user = event.user else { return }
        switch livePost(event.subject) {
        case .failure(let anomaly): ignore(event, anomaly)
        case .success(let post):
            if posts[post.id]!.hearts.removeValue(forKey: user) == nil { return ignore(event, .notHearted) }
            markHeart(post.id, user)
        }
    }

    private mutating func markHeart(_ post: String, _ user: String) {
        guard changes != nil else { return }
        changes!.hearts.insert(BlockPair(post, user))
        changes!.posts.insert(post)
    }

    mutating func applyVote(_ event: LogRecord, day: Int64) {
        guard let user = event.user else { return }
        switch livePost(event.subject) {
        case .failure(let anomaly): ignore(event, anomaly)
        case .success(let post):
            // Ignored votes (post missing, voting off) do not use up the user's vote.
            guard post.voting else { return ignore(event, .votingOff) }
            guard !post.voters.contains(user) else { return ignore(event, .secondVote) }
            posts[post.id]!.voters.insert(user)
            if event.value == "wear_it" { posts[post.id]!.wearIt += 1 } else { posts[post.id]!.changeIt += 1 }
            changes?.posts.insert(post.id)
            count(.votes, day)
        }
    }

    mutating func applyShare(_ event: LogRecord, day: Int64) {
        switch livePost(event.subject) {
        case .failure(let anomaly): ignore(event, anomaly)
        case .success(let post):
            posts[post.id]!.shares += 1
            changes?.posts.insert(post.id)
            count(.shares, day)
        }
    }
}
