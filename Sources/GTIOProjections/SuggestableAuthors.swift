/// The users a friend suggestion may name (authors of an eligible post), in the order they
/// rank among suggestions with no mutual follow: most followers first, then by id.
struct SuggestableAuthors: Sendable {
    var ranked: [(user: String, followers: Int)]
    var members: Set<String>

    init(_ authors: Set<String>, followers: (String) -> Int) {
        members = authors
        ranked = authors.map { ($0, followers($0)) }.sorted { a, b in
            if a.followers != b.followers { return a.followers > b.followers }
            return a.user.utf8.lexicographicallyPrecedes(b.user.utf8)
        }
    }
}
