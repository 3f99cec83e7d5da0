import Testing
@testable import GTIOProjections

@Suite struct ModerationRuleTests {
    @Test func severalFlagsByOneUserCountOnceAndKeepTheirFirstTime() {
        var log = TestLog()
        log.post("p", by: "a")
        let first = log.clock
        log.flag("p", by: "b")
        log.flag("p", by: "b")
        let queue = log.models().moderationQueue()
        #expect(queue.map(\.item) == ["post:p"])
        #expect(queue[0].flaggers == 1)
        #expect(queue[0].firstFlagged == first)
    }

    @Test func theDeskCountsTheQueueAndTheDecisionsWaitsAtTheirRoundedPositions() throws {
        var log = TestLog()
        for post in ["p1", "p2", "p3", "p4", "p5"] { log.post(post, by: "a") }
        log.flag("p1", by: "x")
        log.resolve("post:p1", "remove", by: "m1")  // waited 1 minute
        log.flag("p2", by: "x")
        for user in ["x", "y", "z"] { log.flag("p3", by: user) }  // hidden, still open
        log.resolve("post:p2", "dismiss", by: "m2")  // waited 4 minutes
        log.flag("p4", by: "x")
        log.flag("p5", by: "x")  // still open
        log.resolve("post:p4", "dismiss", by: "m1")  // waited 2 minutes
        let models = try log.models().stored()
        #expect(try models.queueSize() == (2, 1))
        let figures = try models.decisionFigures()
        #expect(figures.count == 3 && figures.removed == 1 && figures.dismissed == 2)
        // Sorted waits 1, 2, 4 minutes: positions 0.5 × 2 = 1 and 0.9 × 2 = 1.8, rounded to 2.
        #expect(figures.medianWait == 2 * TestLog.minute && figures.p90Wait == 4 * TestLog.minute)
        #expect(figures.byModerator.map { "\($0.0) \($0.1)" } == ["m1 2", "m2 1"])
        // The day's figures come from the decisions' own rows, and agree.
        let day = try #require(log.models().state.newestAt).quotientAndRemainder(dividingBy: 86_400_000).quotient
        let ofTheDay = try models.decisionFigures(decidedOn: day...day)
        #expect(ofTheDay.count == 3 && ofTheDay.medianWait == figures.medianWait && ofTheDay.p90Wait == figures.p90Wait)
    }

    @Test func decisionsByModeratorAndTimeKeepTheNewestOnesOldestFirst() throws {
        var log = TestLog()
        for post in ["p1", "p2", "p3", "p4"] { log.post(post, by: "a") }
        for post in ["p1", "p2", "p3", "p4"] { log.flag(post, by: "x") }
        log.resolve("post:p1", "remove", by: "m1")
        log.resolve("post:p2", "dismiss", by: "m2")
        let third = log.clock
        log.resolve("post:p3", "dismiss", by: "m1")
        log.resolve("post:p4", "remove", by: "m1")
        let models = try log.models().stored()
        let items = { (decisions: [CommunityState.Decision]) in decisions.map(\.item) }
        #expect(try items(models.decisions(by: nil, since: nil, newest: nil)) == ["post:p1", "post:p2", "post:p3", "post:p4"])
        #expect(try items(models.decisions(by: "m1", since: nil, newest: 2)) == ["post:p3", "post:p4"])
        #expect(try items(models.decisions(by: nil, since: third, newest: nil)) == ["post:p3", "post:p4"])
        #expect(try items(models.decisions(by: "m2", since: third, newest: 5)) == [])
        #expect(try items(models.decisions(by: nil, since: nil, newest: 1)) == ["post:p4"])
    }

    @Test func threeDistinctFlaggersHideAPostFromRankingsUntilDecided() {
        var log = TestLog()
        log.post("p", by: "a")
        log.post("q", by: "a")
        for user in ["b", "c", "d"] { log.flag("p", by: user) }
        var models = log.models()
        #expect(models.moderationQueue()[0].hidden)
        #expect(models.looks(.new).map(\.post) == ["q"])
        log.resolve("post:p", "dismiss")
        models = log.models()
        #expect(models.moderationQueue().isEmpty)
        #expect(models.looks(.new).map(\.post) == ["q", "p"])
    }

