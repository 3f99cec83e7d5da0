import GTIOCatalog
import Testing
@testable import GTIOProjections

@Suite struct ProductRuleTests {
    @Test func heartsAndListsAreSetsPerUserAndProduct() throws {
        var log = TestLog()
        log.product(.productHearted, "pr1", by: "a")
        log.product(.productHearted, "pr1", by: "a")  // a repeat: an anomaly, still one heart
        log.product(.productHearted, "pr1", by: "b")
        log.product(.productUnhearted, "pr1", by: "b")
        log.product(.productUnhearted, "pr1", by: "c")  // changes nothing: an anomaly
        log.product(.shoppingListAdded, "pr1", by: "c")
        log.product(.shoppingListAdded, "pr2", by: "c")
        log.product(.shoppingListRemoved, "pr2", by: "c")
        let models = log.models()
        let lines = try models.stored().products(limit: nil)
        #expect(lines.map(\.product) == ["pr1"])
        #expect(lines[0].hearts == 1 && lines[0].lists == 1 && lines[0].suggestions == 0)
        #expect(models.state.anomalies[.init(type: .productHearted, anomaly: .repeated)] == 1)
        #expect(models.state.anomalies[.init(type: .productUnhearted, anomaly: .notInSet)] == 1)
        // pr2 is known (its card answers) but has nothing: not listed, so it has no rank.
        #expect(try models.stored().productCard("pr2")?.line.lists == 0)
        #expect(try models.stored().productCard("pr2")?.line.rank == nil)
        #expect(try models.stored().productCard("pr1")?.line.rank == 1)
        #expect(try models.stored().productCard("nope") == nil)
    }

    @Test func productsRankByHeartsThenListsThenSuggestionsThenID() throws {
        var log = TestLog()
        log.product(.productHearted, "b", by: "u1")
        log.product(.productHearted, "a", by: "u1")
        log.product(.productHearted, "c", by: "u1")
        log.product(.productHearted, "c", by: "u2")
        log.product(.shoppingListAdded, "b", by: "u1")
        log.product(.productSuggested, "a", by: "u1", channel: "sms")
        log.product(.productSuggested, "d", by: "u1", channel: "sms")
        log.product(.productSuggested, "d", by: "u1", channel: "sms")  // repeats count
        log.product(.productSuggested, "d", by: "u2", channel: "email")
        let stored = try log.models().stored()
        #expect(try stored.products(limit: nil).map(\.product) == ["c", "b", "a", "d"])
        #expect(try stored.products(limit: 2).map(\.rank) == [1, 2])
        let card = try #require(try stored.productCard("d"))
        #expect(card.line.suggestions == 3 && card.line.rank == 4)
        #expect(card.channels.map(\.channel) == ["email", "sms"] && card.channels.map(\.count) == [1, 2])
    }

    @Test func postsAndPriceComeFromLivePostsNamingItLatestPriceBySeq() throws {
        var log = TestLog()
        log.post("p1", by: "a", kind: "product", product: "pr", price: 10)
        log.post("p2", by: "b", kind: "outfit", product: "pr", price: 0)  // an outfit's price counts here; 0 is a price
        log.post("p3", by: "c", kind: "product", product: "pr")  // no price: does not clear it
        let late = log.clock - 30 * TestLog.minute
        log.post("p4", by: "d", kind: "product", product: "pr", price: 7.5, at: late)  // created last by seq, earlier by at
        var line = try #require(try log.models().stored().products(limit: nil).first)
        #expect(line.posts == 4 && line.price == 7.5)
        log.delete("p4", by: "d")
        line = try #require(try log.models().stored().products(limit: nil).first)
        #expect(line.posts == 3 && line.price == 0)
        for user in ["x", "y", "z"] { log.flag("p2", by: user) }  // hidden posts still count
        log.setPrivate("b", true)  // and private authors'
        line = try #require(try log.models().stored().products(limit: nil).first)
        #expect(line.posts == 3 && line.price == 0)
        log.resolve("post:p2", "remove")
        line = try #require(try log.models().stored().products(limit: nil).first)
        #expect(line.posts == 2 && line.price == 10)
        let card = try #require(try log.models().stored().productCard("pr"))
        #expect(card.posts.entries.map(\.post) == ["p1", "p2", "p3", "p4"])
        #expect(card.posts.entries.map(\.life) == [.live, .removed, .live, .deleted])
        #expect(card.prices.entries.map(\.post) == ["p1", "p2", "p4"])  // p3 has no price
        let cut = try #require(try log.models().stored().productCard("pr", posts: 2))
        #expect(cut.posts.entries.map(\.post) == ["p1", "p2"] && cut.posts.total == 4)
        #expect(cut.prices.entries.map(\.post) == ["p2", "p4"] && cut.prices.total == 3)
    }

    @Test func aUsersCardCountsTheirHeartedProductsAndList() throws {
        var log = TestLog()
        log.product(.productHearted, "pr1", by: "a")
        log.product(.productHearted, "pr2", by: "a")
        log.product(.productUnhearted, "pr1", by: "a")
        log.product(.shoppingListAdded, "pr1", by: "a")
        let facts = try #require(try log.models().stored().userFacts("a"))
        #expect(facts.productsHearted == 1 && facts.shoppingList == 1)
    }
}
