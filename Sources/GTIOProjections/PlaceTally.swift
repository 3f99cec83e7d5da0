import GTIOCatalog

/// The looks taken at one place that Popular looks may rank (live, not hidden, by an author
/// who is not private): how many, by how many authors, and their points. A row of `rm_places`,
/// so that `places` reads a row per place rather than every post taken there.
public struct PlaceTally: Sendable, Equatable {
    public var posts = 0
    public var points = 0
    /// Each author's counted posts at the place, by id: `authors` is how many have any.
    var postsByAuthor = IDMap<Int>()

    public var authors: Int { postsByAuthor.count }

    /// Counts `share` in (`delta` 1) or out (−1).
    mutating func count(_ share: PlaceShare, _ delta: Int) {
        posts += delta
        points += delta * share.points
        let authored = (postsByAuthor[share.author.text] ?? 0) + delta
        postsByAuthor[share.author.text] = authored == 0 ? nil : authored
    }
}

/// What one post adds to its place's tally while it counts there.
struct PlaceShare: Sendable, Equatable {
    var place: ExactText
    var author: ExactText
    var points: Int
}