    @Test func queueOrderIsFlaggersThenOldestOpenFlagThenItem() throws {
        var log = TestLog()
        for post in ["p1", "p2", "p3", "p4"] { log.post(post, by: "a") }
        log.flag("p3", by: "x")
        log.flag("p2", by: "x")
        log.flag("p4", by: "x", at: log.records[5].at)  // same time as p2's flag: item order decides
        log.flag("p1", by: "x")
        log.flag("p1", by: "y")
        #expect(log.models().moderationQueue().map(\.item) == ["post:p1", "post:p3", "post:p2", "post:p4"])
        #expect(try log.models().stored().moderationQueue().map(\.item) == ["post:p1", "post:p3", "post:p2", "post:p4"])
    }

    @Test func firstFlaggedIsTheEarliestOpenFlagByAt() {
        var log = TestLog()
        log.post("p", by: "a")
        let early = log.clock - 10 * TestLog.minute
        log.flag("p", by: "b")
        log.flag("p", by: "c", at: early)  // a late event: its at is earlier
        #expect(log.models().moderationQueue()[0].firstFlagged == early)
    }

    @Test func removeEndsTheItemForGoodAndItsCountsWithIt() {
        var log = TestLog()
        log.post("p", by: "a")
        log.heart("p", by: "b")
        log.vote("p", by: "b", "wear_it")
        log.flag("p", by: "c")
        log.resolve("post:p", "remove")
        log.flag("p", by: "d")
        log.heart("p", by: "d")
        let models = log.models()
        #expect(models.state.post(id: "p")!.life == .removed)
        #expect(models.verdict(post: "p") == nil)
        #expect(models.looks(.top).isEmpty)
        #expect(models.moderationQueue().isEmpty)
        #expect(models.state.decisions.map(\.action) == ["remove"])
    }

    /// The cards' `removed_items` counts the author's posts and reviews a decision removed: not
    /// dismissals, not another author's items, not a post removed after its author deleted it
    /// (nothing was open); `flags_received` every flag on their posts (and reviews), repeats too.
    @Test func anAuthorsRemovedItemsAndFlagsReceivedCountTheirOwnItemsOnly() throws {
        var log = TestLog()
        log.post("p1", by: "a")
        log.post("p2", by: "a")
        log.post("p3", by: "a")
        log.post("q", by: "b")
        log.review("r1", on: "q", by: "a")
        log.review("r2", on: "p1", by: "b")
        log.flag("p1", by: "c")
        log.flag("p1", by: "c")  // a repeat: in the history, not a second flagger
        log.flag("p2", by: "c")
        log.flag("q", by: "c")
        log.flagReview("r1", by: "d")
        log.flagReview("r2", by: "d")
        log.resolve("post:p1", "remove")
        log.resolve("post:p2", "dismiss")
        log.resolve("review:r1", "remove")
        log.resolve("post:q", "remove")
        log.resolve("review:r2", "remove")  // closed already: p1's removal closed its reviews' flags
        log.delete("p3", by: "a")
        log.resolve("post:p3", "remove")  // nothing open: ignored
        let models = try log.models().stored()
        #expect(try models.removedItems(of: "a") == 2)  // p1 and r1
        #expect(try models.removedItems(of: "b") == 1)  // q
        #expect(try models.removedItems(of: "nobody") == 0)
        #expect(try models.flagsReceived(by: "a", reviews: false) == 3)
        #expect(try models.flagsReceived(by: "a", reviews: true) == 4)
        #expect(try models.flagsReceived(by: "b", reviews: true) == 2)
    }

