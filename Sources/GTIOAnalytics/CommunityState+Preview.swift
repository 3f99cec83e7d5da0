import GTIOProjections

extension CommunityState {
    /// The author and content of a flaggable item (`post:<id>` or `review:<id>`), for moderators.
    public func preview(of item: String) -> (author: String?, text: String) {
        let id = String(item.drop { $0 != ":" }.dropFirst())
        if item.hasPrefix("post:"), let post = posts[id] { return (post.author, post.description ?? "(no description)") }
        if item.hasPrefix("review:"), let review = reviews[id] { return (review.author, review.text) }
        return (nil, "")
    }
}
