import GTIOAnalytics
import GTIOCatalog
import GTIOSimulation
import GTIOStore
import PropertyBased
import Testing
@testable import GTIOProjections

@Suite struct PlaceAndPriceRuleTests {
    static let soho = PostPlace(name: "Soho", latitude: 40.7233, longitude: -74.0030)

    @Test func placesGroupEligibleLooksByExactNameWithAuthorsAndPoints() throws {
        var log = TestLog()
        log.post("p1", by: "a", place: Self.soho)
        log.post("p2", by: "a", place: Self.soho)
        log.post("p3", by: "b", place: PostPlace(name: "soho"))  // another place: names are case-sensitive
        log.post("p4", by: "c", place: PostPlace(name: ""))  // "" is a name
        log.post("p5", by: "c", place: Self.soho)
        log.post("p6", by: "d", place: Self.soho)
        log.post("p7", by: "e")
        log.heart("p1", by: "x")
        log.heart("p3", by: "x")
        log.heart("p3", by: "y")
        log.delete("p5", by: "c")  // deleted: out
        log.setPrivate("d", true)  // private author: out
        let places = try log.models().stored().places(limit: nil)
        #expect(places.map(\.place) == ["soho", "Soho", ""])
        #expect(places.map(\.posts) == [1, 2, 1])
        #expect(places.map(\.authors) == [1, 1, 1])
        #expect(places.map(\.points) == [2, 1, 0])
        #expect(places.map(\.rank) == [1, 2, 3])
    }

    @Test func hiddenLooksAndLooksCreatedAfterNowAreLeftOut() throws {
        var log = TestLog()
        log.post("p1", by: "a", place: Self.soho)
        log.post("p2", by: "b", place: Self.soho)
        let cut = log.clock
        log.post("p3", by: "c", place: Self.soho)
        for user in ["x", "y", "z"] { log.flag("p1", by: user) }
        #expect(try log.models().stored().places().map(\.posts) == [2])
        #expect(try log.models(.asOf(Timestamp(milliseconds: cut - 1))).stored().places().map(\.posts) == [2])
        log.resolve("post:p1", "dismiss")
        #expect(try log.models().stored().places().map(\.posts) == [3])
    }

    @Test func nearKeepsPostsWithinTheRadiusByHaversineBoundIncluded() throws {
        // One degree of latitude is 2πR/360 km on a sphere of radius R.
        let degree = 2 * Double.pi * PostPlace.earthRadiusKm / 360
        var log = TestLog()
        log.post("p1", by: "a", place: PostPlace(name: "A", latitude: 0, longitude: 0))
        log.post("p2", by: "a", place: PostPlace(name: "A", latitude: 1, longitude: 0))
        log.post("p3", by: "a", place: PostPlace(name: "B", latitude: 2, longitude: 0))
        log.post("p4", by: "a", place: PostPlace(name: "B"))  // no coordinates: never near
        log.post("p5", by: "a", place: PostPlace(name: "C", latitude: 0))  // one coordinate: never near
        let stored = try log.models().stored()
        #expect(PostPlace.distanceKm(0, 0, 1, 0) == degree)
        #expect(try stored.places(near: NearFilter(latitude: 0, longitude: 0, km: degree)).map(\.posts) == [2])
        #expect(try stored.places(near: NearFilter(latitude: 0, longitude: 0, km: degree * 0.999)).map(\.posts) == [1])
        #expect(try stored.places(near: NearFilter(latitude: 1, longitude: 0, km: degree * 1.001)).map(\.place) == ["A", "B"])
        #expect(try stored.places(near: NearFilter(latitude: 50, longitude: 0)).isEmpty)
    }

    @Test func pricesOfLiveProductPostsMedianMeanAndNearestRankP90() throws {
        var log = TestLog()
        for (index, price) in [3.0, 1, 4, 1, 5, 9, 2, 6, 5, 3].enumerated() {
            log.post("p\(index)", by: "a", kind: "product", price: price)
        }
        log.post("o1", by: "a", kind: "outfit", price: 1000)  // an outfit's price is ignored
        log.post("n1", by: "a", kind: "product")  // no price
        log.post("d1", by: "a", kind: "product", price: 500)
        log.delete("d1", by: "a")
        for user in ["x", "y", "z"] { log.flag("p0", by: user) }  // hidden: still counted
        let line = try #require(try log.models().stored().prices().first)
        #expect(line.group == "all" && line.posts == 10)
        #expect(line.min == 1 && line.max == 9)
        #expect(line.median == 3.5)  // (3 + 4) / 2: the two middle values of ten
        #expect(line.mean == 3.9)
        #expect(line.p90 == 6)  // the 9th smallest of 10
        let odd = PriceLine(group: "g", prices: [5, 1, 3])
        #expect(odd.median == 3 && odd.p90 == 5)  // ⌈2.7⌉ = 3rd
        #expect(PriceLine(group: "g", prices: Array(1...11).map(Double.init)).p90 == 10)  // ⌈9.9⌉ = 10th
    }

