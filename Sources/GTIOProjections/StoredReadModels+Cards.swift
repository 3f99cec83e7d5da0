import GTIOStore

/// One post with what its card shows.
public struct PostCard: Sendable {
    public var id: String
    public var author: String
    public var kind: String
    public var created: Int64
    public var life: CommunityState.Life
    public var points: Int
    public var hearts: Int
    public var wearIt: Int
    public var changeIt: Int
    public var liveReviews: Int
    public var description: String?
    /// The product it shows, its price, place and brands, as created.
    public var product: String?
    public var price: Double?
    public var place: PostPlace?
    public var brands: [String] = []
    /// Users whose heart counts, newest first, with their display names.
    public var hearters: Excerpt<Hearter>
}

/// A user whose heart on a post counts, with their display name.
public struct Hearter: Sendable {
    public var user: String
    public var name: String?
}

/// One review as a card lists it.
public struct ReviewLine: Sendable {
    public var id: String
    public var post: String
    public var author: String
    public var text: String
    public var removed: Bool
    public var agrees: Int
}

/// One flag as an item's history lists it; `open` while it still counts.
public struct FlagLine: Sendable {
    public var user: String
    public var at: Int64
    public var seq: Int64
    public var reason: String?
    public var open: Bool
}

/// A live post as its author's card lists it.
public struct LivePost: Sendable {
    public var post: String
    public var created: Int64
    public var points: Int
}

/// A user's own figures, as their card shows them.
public struct UserFacts: Sendable {
    public var name: String?
    public var isPrivate: Bool
    public var signedUp: Int64?
    public var provider: String?
    public var followers: Int
    public var following: Int
    /// Products they heart now, and the length of their shopping list.
    public var productsHearted: Int
    public var shoppingList: Int
}

extension StoredReadModels {
    /// The post `id` with its figures and its first `hearters` (all with nil), nil when no
    /// `post.created` made it.
    public func postCard(_ id: String, hearters count: Int? = nil) throws -> PostCard? {
        try read { tables in
            guard let row = try tables.row("""
                SELECT author, kind, created, state, points, hearts, wear_it, change_it, reviews, description,
                       product, price, place, lat, lon
                FROM rm_posts WHERE post = ?
                """, [.text(id)])
            else { return nil }
            let hearters = try tables.excerpt(
                "h.user, u.name", "FROM rm_hearts h LEFT JOIN rm_users u ON u.user = h.user WHERE h.post = ?",
                orderedBy: "h.seq DESC", [.text(id)], first: count, total: row[5].int
            ) { Hearter(user: $0[0].string ?? "", name: $0[1].string.flatMap { $0.isEmpty ? nil : $0 }) }
            return PostCard(
                id: id, author: row[0].string ?? "", kind: row[1].string ?? "", created: row[2].int64 ?? 0,
                life: CommunityState.Life(column: row[3].string ?? ""), points: row[4].int, hearts: row[5].int,
                wearIt: row[6].int, changeIt: row[7].int, liveReviews: row[8].int, description: row[9].string,
                product: row[10].string, price: row[11].double,
                place: row[12].string.map { PostPlace(name: $0, latitude: row[13].double, longitude: row[14].double) },
                brands: try tables.rows("SELECT brand FROM rm_post_brands WHERE post = ? ORDER BY brand", [.text(id)]).compactMap { $0[0].string },
                hearters: hearters)
        }
    }

    /// The first `count` reviews of `post` (all with nil), in the order they were added.
    public func reviews(of post: String, first count: Int? = nil) throws -> Excerpt<ReviewLine> {
        try read { tables in
            try tables.excerpt("review, post, author, text, removed, agrees", "FROM rm_reviews WHERE post = ?", orderedBy: "seq",
                               [.text(post)], first: count, Self.review)
        }
    }

    /// The review `id`, nil when no `review.added` made it.
    public func review(_ id: String) throws -> ReviewLine? {
        try read { tables in
            try tables.row("SELECT review, post, author, text, removed, agrees FROM rm_reviews WHERE review = ?", [.text(id)])
                .map(Self.review)
        }
    }

    private static func review(_ row: [StoreValue]) -> ReviewLine {
        ReviewLine(id: row[0].string ?? "", post: row[1].string ?? "", author: row[2].string ?? "", text: row[3].string ?? "",
                   removed: row[4].bool, agrees: row[5].int)
    }

    /// The item's open round in the queue (flaggers, whether hidden, version), nil when it has no open flag.
    public func flagged(_ item: String) throws -> FlaggedItem? {
        try read { tables in
            try tables.row("SELECT \(Self.flagColumns) FROM rm_flags WHERE item = ?", [.text(item)]).map { Self.flaggedItem(ValuesRow($0)) }
        }
    }

