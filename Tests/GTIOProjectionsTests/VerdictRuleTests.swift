import Testing
@testable import GTIOProjections

@Suite struct VerdictRuleTests {
    @Test func theFirstVoteOfAUserCounts() {
        var log = TestLog()
        log.post("p", by: "a")
        log.vote("p", by: "b", "wear_it")
        log.vote("p", by: "b", "change_it")
        #expect(log.models().verdict(post: "p") == VoteVerdict(post: "p", wearIt: 1, changeIt: 0))
    }

    @Test func votesOnVotingOffPostsAreIgnoredWithoutUsingUpTheVote() {
        var log = TestLog()
        log.post("off", by: "a", voting: false)
        log.vote("off", by: "b", "wear_it")
        log.vote("later", by: "b", "change_it")   // not there yet: does not use up b's vote either
        log.post("later", by: "a")
        log.vote("later", by: "b", "wear_it")
        let models = log.models()
        #expect(models.verdict(post: "off") == nil)
        #expect(models.verdict(post: "later") == VoteVerdict(post: "later", wearIt: 1, changeIt: 0))
    }

    @Test func shareWilsonAndLabelFollowTheFormula() {
        // W = 7, C = 3: share 0.7; Wilson lower bound with z = 1.959964.
        let verdict = VoteVerdict(post: "p", wearIt: 7, changeIt: 3)
        #expect(verdict.share == 0.7)
        #expect(abs(verdict.wilson - 0.396778145) < 1e-9)
        #expect(verdict.label == "wear it")
        #expect(VoteVerdict(post: "p", wearIt: 2, changeIt: 2).label == "pending")
        #expect(VoteVerdict(post: "p", wearIt: 1, changeIt: 4).label == "change it")
        #expect(VoteVerdict(post: "p", wearIt: 3, changeIt: 3).label == "split")
        #expect(VoteVerdict(post: "p", wearIt: 0, changeIt: 5).wilson == 0)  // clamped at 0
        #expect(abs(VoteVerdict(post: "p", wearIt: 1, changeIt: 0).wilson - 0.206549312) < 1e-9)
    }

    @Test func verdictsCoverHiddenAndPrivateButNotDeletedPosts() {
        var log = TestLog()
        log.setPrivate("shy", true)
        log.post("private", by: "shy")
        log.post("hidden", by: "a")
        log.post("gone", by: "a")
        for post in ["private", "hidden", "gone"] { log.vote(post, by: "v", "wear_it") }
        for flagger in ["f1", "f2", "f3"] { log.flag("hidden", by: flagger) }
        log.delete("gone", by: "a")
        #expect(Set(log.models().verdicts().map(\.post)) == ["private", "hidden"])
    }
}
