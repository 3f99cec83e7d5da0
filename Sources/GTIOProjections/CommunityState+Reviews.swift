import GTIOCatalog
import GTIOStore

extension CommunityState {
    /// The id and author of the review if it exists, is not removed and its post is live, else
    /// why not. Not the review: a copy would share, and so copy on the next write, its agreers.
    func liveReview(_ id: String?) -> Result<(id: String, author: String), Anomaly> {
        guard let id, let review = reviews[id] else { return .failure(.reviewMissing) }
        guard !review.removed, posts.values[review.postSlot].life == .live else { return .failure(.reviewGone) }
        return .success((id, review.author))
    }

    mutating func applyReviewAdded(_ event: KeyedEvent, day: Int64) {
        let addition = event.reviewAddition
        guard let id = keys.id(addition.review), let author = userKeys.id(event.user) else { return }
        if reviews[id] != nil { return ignore(event, .idReused) }
        switch livePost(addition.post) {
        case .failure(let anomaly): ignore(event, anomaly)
        case .success(let slot):
            let post = posts.values[slot].id
            reviews[id] = Review(id: id, post: post, author: author, text: addition.text ?? "", at: event.at,
                                 seq: event.seq, postSlot: slot)
            posts.values[slot].reviews.append(id)
            posts.values[slot].liveReviews += 1
            unsettlePlace(slot)
            changes?.reviews.insert(id)
            changes?.posts.insert(post)
            count(.reviews, day)
        }
    }

    mutating func applyAgree(_ event: KeyedEvent) {
        guard let user = userKeys.id(event.user) else { return }
        switch liveReview(keys.id(event.subject)) {
        case .failure(let anomaly): ignore(event, anomaly)
        case .success(let review):
            if review.author.isExactly(user) { return ignore(event, .ownReview) }
            if reviews[review.id]!.agreers.insert(user).inserted == false { return ignore(event, .repeated) }
            changes?.reviews.insert(review.id)
        }
    }

    mutating func applyReviewRemoved(_ event: KeyedEvent) {
        switch liveReview(keys.id(event.subject)) {
        case .failure(let anomaly): ignore(event, anomaly)
        case .success(let review):
            guard review.author.isExactly(userKeys.id(event.user)) else { return ignore(event, .notAuthor) }
            removeReview(review.id)
        }
    }

    mutating func removeReview(_ id: String) {
        guard let review = reviews[id], !review.removed else { return }
        reviews[id]!.removed = true
        posts.values[review.postSlot].liveReviews -= 1
        unsettlePlace(review.postSlot)
        changes?.reviews.insert(id)
        changes?.posts.insert(review.post)
        closeFlags("review:" + id)
    }
}
