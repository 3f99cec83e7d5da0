/// The users a friend suggestion may name (authors of an eligible post), as suggestions with
/// no mutual follow, in the order such suggestions rank.
struct SuggestableAuthors: Sendable {
    var ranked: [FriendSuggestion]
    var members: IDSet

    init(_ authors: IDSet, followers: (String) -> Int) {
        members = authors
        ranked = authors.map { FriendSuggestion(rank: 0, user: $0, mutual: 0, followers: followers($0)) }
            .sorted(by: FriendSuggestion.ranksBefore)
    }
}
