import GTIOCatalog
import GTIOStore

extension CommunityState {
    /// The post `id`, nil when the log in view created none. Through the key table, which a
    /// fold in progress (`ReadModelEngine.fold`) indexes only when its scan ends: the rules
    /// find posts by key, never by id.
    public func post(id: String) -> Post? {
        keys.key(id).flatMap(posts.slot(key:)).map { posts.values[$0] }
    }

    /// The slot of the post with id key `key` if it exists and is neither deleted nor removed,
    /// else why not. A slot rather than the post: a copy would share, and so copy on the next
    /// write, its hearts and voters.
    func livePost(_ key: Int) -> Result<Int, Anomaly> {
        guard key != 0, let slot = posts.slot(key: key) else { return .failure(.postMissing) }
        return posts.values[slot].life == .live ? .success(slot) : .failure(.postGone)
    }

    /// The slots of the posts the user keyed `user` created, newest first, along the chain
    /// `latestPostOfAuthor` and `earlierPostOfAuthor` keep.
    func postSlots(of user: Int) -> some Sequence<Int> {
        let earlier = earlierPostOfAuthor
        let latest = user < latestPostOfAuthor.count ? Int(latestPostOfAuthor[user]) - 1 : -1
        return sequence(first: latest) { Int(earlier[$0]) - 1 }.lazy.prefix { $0 >= 0 }
    }

    mutating func applyPostCreated(_ event: KeyedEvent, day: Int64) {
        let creation = event.postCreation
        guard let id = keys.id(creation.post), let author = userKeys.id(event.user) else { return }
        if posts.slot(key: creation.post) != nil { return ignore(event, .idReused) }
        let kind = creation.kind ?? "outfit"
        var post = Post(
            id: id, author: author, kind: kind, voting: creation.voting ?? true, created: event.at,
            createdSeq: event.seq, description: creation.description)
        post.product = keys.id(creation.product)
        post.price = creation.price
        if !creation.properties.isEmpty {
            post.place = creation.place
            post.brands = creation.brands
        }
        let slot = posts.add(post, key: creation.post)
        if creation.product != 0 { notePostOfProduct(creation.product, slot: slot) }
        countPrices(of: post, 1)
        earlierPostOfAuthor.append(latestPostOfAuthor[event.user])
        latestPostOfAuthor[event.user] = Int32(slot + 1)
        unsettlePlace(slot)
        changes?.posts.insert(id)
        changes?.newPosts.insert(id)
        count(.posts, day)
    }

    mutating func applyPostDeleted(_ event: KeyedEvent) {
        switch livePost(event.subject) {
        case .failure(let anomaly): ignore(event, anomaly)
        case .success(let slot):
            guard posts.values[slot].author.isExactly(userKeys.id(event.user)) else { return ignore(event, .notAuthor) }
            endPost(slot, as: .deleted)
        }
    }

    /// Deletion and removal alike: the post stops counting and its flags, and its reviews' flags, close.
    mutating func endPost(_ slot: Int, as life: Life) {
        // Counted out once: a post that already ended has no price counted.
        if posts.values[slot].life == .live { countPrices(of: posts.values[slot], -1) }
        posts.values[slot].life = life
        let id = posts.values[slot].id
        unsettlePlace(slot)
        changes?.posts.insert(id)
        if let product = posts.values[slot].product { changes?.products.insert(product) }
        closeFlags("post:" + id)
        for review in posts.values[slot].reviews { closeFlags("review:" + review) }
    }

    /// How many live product posts have each price in each group of `prices`, one entry a price.
    public var pricePoints: [PricePoint: Int] {
        var points: [PricePoint: Int] = [:]
        for (group, prices) in priceGroups {
            for (price, posts) in prices { points[PricePoint(kind: group.kind, group: group.group, price: price)] = posts }
        }
        return points
    }

    /// Counts a live product post's price in its groups (`delta` 1), or no longer (-1).
    private mutating func countPrices(of post: Post, _ delta: Int) {
        for point in PricePoint.of(post) {
            let group = PriceGroup(point)
            let count = (priceGroups[group]?[point.price] ?? 0) + delta
            priceGroups[group, default: [:]][point.price] = count == 0 ? nil : count
            if priceGroups[group]?.isEmpty == true { priceGroups[group] = nil }
            changes?.pricePoints.insert(point)
        }
    }

    /// Who hearts `post`, by user id, with the seq of the heart that counts.
    public func hearts(of post: Post) -> IDMap<Int64> {
        var hearts = IDMap<Int64>(minimumCapacity: post.hearters.count)
        for (user, seq) in post.hearters { hearts[userKeys[user.int]] = seq }
        return hearts
    }

    mutating func applyHeart(_ event: KeyedEvent, day: Int64) {
        let user = event.user
        guard user != 0 else { return }
        switch livePost(event.subject) {
        case .failure(let anomaly): ignore(event, anomaly)
        case .success(let slot):
            if posts.values[slot].hearters[IDKey(user)] != nil { return ignore(event, .repeated) }
            posts.values[slot].hearters[IDKey(user)] = event.seq
            markHeart(slot, user)
            count(.hearts, day)
        }
    }

    mutating func applyUnheart(_ event: KeyedEvent) {
        let user = event.user
        guard user != 0 else { return }
        switch livePost(event.subject) {
        case .failure(let anomaly): ignore(event, anomaly)
        case .success(let slot):
            if posts.values[slot].hearters.removeValue(forKey: IDKey(user)) == nil { return ignore(event, .notHearted) }
            markHeart(slot, user)
        }
    }

    private mutating func markHeart(_ slot: Int, _ user: Int) {
        unsettlePlace(slot)
        guard changes != nil else { return }
        let post = posts.values[slot].id
        changes!.hearts.insert(BlockPair(post, userKeys[user]))
        changes!.posts.insert(post)
    }

    mutating func applyVote(_ event: KeyedEvent, day: Int64) {
        let user = event.user
        guard user != 0 else { return }
        switch livePost(event.subject) {
        case .failure(let anomaly): ignore(event, anomaly)
        case .success(let slot):
            // Ignored votes (post missing, voting off) do not use up the user's vote.
            guard posts.values[slot].voting else { return ignore(event, .votingOff) }
            guard posts.values[slot].voters.insert(IDKey(user)).inserted else { return ignore(event, .secondVote) }
            if event.vote.verdict == "wear_it" { posts.values[slot].wearIt += 1 } else { posts.values[slot].changeIt += 1 }
            unsettlePlace(slot)
            changes?.posts.insert(posts.values[slot].id)
            count(.votes, day)
        }
    }

    mutating func applyShare(_ event: KeyedEvent, day: Int64) {
        switch livePost(event.subject) {
        case .failure(let anomaly): ignore(event, anomaly)
        case .success(let slot):
            posts.values[slot].shares += 1
            changes?.posts.insert(posts.values[slot].id)
            count(.shares, day)
        }
    }
}