    @Test func byBrandCountsAPostOnceUnderEachDistinctBrandAndByPlaceLeavesOutThoseWithout() throws {
        var log = TestLog()
        log.post("p1", by: "a", kind: "product", price: 10, brands: ["Zara", "Zara", "Gap"], place: Self.soho)
        log.post("p2", by: "a", kind: "product", price: 20, brands: ["zara"])
        log.post("p3", by: "a", kind: "product", price: 30)
        log.post("p4", by: "a", kind: "product", price: 40, brands: [""], place: PostPlace(name: "soho"))
        let stored = try log.models().stored()
        let brands = try stored.prices(by: .brand)
        #expect(brands.map(\.group) == ["", "Gap", "Zara", "zara"])
        #expect(brands.map(\.posts) == [1, 1, 1, 1])
        #expect(try stored.prices(by: .place).map(\.group) == ["Soho", "soho"])
        #expect(try stored.prices().map(\.posts) == [4])
        #expect(AnswerTable.prices([PriceLine(group: "g", prices: [120, 121])]).rows[0].map(\.plainText)
                    == ["g", "2", "120", "120.5", "120.5", "121", "121"])
    }

    /// "Café" written with é (U+00E9) and with e and U+0301 are equal as Swift strings, and two
    /// names for the contract, which compares names exactly: each grouping keeps them apart.
    @Test func namesThatDifferOnlyInNormalizationAreTwoNames() throws {
        let composed = "Caf\u{E9}", decomposed = "Cafe\u{301}"
        var log = TestLog()
        log.post("p1", by: "a", kind: "product", price: 10, brands: [composed, decomposed],
                 place: PostPlace(name: composed, latitude: 0, longitude: 0))
        log.post("p2", by: "b", kind: "product", price: 20, brands: [decomposed],
                 place: PostPlace(name: decomposed, latitude: 0, longitude: 0))
        log.post("p3", by: "e\u{301}", kind: "product", price: 30, place: PostPlace(name: decomposed, latitude: 0, longitude: 0))
        log.post("p4", by: "\u{E9}", kind: "product", price: 40, place: PostPlace(name: decomposed, latitude: 0, longitude: 0))
        let stored = try log.models().stored()
        func bytes(_ names: [String]) -> [[UInt8]] { names.map { Array($0.utf8) } }
        // By code point, e (U+0065) comes before é (U+00E9).
        let byBrand = try stored.prices(by: .brand)
        #expect(bytes(byBrand.map(\.group)) == bytes([decomposed, composed]))
        #expect(byBrand.map(\.posts) == [2, 1])
        let byPlace = try stored.prices(by: .place)
        #expect(bytes(byPlace.map(\.group)) == bytes([decomposed, composed]))
        #expect(byPlace.map(\.posts) == [3, 1])
        for near in [nil, NearFilter(latitude: 0, longitude: 0)] {
            let places = try stored.places(near: near, limit: nil)
            #expect(bytes(places.map(\.place)) == bytes([decomposed, composed]), "near: \(String(describing: near))")
            #expect(places.map(\.posts) == [3, 1])
            #expect(places.map(\.authors) == [3, 1], "the authors é and e + U+0301 are two users")
        }
    }

    /// Any number ≥ 0 is a price: two near the largest double have a finite median and mean
    /// although their sum is past it; an infinite price makes them infinite.
    @Test func pricesWhoseSumPassesTheLargestDoubleHaveTheirMedianAndMean() throws {
        let largest = Double.greatestFiniteMagnitude
        let twice = PriceLine(group: "g", prices: [1e308, 1e308])
        #expect(twice.median == 1e308 && twice.mean == 1e308)
        let two = PriceLine(group: "g", prices: [largest, 1e300])
        #expect(two.median == largest / 2 + 1e300 / 2 && two.mean == two.median)
        let three = PriceLine(group: "g", prices: [largest, largest, 0])
        #expect(three.median == largest && three.mean == largest / 3 * 2)
        let infinite = PriceLine(group: "g", prices: [.infinity, 1])
        #expect(infinite.median == .infinity && infinite.mean == .infinity)
        // Below the overflow the figures are the plain sum's, to the bit.
        #expect(PriceLine(group: "g", prices: [0.1, 0.2, 0.4]).mean == (0.1 + 0.2 + 0.4) / 3)
    }

    /// `prices` reads a count per distinct price of a group, which the fold keeps as product
    /// posts are created and end: after every event of random logs (reused ids, deletions and
    /// removals, brands and places), the counts are those of the live product posts counted
    /// afresh, and at the end each grouping's figures are those of the posts' prices sorted.
    @Test func pricePointsAreTheLiveProductPostsCountedAfresh() async throws {
        await propertyCheck(count: 25, input: Gen.uint64(in: 1...UInt64.max)) { seed in
            var state = CommunityState()
            var fresh: [PricePoint: Int] = [:]
            for record in RandomLog.records(seed: seed, count: 300) {
                state.apply(record)
                fresh = [:]
                for post in state.posts.values where post.life == .live {
                    for point in PricePoint.of(post) { fresh[point, default: 0] += 1 }
                }
                #expect(state.pricePoints == fresh, "seed \(seed), seq \(record.seq)")
                var grouped: [PriceGroup: [Double: Int]] = [:]
                for (point, count) in fresh { grouped[PriceGroup(point), default: [:]][point.price] = count }
                #expect(state.priceGroups == grouped, "seed \(seed), seq \(record.seq)")
            }
            let stored = try! ReadModels(state: state).stored()
            for grouping in [nil] + PriceGrouping.allCases.map(Optional.some) {
                var prices: [ExactText: [Double]] = [:]
                for post in state.posts.values where post.life == .live {
                    for point in PricePoint.of(post) where point.kind == (grouping?.rawValue ?? "all") {
                        prices[point.group, default: []].append(point.price)
                    }
                }
                let expected = prices.map { PriceLine(group: $0.key.text, prices: $0.value) }.sorted { a, b in
                    a.posts != b.posts ? a.posts > b.posts : a.group.utf8.lexicographicallyPrecedes(b.group.utf8)
                }
                #expect(try! stored.prices(by: grouping) == expected, "seed \(seed), \(grouping?.rawValue ?? "all")")
            }
        }
    }

    /// The looks at each place that may rank, counted afresh from every post.
    static func placesAfresh(_ state: CommunityState) -> [ExactText: PlaceTally] {
        var fresh: [ExactText: PlaceTally] = [:]
        for post in state.posts.values where post.life == .live && !state.isHidden("post:" + post.id) && !state.isPrivate(post.author) {
            guard let place = post.place else { continue }
            fresh[ExactText(place.name), default: PlaceTally()].count(PlaceShare(place: ExactText(place.name), author: ExactText(post.author), points: post.points), 1)
        }
        return fresh
    }

    /// The tallies settled after any run of events, as a writer settles them at each write, are
    /// the posts counted afresh; and `places` from them is what grouping `rm_posts` gave.
    @Test func placeTalliesAreTheEligiblePostsCountedAfresh() async throws {
        await propertyCheck(count: 25, input: Gen.uint64(in: 1...UInt64.max)) { seed in
            var state = CommunityState()
            var random = SeededGenerator(seed: ~seed)
            for record in RandomLog.records(seed: seed, count: 300) {
                state.apply(record)
                guard random.below(4) == 0 else { continue }
                state.settlePlaces()
                #expect(state.placeTallies == Self.placesAfresh(state), "seed \(seed), seq \(record.seq)")
            }
            let models = ReadModels(state: state)
            #expect(models.state.placeTallies == Self.placesAfresh(state), "seed \(seed)")
            let stored = try! models.stored()
            let grouped = try! stored.read { tables in
                try tables.rows("""
                    SELECT p.place, COUNT(*), COUNT(DISTINCT p.author), SUM(p.points) FROM rm_posts p
                    WHERE p.place >= '' AND p.state = 'live' AND p.hidden = 0 AND p.author_private = 0 GROUP BY p.place
                    """, [])
            }.map { row in PlaceLine(rank: 0, place: row[0].string ?? "", posts: row[1].int, authors: row[2].int, points: row[3].int) }
            let places = try! stored.places(limit: nil)
            #expect(places.map { PlaceLine(rank: 0, place: $0.place, posts: $0.posts, authors: $0.authors, points: $0.points) }
                .sorted { $0.place.utf8.lexicographicallyPrecedes($1.place.utf8) }
                == grouped.sorted { $0.place.utf8.lexicographicallyPrecedes($1.place.utf8) }, "seed \(seed)")
        }
    }

    @Test func noPricedProductPostGivesNoRows() throws {
        var log = TestLog()
        log.post("p1", by: "a", kind: "outfit", price: 10)
        #expect(try log.models().stored().prices().isEmpty)
    }

    @Test func looksAtAPlaceRankOnlyThePostsTakenThere() throws {
        var log = TestLog()
        log.post("p1", by: "a", place: Self.soho)
        log.post("p2", by: "b")
        log.post("p3", by: "c", place: Self.soho)
        #expect(try log.models().stored().looks(.new, place: "Soho").map(\.post) == ["p3", "p1"])
        #expect(try log.models().stored().looks(.new, place: "soho").isEmpty)
    }
}
