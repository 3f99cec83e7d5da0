import Testing
@testable import GTIOProjections

@Suite struct SuggestionRuleTests {
    /// u follows f1 and f2; f1 and f2 follow c1; f1 follows c2; c3 is popular; each candidate has a post.
    func community() -> TestLog {
        var log = TestLog()
        for user in ["c1", "c2", "c3", "c4"] { log.post("post-\(user)", by: user) }
        log.follow("u", "f1")
        log.follow("u", "f2")
        log.follow("f1", "c1")
        log.follow("f2", "c1")
        log.follow("f1", "c2")
        for fan in ["x", "y", "z"] { log.follow(fan, "c3") }
        log.follow("x", "c4")
        return log
    }

    @Test func ordersByMutualThenFollowersThenIDWithReasons() {
        let rows = community().models().suggestions(for: "u")
        #expect(rows.map(\.user) == ["c1", "c2", "c3", "c4"])
        #expect(rows.map(\.mutual) == [2, 1, 0, 0])
        #expect(rows.map(\.followers) == [2, 1, 3, 1])
        #expect(rows.map(\.reason) == [
            "followed by 2 people you follow", "followed by 1 people you follow", "popular", "popular",
        ])
    }

    @Test func leavesOutFollowedRequestedBlockedPrivateAndPostlessUsers() {
        var log = community()
        log.follow("u", "c2")
        log.block("c3", "u")
        log.setPrivate("c4", true)
        log.post("post-c5", by: "c5")
        log.setPrivate("c6", true)
        log.follow("u", "c6")          // requested
        log.setPrivate("c6", false)    // ... and approved by going public
        log.post("post-c6", by: "c6")
        log.post("post-c7", by: "c7")
        log.delete("post-c7", by: "c7")
        #expect(log.models().suggestions(for: "u").map(\.user) == ["c1", "c5"])
    }

    @Test func mutualCountsFollowingEdgesOnly() {
        var log = TestLog()
        log.post("pc", by: "c")
        log.setPrivate("f", true)
        log.follow("u", "f")          // requested: not a path
        log.follow("f", "c")
        #expect(log.models().suggestions(for: "u").first?.mutual == 0)
    }

    @Test func aUserWithNoEventsGetsThePopularList() {
        let rows = community().models().suggestions(for: "stranger")
        #expect(rows.map(\.user) == ["c3", "c1", "c2", "c4"])
        #expect(rows.allSatisfy { $0.reason == "popular" })
    }

    @Test func pagesAreTenAndRefreshIsTheNextPage() {
        var log = TestLog()
        for index in 0..<23 { log.post("p\(index)", by: "user\(index < 10 ? "0" : "")\(index)") }
        let models = log.models()
        #expect(models.suggestions(for: "u").count == 10)
        #expect(models.suggestions(for: "u", page: 3).map(\.user) == ["user20", "user21", "user22"])
        #expect(models.suggestions(for: "u", page: 3).first?.rank == 21)
        #expect(models.suggestions(for: "u", page: 4).isEmpty)
    }
}
