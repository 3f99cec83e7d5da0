import GTIOStore
import PropertyBased
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
        #expect(models.suggestions(for: "u", page: .max).isEmpty)
        #expect(models.suggestions(for: "u", pageSize: .max).count == 23)
        #expect(models.suggestions(for: "u", page: 2, pageSize: .max).isEmpty)
    }

    /// The ranking by §3 with every candidate sorted outright: what the paged walk must give.
    func fullySorted(_ models: ReadModels, for user: String) -> [String] {
        let state = models.state
        let mine = state.outgoing(of: user)
        var mutual: [String: Int] = [:]
        for (friend, edge) in mine where edge == .following {
            for (candidate, second) in state.outgoing(of: friend) where second == .following { mutual[candidate, default: 0] += 1 }
        }
        return Set(models.eligiblePosts.map(\.author))
            .filter { $0 != user && mine[$0] == nil && !state.isBlocked(user, $0) }
            .map { (user: $0, mutual: mutual[$0] ?? 0, followers: models.followerCount($0)) }
            .sorted { a, b in
                if a.mutual != b.mutual { return a.mutual > b.mutual }
                if a.followers != b.followers { return a.followers > b.followers }
                return a.user.utf8.lexicographicallyPrecedes(b.user.utf8)
            }
            .map(\.user)
    }

    @Test func everyPageIsASliceOfTheFullySortedRanking() async {
        await propertyCheck(count: 40, input: Gen.uint64(in: 1...UInt64.max)) { seed in
            let records = RandomLog.events(seed: seed, count: 400).enumerated().map { LogRecord(seq: Int64($0.offset + 1), $0.element) }
            let models = LogView.latest.readModels(from: records)
            for user in RandomLog.users + ["stranger"] {
                let expected = fullySorted(models, for: user)
                let all = models.allSuggestions(for: user)
                #expect(all.map(\.user) == expected, "\(user), seed \(seed)")
                #expect(all.map(\.rank) == Array(1..<(all.count + 1)))
                for size in 1...3 {
                    var paged: [FriendSuggestion] = []
                    for page in 1...(expected.count / size + 2) { paged += models.suggestions(for: user, page: page, pageSize: size) }
                    #expect(paged == all, "\(user), pages of \(size), seed \(seed)")
                }
            }
        }
    }
}
