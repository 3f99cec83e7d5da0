import Testing
@testable import GTIOProjections

@Suite struct PostRuleTests {
    @Test func heartsAreASetPerUserAndPost() {
        var log = TestLog()
        log.post("p", by: "a")
        log.heart("p", by: "b")
        log.heart("p", by: "b")
        log.heart("p", by: "c")
        log.unheart("p", by: "c")
        log.unheart("p", by: "c")
        log.heart("p", by: "a")  // your own post counts
        let state = log.models().state
        #expect(Set(state.hearts(of: state.post(id: "p")!).keys) == ["a", "b"])
    }

    @Test func whoHeartedListsNewestHeartFirst() {
        var log = TestLog()
        log.post("p", by: "a")
        log.heart("p", by: "b")
        log.heart("p", by: "c")
        log.unheart("p", by: "b")
        log.heart("p", by: "b")
        let state = log.models().state
        let hearts = state.hearts(of: state.post(id: "p")!)
        #expect(hearts.sorted { $0.value > $1.value }.map(\.key) == ["b", "c"])
    }

    @Test func actionsOnAPostThatDoesNotExistYetAreIgnored() {
        var log = TestLog()
        log.heart("p", by: "b")
        log.vote("p", by: "b", "wear_it")
        log.review("r", on: "p", by: "b")
        log.flag("p", by: "b")
        log.post("p", by: "a")
        let models = log.models()
        #expect(models.state.post(id: "p")!.heartCount == 0)
        #expect(models.verdict(post: "p") == nil)
        #expect(models.state.reviews["r"] == nil)
        #expect(models.moderationQueue().isEmpty)
    }

    @Test func existenceIsJudgedBySeqNotByAt() {
        var log = TestLog()
        let early = log.clock
        log.clock += 60 * TestLog.minute
        log.post("p", by: "a")
        log.add(.postHearted, "b", subject: "p", at: early)  // stamped before the post, applied after it
        #expect(log.models().state.post(id: "p")!.heartCount == 1)
    }

    @Test func deletionByTheAuthorEndsThePostAndByAnyoneElseIsIgnored() {
        var log = TestLog()
        log.post("p", by: "a")
        log.heart("p", by: "b")
        log.delete("p", by: "b")
        #expect(log.models().state.post(id: "p")!.life == .live)
        log.delete("p", by: "a")
        log.heart("p", by: "c")
        let models = log.models()
        #expect(models.state.post(id: "p")!.life == .deleted)
        #expect(models.state.post(id: "p")!.heartCount == 1)
        #expect(models.looks(.top).isEmpty)
    }

    @Test func aPostCreatedWithAnIDInUseIsIgnored() {
        var log = TestLog()
        log.post("p", by: "a")
        log.post("p", by: "b")
        log.delete("p", by: "a")
        log.post("p", by: "c")
        #expect(log.models().state.post(id: "p")!.author == "a")
    }

    @Test func reviewsCountWhileLiveAndAreRemovedOnlyByTheirAuthor() {
        var log = TestLog()
        log.post("p", by: "a")
        log.review("r1", on: "p", by: "b")
        log.review("r2", on: "p", by: "c")
        log.review("r1", on: "p", by: "d")      // reuses an id
        log.removeReview("r2", by: "a")         // not the review's author
        log.removeReview("r1", by: "b")
        let models = log.models()
        #expect(models.state.post(id: "p")!.liveReviews == 1)
        #expect(models.state.reviews["r1"]!.removed)
        #expect(models.state.reviews["r1"]!.author == "b")
        #expect(models.looks(.top).first?.points == 2)
    }

    @Test func agreesCountOncePerUserAndNotForYourOwnReview() {
        var log = TestLog()
        log.post("p", by: "a")
        log.review("r", on: "p", by: "b")
        log.agree("r", by: "b")
        log.agree("r", by: "c")
        log.agree("r", by: "c")
        log.agree("r", by: "a")
        #expect(log.models().state.reviews["r"]!.agreers == ["a", "c"])
    }

    @Test func actionsOnReviewsOfAGonePostAreIgnored() {
        var log = TestLog()
        log.post("p", by: "a")
        log.review("r", on: "p", by: "b")
        log.delete("p", by: "a")
        log.agree("r", by: "c")
        log.flagReview("r", by: "c")
        let models = log.models()
        #expect(models.state.reviews["r"]!.agreers.isEmpty)
        #expect(models.moderationQueue().isEmpty)
    }

    @Test func productHeartsAndTheShoppingListAreSets() {
        var log = TestLog()
        log.add(.productHearted, "a", subject: "x")
        log.add(.productHearted, "a", subject: "x")
        log.add(.shoppingListAdded, "a", subject: "y")
        log.add(.shoppingListRemoved, "a", subject: "y")
        log.add(.shoppingListRemoved, "a", subject: "y")
        let state = log.models().state
        #expect(state.productHearts == [state.pair("a", "x")!])
        #expect(state.shoppingList.isEmpty)
    }
}
