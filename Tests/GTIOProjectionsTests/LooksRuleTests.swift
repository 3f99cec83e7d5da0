import Foundation
import GTIOCatalog
import Testing
@testable import GTIOProjections

@Suite struct LooksRuleTests {
    static let hour: Int64 = 3_600_000

    @Test func pointsAreHeartsPlusCountedVotesPlusTwiceLiveReviews() {
        var log = TestLog()
        log.post("p", by: "a")
        log.heart("p", by: "b")
        log.heart("p", by: "c")
        log.wear("p", ["b"])
        log.change("p", ["c", "d"])
        log.review("r1", on: "p", by: "b")
        log.review("r2", on: "p", by: "c")
        log.removeReview("r2", by: "c")
        let look = log.models().looks(.top)[0]
        #expect(look.points == 2 + 3 + 2)
        #expect(look.hearts == 2)
        #expect(look.votes == 3)
        #expect(look.reviews == 1)
        #expect(look.score == 7)
    }

    @Test func popularDividesByAgePlusTwoToThePower1Point8() {
        var log = TestLog()
        let start = log.clock
        log.post("old", by: "a", at: start)
        log.post("young", by: "a", at: start + 10 * Self.hour)
        for user in ["b", "c", "d", "e"] { log.add(.postHearted, user, subject: "old", at: start + 10 * Self.hour) }
        log.add(.postHearted, "b", subject: "young", at: start + 10 * Self.hour)
        let looks = log.models().looks(.popular)
        // now = start + 10 h: old is 10 h old with 4 points, young 0 h old with 1 point.
        #expect(looks.map(\.post) == ["young", "old"])
        #expect(abs(looks[0].score - 1 / pow(2, 1.8)) < 1e-12)
        #expect(abs(looks[1].score - 4 / pow(12, 1.8)) < 1e-12)
    }

    @Test func newOrdersByCreatedWithAgeAsScore() {
        var log = TestLog()
        let start = log.clock
        log.post("first", by: "a", at: start)
        log.post("second", by: "a", at: start + Self.hour)
        let looks = log.models().looks(.new)
        #expect(looks.map(\.post) == ["second", "first"])
        #expect(looks.map(\.score) == [0, 1])
    }

    @Test func wearItRanksByWilsonAmongPostsWithFiveVotes() {
        var log = TestLog()
        log.post("four", by: "a")
        log.post("five", by: "a")
        log.post("six", by: "a")
        log.wear("four", ["1", "2", "3", "4"])
        log.wear("five", ["1", "2", "3"])
        log.change("five", ["4", "5"])
        log.wear("six", ["1", "2", "3", "4", "5", "6"])
        let looks = log.models().looks(.wearIt)
        #expect(looks.map(\.post) == ["six", "five"])
        #expect(looks[0].score == VoteVerdict(post: "six", wearIt: 6, changeIt: 0).wilson)
    }

    @Test func tiesGoToTheNewerPostThenThePostID() {
        var log = TestLog()
        let start = log.clock
        log.post("b", by: "a", at: start)
        log.post("a", by: "a", at: start)
        log.post("c", by: "a", at: start + Self.hour)
        #expect(log.models().looks(.top).map(\.post) == ["c", "a", "b"])
    }

    @Test func privateAuthorsHiddenAndGonePostsAreNotEligible() {
        var log = TestLog()
        log.post("shy", by: "s")
        log.setPrivate("s", true)
        log.post("flagged", by: "a")
        for user in ["b", "c", "d"] { log.flag("flagged", by: user) }
        log.post("gone", by: "a")
        log.delete("gone", by: "a")
        log.post("fine", by: "a")
        #expect(log.models().looks(.top).map(\.post) == ["fine"])
        log.setPrivate("s", false)
        #expect(Set(log.models().looks(.top).map(\.post)) == ["fine", "shy"])
    }

    @Test func asOfAnswersAsIfTheLogEndedThere() throws {
        var log = TestLog()
        let start = log.clock
        log.post("p", by: "a", at: start)
        log.add(.postHearted, "b", subject: "p", at: start + Self.hour)
        log.add(.postHearted, "c", subject: "p", at: start + 3 * Self.hour)
        let models = log.models(.asOf(Timestamp(milliseconds: start + 2 * Self.hour)))
        #expect(models.now == start + 2 * Self.hour)
        let look = try #require(models.looks(.popular).first)
        #expect(look.points == 1)
        #expect(abs(look.score - 1 / pow(4, 1.8)) < 1e-12)
        // Past the last event, now is still the as-of time.
        let later = log.models(.asOf(Timestamp(milliseconds: start + 100 * Self.hour)))
        #expect(later.looks(.new)[0].score == 100)
    }

    @Test func nowIsTheLargestAtNotTheLastSeqs() {
        var log = TestLog()
        let start = log.clock
        log.post("p", by: "a", at: start + 5 * Self.hour)
        log.add(.postHearted, "b", subject: "p", at: start)   // a late event
        #expect(log.models().now == start + 5 * Self.hour)
        #expect(log.models(.atSeq(2)).now == start + 5 * Self.hour)
    }
}
