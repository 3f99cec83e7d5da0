/// One open item of the moderation queue (3.1, 3.4).
public struct FlaggedItem: Sendable, Equatable {
    public var item: String
    /// Distinct users with open flags on it.
    public var flaggers: Int
    public var firstFlagged: Int64
    public var lastFlagged: Int64
    public var hidden: Bool
    /// The seq of the latest flag in the open round: what `resolve --expect` checks.
    public var version: Int64
    /// The distinct reasons of its open flags, sorted by code point, joined with `;`.
    public var reasons = ""
    /// Who wrote the post or review.
    public var author: String?
    /// The post's description or the review's text, as created (nil for a post without one).
    public var preview: String?

    /// The author and content a moderator sees; nil and empty for an item the log never had.
    public var previewed: (author: String?, text: String) {
        guard let author, let ref = ItemRef(item) else { return (nil, "") }
        return (author, ref.kind.previewText(preview))
    }
}

/// One flagger's record as `flaggers` lists it.
public struct FlaggerLine: Sendable, Equatable {
    public var user: String
    public var flagged: Int
    public var upheld: Int
    public var dismissed: Int
    /// upheld ÷ (upheld + dismissed); nil when both are 0.
    public var accuracy: Double?
}

extension ReadModels {
    /// Open items: most distinct flaggers first, then the oldest open flag, then item.
    public func moderationQueue() -> [FlaggedItem] {
        state.items.values.compactMap { entry -> FlaggedItem? in
            guard !entry.open.isEmpty, let first = state.firstFlagged(entry.item) else { return nil }
            return FlaggedItem(
                item: entry.item, flaggers: entry.open.count, firstFlagged: first.at,
                lastFlagged: entry.open.values.map(\.at).max() ?? first.at,
                hidden: entry.open.count >= CommunityState.hiddenAt, version: entry.lastFlagSeq,
                reasons: reasons(of: entry), author: author(of: entry.item), preview: previewText(of: entry.item))
        }
        .sorted(by: FlaggedItem.queueOrder)
    }
}

extension FlaggedItem {
    /// The queue's order: most distinct flaggers first, then the oldest open flag, then item.
    static func queueOrder(_ a: FlaggedItem, _ b: FlaggedItem) -> Bool {
        if a.flaggers != b.flaggers { return a.flaggers > b.flaggers }
        if a.firstFlagged != b.firstFlagged { return a.firstFlagged < b.firstFlagged }
        return a.item.utf8.lexicographicallyPrecedes(b.item.utf8)
    }
}

/// What `flags --reason R --author U --min-flaggers N` and its other filters keep; the
/// filters combine with *and*.
public struct QueueFilter: Sendable, Equatable {
    /// A whole reason among the item's.
    public var reason: String?
    /// The item's own author (a review's writer for a review).
    public var author: String?
    /// At least this many distinct open flaggers.
    public var minimumFlaggers: Int?
    /// Only posts or only reviews.
    public var kind: ItemRef.Kind?
    /// Only hidden items.
    public var hiddenOnly: Bool
    /// Only items whose first open flag came at or before this time (ms since 1970).
    public var firstFlaggedBy: Int64?

    public init(reason: String? = nil, author: String? = nil, minimumFlaggers: Int? = nil, kind: ItemRef.Kind? = nil,
                hiddenOnly: Bool = false, firstFlaggedBy: Int64? = nil) {
        self.reason = reason
        self.author = author
        self.minimumFlaggers = minimumFlaggers
        self.kind = kind
        self.hiddenOnly = hiddenOnly
        self.firstFlaggedBy = firstFlaggedBy
    }
}
