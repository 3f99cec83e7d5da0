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

    /// Marks every post that has a place: a state read from a snapshot, which keeps no tallies.
    mutating func unsettleAllPlaces() {
        placeTallies = [:]
        placeShares = [:]
        placesUnsettled = Set(posts.values.indices.filter { posts.values[$0].place != nil })
    }

    /// Brings the places' tallies up to date with the posts marked since the last call, and
    /// records the places whose row changed.
    public mutating func settlePlaces() {
        guard !placesUnsettled.isEmpty else { return }
        // Whether each is hidden: one look-up per post, or one pass over every flagged item
        // when more posts are marked than items were ever flagged (a state just read).
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
        // In place: a copy of the tally would copy its map of authors at every post.
        placeTallies[share.place, default: PlaceTally()].count(share, delta)
        if placeTallies[share.place]?.posts == 0 { placeTallies[share.place] = nil }
        changes?.places.insert(share.place)
    }
}
