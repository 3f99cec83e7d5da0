import GTIOCatalog

/// The places' tallies (`rm_places`), kept by the posts whose part in them may have changed.
///
/// A post's part depends on its place, life, points, whether it is hidden (its item's open
/// flags) and whether its author is private, which change in many rules. Each of those rules
/// marks the post (`unsettlePlace`), and `settlePlaces` moves each marked post's part from what
/// it was to what it is: a write costs the posts it touched, not the posts of its places.
/// Only posts live by "now" can rank, and every post's `created` is at or before the newest
/// `at` applied, so no part depends on "now".
extension CommunityState {
    /// Marks the post in `slot` for `settlePlaces`, when it has a place.
    mutating func unsettlePlace(_ slot: Int) {
        if posts.values[slot].place != nil { placesUnsettled.insert(slot) }
    }

    /// Counts every live post with a place, on the thread that read the posts back (a saved
    /// state keeps no tallies): what hides a post (its item's flags, its author's privacy) is in
    /// the other half, so `uncountHiddenPlaces` takes those out once both are read. A state
    /// just read then settles only the posts its new events touch.
    mutating func countPlacesOfLivePosts() {
        placeTallies = [:]
        placeShares = [:]
        placesUnsettled = []
        for slot in posts.values.indices {
            guard let place = posts.values[slot].place, posts.values[slot].life == .live else { continue }
            let share = PlaceShare(place: ExactText(place.name), author: ExactText(posts.values[slot].author), points: posts.values[slot].points)
            count(share, 1)
            placeShares[slot] = share
        }
    }

    /// Takes the hidden posts and the private authors' posts out of the tallies that
    /// `countPlacesOfLivePosts` made.
    mutating func uncountHiddenPlaces() {
        var hidden = hiddenPosts
        for user in 1..<max(1, userKeys.count) where follows.isPrivate(user) {
            hidden.formUnion(postSlots(of: user))
        }
        for slot in hidden {
            guard let share = placeShares.removeValue(forKey: slot) else { continue }
            count(share, -1)
        }
    }

    /// Brings the places' tallies up to date with the posts marked since the last call, and
    /// records the places whose row changed.
    public mutating func settlePlaces() {
        guard !placesUnsettled.isEmpty else { return }
        // Whether each is hidden: one look-up per post, or one pass over every flagged item
        // when more posts are marked than items were ever flagged (a fold from the start).
        let hidden = placesUnsettled.count > items.count ? hiddenPosts : nil
        for slot in placesUnsettled {
            let isHidden = hidden.map { $0.contains(slot) } ?? self.isHidden("post:" + posts.values[slot].id)
            let share = placeShare(slot, hidden: isHidden)
            let old = placeShares[slot]
            guard old != share else { continue }
            if let old { count(old, -1) }
            if let share { count(share, 1) }
            placeShares[slot] = share
        }
        placesUnsettled.removeAll()
    }

    /// What the post in `slot` adds to its place's tally now: nil without a place, or when it
    /// cannot rank. Read field by field: a copy of the post would copy its tables too (a state
    /// just read settles every post with a place).
    private func placeShare(_ slot: Int, hidden: Bool) -> PlaceShare? {
        guard let place = posts.values[slot].place, posts.values[slot].life == .live, !hidden else { return nil }
        let author = posts.values[slot].author
        guard !isPrivate(author) else { return nil }
        return PlaceShare(place: ExactText(place.name), author: ExactText(author), points: posts.values[slot].points)
    }

    private mutating func count(_ share: PlaceShare, _ delta: Int) {
        // In place, with one look-up of the place: a copy of the tally would copy its map of
        // authors at every post.
        Self.count(share, delta, in: &placeTallies[share.place])
        changes?.places.insert(share.place)
    }

    private static func count(_ share: PlaceShare, _ delta: Int, in tally: inout PlaceTally?) {
        var counted = tally.take() ?? PlaceTally()
        counted.count(share, delta)
        tally = counted.posts == 0 ? nil : counted
    }
}
