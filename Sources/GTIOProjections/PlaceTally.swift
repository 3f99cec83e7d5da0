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
        // One look-up of the author, changed in place: a saved state counts every post again.
        Self.add(delta, to: &postsByAuthor[share.author.text])
    }

    private static func add(_ delta: Int, to authored: inout Int?) {
        let sum = (authored ?? 0) + delta
        authored = sum == 0 ? nil : sum
    }
}

/// What one post adds to its place's tally while it counts there.
struct PlaceShare: Sendable, Equatable {
    var place: ExactText
    var author: ExactText
    var points: Int
}
