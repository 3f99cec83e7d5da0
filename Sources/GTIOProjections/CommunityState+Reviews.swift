import GTIOStore

extension CommunityState {
    /// The review if it exists, is not removed and its post is live, else why not.
    func liveReview(_ id: String?) -> Result<Review, Anomaly> {
        guard let id, let review = reviews[id] else { return .failure(.reviewMissing) }
        guard !review.removed, posts[review.post]?.life == .live else { return .failure(.reviewGone) }
        return .success(review)
    }

    mutating func applyReviewAdded(_ event: LogRecord, day: Int64) {
        guard let id = event.subject, let author = event.user else { return }
        if reviews[id] != nil { return ignore(event, .idReused) }
        switch livePost(event.object) {
        case .failure(let anomaly): ignore(event, anomaly)
        case .success(let post):
            reviews[id] = Review(id: id, post: post.id, author: author, text: event.text ?? "", at: event.at)
            posts[post.id]!.reviews.append(id)
            posts[post.id]!.liveReviews += 1
            changes?.reviews.insert(id)
            changes?.posts.insert(post.id)
            count(.reviews, day)
        }
    }

    mutating func applyAgree(_ event: LogRecord) {
        guard let user = event.user else { return }
        switch liveReview(event.subject) {
        case .failure(let anomaly): ignore(event, anomaly)
        case .success(let review):
            if review.author == user { return ignore(event, .ownReview) }
            if reviews[review.id]!.agreers.insert(user).inserted == false { return ignore(event, .repeated) }
            changes?.reviews.insert(review.id)
        }
    }

    mutating func applyReviewRemoved(_ event: LogRecord) {
        switch liveReview(event.subject) {
        case .failure(let anomaly): ignore(event, anomaly)
        case .success(let review):
            guard review.author == event.user else { return ignore(event, .notAuthor) }
            removeReview(review.id)
        }
    }

    mutating func removeReview(_ id: String) {
        guard let review = reviews[id], !review.removed else { return }
        reviews[id]!.removed = true
        posts[review.post]?.liveReviews -= 1
        changes?.reviews.insert(id)
        changes?.posts.insert(review.post)
        closeFlags("review:" + id)
    }
}
