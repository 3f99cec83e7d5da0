import GTIOProjections

extension CommunityState {
    /// The author and content of a flaggable item (`post:<id>` or `review:<id>`), for moderators.
    public func preview(of item: String) -> (author: String?, text: String) {
        guard let ref = ItemRef(item) else { return (nil, "") }
        if ref.kind == .post, let post = post(id: ref.id) { return (post.author, ref.kind.previewText(post.description)) }
        if ref.kind == .review, let review = reviews[ref.id] { return (review.author, review.text) }
        return (nil, "")
    }
}