    /// The seq of the latest flag that opened or joined a round of `item`, 0 when never flagged:
    /// the version a decision expects, also once the round closed.
    public func flagVersion(_ item: String) throws -> Int64 {
        try read { tables in
            try tables.row("SELECT IFNULL(MAX(seq), 0) FROM rm_flag_marks WHERE item = ? AND counted = 1", [.text(item)])?[0].int64 ?? 0
        }
    }

    /// The latest `count` flags ever applied to `item` (all with nil), in seq order.
    public func flagHistory(_ item: String, latest count: Int? = nil) throws -> Excerpt<FlagLine> {
        var flags = try read { tables in
            try tables.excerpt("user, at, seq, reason, open", "FROM rm_flag_marks WHERE item = ?", orderedBy: "seq DESC",
                               [.text(item)], first: count) { row in
                FlagLine(user: row[0].string ?? "", at: row[1].int64 ?? 0, seq: row[2].int64 ?? 0, reason: row[3].string, open: row[4].bool)
            }
        }
        flags.entries.reverse()
        return flags
    }

    /// The latest `count` decisions taken on `item` (all with nil), in seq order.
    public func decisions(on item: String, latest count: Int? = nil) throws -> Excerpt<CommunityState.Decision> {
        var decisions = try read { tables in
            try tables.excerpt(Self.decisionColumns, "FROM rm_decisions WHERE item = ?", orderedBy: "seq DESC", [.text(item)],
                               first: count, Self.decision)
        }
        decisions.entries.reverse()
        return decisions
    }

    /// Items `author` wrote (posts and reviews) that a moderator removed.
    ///
    /// From the author's posts and reviews to their decisions, through the indexes on `author`
    /// and on `item`: what the author wrote, not every decision ever taken.
    public func removedItems(of author: String) throws -> Int {
        try read { tables in
            try tables.row("""
                SELECT (SELECT COUNT(*) FROM rm_posts p JOIN rm_decisions d ON d.item = 'post:' || p.post
                        WHERE p.author = ? AND d.action = 'remove')
                     + (SELECT COUNT(*) FROM rm_reviews r JOIN rm_decisions d ON d.item = 'review:' || r.review
                        WHERE r.author = ? AND d.action = 'remove')
                """, [.text(author), .text(author)])?[0].int ?? 0
        }
    }

    /// Flags ever applied to the posts `author` wrote, and with `reviews` to their reviews too.
    public func flagsReceived(by author: String, reviews: Bool) throws -> Int {
        try read { tables in
            var count = try tables.row("""
                SELECT COUNT(*) FROM rm_posts p JOIN rm_flag_marks m ON m.item = 'post:' || p.post WHERE p.author = ?
                """, [.text(author)])?[0].int ?? 0
            if reviews {
                count += try tables.row("""
                    SELECT COUNT(*) FROM rm_reviews r JOIN rm_flag_marks m ON m.item = 'review:' || r.review WHERE r.author = ?
                    """, [.text(author)])?[0].int ?? 0
            }
            return count
        }
    }

    /// A user's own figures; nil when the log never named them.
    public func userFacts(_ user: String) throws -> UserFacts? {
        try read { tables in
            try tables.row("""
                SELECT name, private, signed_up, provider, followers, following, products_hearted, shopping_list
                FROM rm_users WHERE user = ?
                """, [.text(user)])
                .map { row in
                    UserFacts(name: row[0].string.flatMap { $0.isEmpty ? nil : $0 }, isPrivate: row[1].bool, signedUp: row[2].int64,
                              provider: row[3].string, followers: row[4].int, following: row[5].int,
                              productsHearted: row[6].int, shoppingList: row[7].int)
                }
        }
    }

    /// The newest `count` live (not deleted or removed) posts of `author` (all with nil), with
    /// their points, and how many they have.
    public func livePosts(of author: String, newest count: Int?) throws -> Excerpt<LivePost> {
        try read { tables in
            try tables.excerpt("post, created, points", "FROM rm_posts WHERE author = ? AND state = 'live'",
                               orderedBy: "created DESC, post", [.text(author)], first: count) {
                LivePost(post: $0[0].string ?? "", created: $0[1].int64 ?? 0, points: $0[2].int)
            }
        }
    }

    /// The first `count` users (all with nil) with a pending follow request to `user`, by id
    /// (by code points: text compares byte by byte in both backends).
    public func pendingRequests(to user: String, first count: Int? = nil) throws -> Excerpt<String> {
        try read { tables in
            try tables.excerpt("follower", "FROM rm_follows WHERE target = ? AND state = 'requested'", orderedBy: "follower",
                               [.text(user)], first: count) { $0[0].string ?? "" }
        }
    }
}