    /// An item's record through a round, a repeat, a dismiss and a new round: every flag in its
    /// history, counted when it opened or joined a round; the open flags and the queue's version
    /// those of the current round.
    @Test func anItemKeepsEveryFlagInItsHistoryAndOnlyTheCurrentRoundOpen() throws {
        var log = TestLog()
        log.post("p", by: "a")
        let first = log.clock
        log.flag("p", by: "b", reason: "spam")
        log.flag("p", by: "b", reason: "nudity")  // a repeat: in the history, not counted
        log.flag("p", by: "c")
        log.resolve("post:p", "dismiss")
        let reopened = (seq: Int64(log.records.count + 1), at: log.clock)
        log.flag("p", by: "b", reason: "nudity")  // opens a new round
        let item = try #require(log.models().state.items["post:p"])
        #expect(item.history.map { "\($0.user) \($0.mark.reason ?? "-") \($0.counted)" } == [
            "b spam true", "b nudity false", "c - true", "b nudity true",
        ])
        #expect(item.history[0].mark.at == first)
        #expect(item.open.count == 1 && item.open["b"]?.reason == "nudity" && item.open["b"]?.at == reopened.at)
        #expect(item.lastFlagSeq == reopened.seq && item.lastFlagAt == reopened.at)
    }

    /// An id may start with a combining mark; as characters it would join the item's colon
    /// (`post:` + U+0301 is no longer `post:` + anything), so items are read by scalars.
    @Test func anItemWhoseIDStartsWithACombiningMarkCanBeFlaggedAndRemoved() {
        var log = TestLog()
        let id = "\u{301}p"
        log.post(id, by: "a")
        for user in ["b", "c", "d"] { log.flag(id, by: user) }
        let flagged = log.models().state
        #expect(flagged.hiddenPosts.map { flagged.posts.values[$0].id } == [id])
        log.resolve("post:" + id, "remove")
        let models = log.models()
        #expect(models.state.post(id: id)!.life == .removed)
        #expect(models.state.decisions.map(\.item) == ["post:" + id])
        #expect(ItemRef("post:" + id)?.kind == .post)
        #expect(ItemRef("post:" + id)?.id.unicodeScalars.elementsEqual(id.unicodeScalars) == true)
    }

    @Test func dismissClosesTheRoundAndALaterFlagReopensItFresh() {
        var log = TestLog()
        log.post("p", by: "a")
        for user in ["b", "c", "d"] { log.flag("p", by: user) }
        log.resolve("post:p", "dismiss")
        let reopened = log.clock
        log.flag("p", by: "b")  // the same user may reopen it
        let queue = log.models().moderationQueue()
        #expect(queue.count == 1)
        #expect(queue[0].flaggers == 1)
        #expect(queue[0].firstFlagged == reopened)
        #expect(queue[0].hidden == false)
    }

    @Test func resolvingAnItemWithNoOpenFlagsIsIgnored() {
        var log = TestLog()
        log.post("p", by: "a")
        log.resolve("post:p", "remove")
        let models = log.models()
        #expect(models.state.post(id: "p")!.life == .live)
        #expect(models.state.decisions.isEmpty)
        #expect(models.anomalies().first?.anomaly == .nothingOpen)
    }

    @Test func deletingAPostClosesItsFlagsAndItsReviewsFlags() {
        var log = TestLog()
        log.post("p", by: "a")
        log.review("r", on: "p", by: "b")
        log.flag("p", by: "c")
        log.flagReview("r", by: "c")
        #expect(log.models().moderationQueue().count == 2)
        log.delete("p", by: "a")
        #expect(log.models().moderationQueue().isEmpty)
    }

    @Test func removingAReviewClosesItsFlagsAndStopsItCounting() {
        var log = TestLog()
        log.post("p", by: "a")
        log.review("r", on: "p", by: "b")
        log.flagReview("r", by: "c")
        log.resolve("review:r", "remove")
        let models = log.models()
        #expect(models.moderationQueue().isEmpty)
        #expect(models.state.post(id: "p")!.liveReviews == 0)
    }

    @Test func aHiddenReviewStillCountsInItsPostsPoints() {
        var log = TestLog()
        log.post("p", by: "a")
        log.review("r", on: "p", by: "b")
        for user in ["c", "d", "e"] { log.flagReview("r", by: user) }
        let models = log.models()
        #expect(models.moderationQueue()[0].hidden)
        #expect(models.looks(.top)[0].points == 2)
    }

    @Test func hiddenIsTakenAtNow() {
        var log = TestLog()
        log.post("p", by: "a")
        for user in ["b", "c", "d"] { log.flag("p", by: user) }
        #expect(log.models(.atSeq(3)).moderationQueue()[0].hidden == false)
        #expect(log.models().moderationQueue()[0].hidden)
    }
}
