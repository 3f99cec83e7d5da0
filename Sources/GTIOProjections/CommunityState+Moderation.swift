import GTIOStore

extension CommunityState {
    /// Distinct open flaggers at which an item is hidden from every ranking.
    public static let hiddenAt = 3

    public func isHidden(_ item: String) -> Bool { (items[item]?.open.count ?? 0) >= Self.hiddenAt }

    /// The slots of the hidden posts: the few flagged enough, found once rather than an item id
    /// built and looked up for every post.
    var hiddenPosts: Set<Int> {
        Set(items.values.lazy.filter { $0.open.count >= Self.hiddenAt }.compactMap(\.postSlot))
    }

    mutating func closeFlags(_ item: String) {
        guard let open = items[item]?.open, !open.isEmpty else { return }
        items[item]?.open.removeAll()
        changes?.flagMarks.formUnion(open.values.lazy.map { FlagMarkKey(item, seq: $0.seq) })
        desk.itemChanged(wasOpen: open.count, isOpen: 0)
        markItem(item)
    }

    /// An item's queue row changed; a post's own row shows whether it is hidden.
    mutating func markItem(_ item: String) {
        // Whether a post is hidden follows its open flags: its place's tally may move.
        let slot = items[item]?.postSlot
        if let slot { unsettlePlace(slot) }
        guard changes != nil else { return }
        changes!.items.insert(item)
        if let slot { changes!.posts.insert(posts.values[slot].id) }
    }

    /// `postSlot`: the slot of the post flagged, nil for a review.
    mutating func addFlag(_ item: String, _ event: KeyedEvent, day: Int64, postSlot: Int? = nil) {
        guard let user = userKeys.id(event.user) else { return }
        let mark = FlagMark(at: event.at, seq: event.seq, reason: event.flagging.reason)
        // Changed where it is kept: a copy taken out and put back would copy the item's history
        // and open flags at every flag, a cost that grows with the square of an item's flags.
        let openBefore = items[item, default: FlagItem(item: item, postSlot: postSlot)].add(mark, by: user)
        changes?.flagMarks.insert(FlagMarkKey(item, seq: mark.seq))
        markItem(item)
        // A user's repeated flag keeps their first time and counts once; it is in the history.
        guard let openBefore else { return ignore(event, .repeated) }
        desk.itemChanged(wasOpen: openBefore, isOpen: openBefore + 1)
        noteFlagger(user, flagged: item)
        count(.flags, day)
    }

    mutating func applyPostFlag(_ event: KeyedEvent, day: Int64) {
        switch livePost(event.subject) {
        case .failure(let anomaly): ignore(event, anomaly)
        case .success(let slot): addFlag("post:" + posts.values[slot].id, event, day: day, postSlot: slot)
        }
    }

    mutating func applyReviewFlag(_ event: KeyedEvent, day: Int64) {
        switch liveReview(keys.id(event.subject)) {
        case .failure(let anomaly): ignore(event, anomaly)
        case .success(let review): addFlag("review:" + review.id, event, day: day)
        }
    }

    /// The earliest open flag of an item by `at`, then `seq`.
    public func firstFlagged(_ item: String) -> FlagMark? {
        items[item]?.open.values.min { ($0.at, $0.seq) < ($1.at, $1.seq) }
    }

    mutating func applyResolution(_ event: KeyedEvent) {
        let resolution = event.resolution
        guard let item = keys.id(resolution.item), let moderator = userKeys.id(event.user),
              let flagged = items[item], !flagged.open.isEmpty
        else { return ignore(event, .nothingOpen) }
        let open = flagged.open
        let decision = Decision(
            seq: event.seq, at: event.at, item: item, action: resolution.action ?? "dismiss", moderator: moderator,
            note: resolution.note, flaggers: open.count, firstFlagged: firstFlagged(item)?.at ?? event.at)
        decisions.append(decision)
        desk.add(decision)
        creditFlaggers(open.keys, of: item, removed: resolution.action == "remove")
        if resolution.action == "remove" {
            if let slot = flagged.postSlot {
                endPost(slot, as: .removed)
            } else if let ref = ItemRef(item), ref.kind == .review {
                removeReview(ref.id)
            }
        }
        closeFlags(item)
    }
}
