import Testing
@testable import GTIOProjections

@Suite struct FlaggerRuleTests {
    @Test func reasonsAreTheOpenFlagsDistinctReasonsSortedAndJoined() throws {
        var log = TestLog()
        log.post("p", by: "a")
        log.flag("p", by: "b", reason: "spam")
        log.flag("p", by: "b", reason: "nudity")  // a repeated flag: its reason is ignored
        log.flag("p", by: "c", reason: "Spam")
        log.flag("p", by: "d", reason: "")  // an empty reason is none
        log.flag("p", by: "e", reason: "spam")
        log.flag("p", by: "f", reason: "a;b")  // joined unescaped
        #expect(log.models().moderationQueue()[0].reasons == "Spam;a;b;spam")
        #expect(try log.models().stored().moderationQueue()[0].reasons == "Spam;a;b;spam")
        #expect(try log.models().stored().moderationQueue(QueueFilter(reason: "a;b")).count == 1)
        #expect(try log.models().stored().moderationQueue(QueueFilter(reason: "a")).isEmpty)
        #expect(try log.models().stored().moderationQueue(QueueFilter(reason: "nudity")).isEmpty)  // b's repeated flag
        log.resolve("post:p", "dismiss")
        log.flag("p", by: "g")
        #expect(try log.models().stored().moderationQueue()[0].reasons == "")
    }

    /// Reasons are told apart by their code points: "Café" with é and with e + U+0301 are two.
    @Test func reasonsThatDifferOnlyInNormalizationAreTwoReasons() throws {
        var log = TestLog()
        log.post("p", by: "a")
        log.flag("p", by: "b", reason: "Caf\u{E9}")
        log.flag("p", by: "c", reason: "Cafe\u{301}")
        let reasons = try log.models().stored().moderationQueue()[0].reasons
        #expect(Array(reasons.utf8) == Array("Cafe\u{301};Caf\u{E9}".utf8))
    }

    @Test func queueFiltersCombineWithAndKeepingTheQueueOrder() throws {
        var log = TestLog()
        log.post("p1", by: "a")
        log.post("p2", by: "b")
        log.review("r1", on: "p2", by: "a")
        log.flag("p1", by: "x", reason: "spam")
        log.flag("p1", by: "y")
        log.flag("p2", by: "x", reason: "spam")
        log.flagReview("r1", by: "x")
        log.flagReview("r1", by: "y")
        log.flagReview("r1", by: "z")
        let stored = try log.models().stored()
        #expect(try stored.moderationQueue().map(\.item) == ["review:r1", "post:p1", "post:p2"])
        #expect(try stored.moderationQueue(QueueFilter(reason: "spam")).map(\.item) == ["post:p1", "post:p2"])
        #expect(try stored.moderationQueue(QueueFilter(reason: "spa")).isEmpty)  // a whole reason
        #expect(try stored.moderationQueue(QueueFilter(author: "a")).map(\.item) == ["review:r1", "post:p1"])
        #expect(try stored.moderationQueue(QueueFilter(minimumFlaggers: 2)).map(\.item) == ["review:r1", "post:p1"])
        #expect(try stored.moderationQueue(QueueFilter(reason: "spam", author: "a", minimumFlaggers: 2)).map(\.item) == ["post:p1"])
        #expect(try stored.moderationQueue(QueueFilter(kind: .post)).map(\.item) == ["post:p1", "post:p2"])
        #expect(try stored.moderationQueue(QueueFilter(kind: .review)).map(\.item) == ["review:r1"])
        #expect(try stored.moderationQueue(QueueFilter(hiddenOnly: true)).map(\.item) == ["review:r1"])
        let p1 = try #require(try stored.moderationQueue().first { $0.item == "post:p1" })
        #expect(try stored.moderationQueue(QueueFilter(firstFlaggedBy: p1.firstFlagged)).map(\.item) == ["post:p1"])
        #expect(try stored.moderationQueue(limit: 2).map(\.item) == ["review:r1", "post:p1"])
        #expect(try stored.moderationQueue(QueueFilter(kind: .post), limit: 1).map(\.item) == ["post:p1"])
    }

    @Test func decisionsCreditTheItemsOwnOpenFlaggersOncePerItem() throws {
        var log = TestLog()
        log.post("p1", by: "a")
        log.review("r1", on: "p1", by: "b")
        log.post("p2", by: "a")
        log.flag("p1", by: "x")
        log.flagReview("r1", by: "y")
        log.resolve("post:p1", "dismiss")
        log.resolve("post:p1", "dismiss")  // nothing open: ignored
        log.flag("p1", by: "x")  // reopens after a dismiss
        log.flag("p1", by: "z")
        log.resolve("post:p1", "remove")  // removes p1 and its review: y is not credited
        log.flag("p2", by: "w")
        log.delete("p2", by: "a")  // an author's delete is not a decision
        let lines = try log.models().stored().flaggers()
        #expect(lines.map(\.user) == ["w", "x", "y", "z"])
        let byUser = Dictionary(uniqueKeysWithValues: lines.map { ($0.user, $0) })
        #expect(byUser["x"] == FlaggerLine(user: "x", flagged: 1, upheld: 1, dismissed: 1, accuracy: 0.5))
        #expect(byUser["y"] == FlaggerLine(user: "y", flagged: 1, upheld: 0, dismissed: 0, accuracy: nil))
        #expect(byUser["z"] == FlaggerLine(user: "z", flagged: 1, upheld: 1, dismissed: 0, accuracy: 1))
        #expect(byUser["w"] == FlaggerLine(user: "w", flagged: 1, upheld: 0, dismissed: 0, accuracy: nil))
    }

    @Test func flaggedCountsDistinctItemsAndOrdersByItThenUser() throws {
        var log = TestLog()
        log.post("p1", by: "a")
        log.post("p2", by: "a")
        log.flag("p1", by: "b")
        log.flag("p1", by: "b")
        log.flag("p2", by: "b")
        log.flag("p1", by: "c")
        log.flag("gone", by: "d")  // not applied: not a flagger
        let lines = try log.models().stored().flaggers()
        #expect(lines.map(\.user) == ["b", "c"])
        #expect(lines.map(\.flagged) == [2, 1])
        #expect(try log.models().stored().flagger("d") == nil)
    }
}
