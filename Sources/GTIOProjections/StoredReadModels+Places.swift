import GTIOCatalog
import GTIOStore

/// One place as `places` ranks it: the eligible looks taken there.
public struct PlaceLine: Sendable, Equatable {
    public var rank: Int
    public var place: String
    public var posts: Int
    /// Distinct authors of those posts.
    public var authors: Int
    /// The sum of their points, as Popular looks counts them.
    public var points: Int
}

/// The prices of one group of product posts.
public struct PriceLine: Sendable, Equatable {
    public var group: String
    public var posts: Int
    public var min: Double
    /// The mean of the two middle prices when there is an even number of them.
    public var median: Double
    public var mean: Double
    /// Nearest rank: the ⌈9n/10⌉-th smallest.
    public var p90: Double
    public var max: Double

    /// The figures of `prices`, which must not be empty.
    public init(group: String, prices: [Double]) {
        var points: [(price: Double, posts: Int)] = []
        for price in prices.sorted() {
            if let last = points.last, last.price == price { points[points.count - 1].posts += 1 } else { points.append((price, 1)) }
        }
        self.init(group: group, points: points)
    }

    /// Figures as `rm_price_groups` keeps them.
    init(group: String, posts: Int, min: Double, median: Double, mean: Double, p90: Double, max: Double) {
        self.group = group
        self.posts = posts
        self.min = min
        self.median = median
        self.mean = mean
        self.p90 = p90
        self.max = max
    }

    /// The figures of prices given as distinct prices, ascending, each with how many posts have
    /// it (none zero, not empty): what the prices sorted would give, to the bit, as the mean
    /// adds each price as often as it occurs in the same order.
    init(group: String, points: [(price: Double, posts: Int)]) {
        let n = points.reduce(0) { $0 + $1.posts }
        /// The price at 0-based position `index` of the prices sorted.
        func price(at index: Int) -> Double {
            var passed = 0
            for point in points {
                passed += point.posts
                if index < passed { return point.price }
            }
            return points[points.count - 1].price
        }
        self.group = group
        posts = n
        min = points[0].price
        max = points[points.count - 1].price
        median = n % 2 == 1 ? price(at: n / 2) : MeanSum([price(at: n / 2 - 1), price(at: n / 2)]).mean!
        var sum = MeanSum()
        for point in points { for _ in 0..<point.posts { sum.add(point.price) } }
        mean = sum.mean!
        p90 = price(at: (9 * n + 9) / 10 - 1)
    }
}

/// What `prices` groups product posts by.
public enum PriceGrouping: String, Sendable, CaseIterable {
    case brand, place
}

/// A point and a radius: `places --near LAT,LON --km R`.
public struct NearFilter: Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double
    public var km: Double

    public init(latitude: Double, longitude: Double, km: Double = 5) {
        self.latitude = latitude
        self.longitude = longitude
        self.km = km
    }
}

extension StoredReadModels {
    /// `eligible` with `created` kept out of index choice (`+`), so that the posts with a place
    /// (every text is >= '') are found through the place index: SQLite took the created index
    /// and walked every post (`docs/PERFORMANCE.md`).
    static let eligibleAtPlaces = eligible.replacingOccurrences(of: "p.created <= ?", with: "+p.created <= ?")

    /// Places of the looks Popular looks would rank now, most points first, then most posts,
    /// then name; with `near`, only posts whose own coordinates lie within its radius.
    ///
    /// Without `near`, a row per place of `rm_places`, which the writers keep as posts change.
    public func places(near: NearFilter? = nil, limit: Int? = 20) throws -> [PlaceLine] {
        var lines: [PlaceLine] = []
        try read { tables in
            guard let near else {
                try tables.forEachRow("SELECT place, posts, authors, points FROM rm_places", []) { row in
                    lines.append(PlaceLine(rank: 0, place: row[0].string ?? "", posts: row[1].int, authors: row[2].int, points: row[3].int))
                    return true
                }
                return
            }
            let posts = "FROM rm_posts p WHERE p.place >= '' AND \(Self.eligibleAtPlaces)"
            // A band of latitude holds every point within the radius; the haversine bound decides.
            let band = near.km / (PostPlace.earthRadiusKm * Double.pi / 180) + 1e-9
            struct Group { var posts = 0, points = 0, authors: Set<ExactText> = [] }
            var groups: [ExactText: Group] = [:]
            try tables.forEachRow(
                "SELECT p.place, p.author, p.points, p.lat, p.lon \(posts) AND p.lat BETWEEN ? AND ?",
                [.integer(now), .real(near.latitude - band), .real(near.latitude + band)]
            ) { row in
                let place = PostPlace(name: "", latitude: row[3].double, longitude: row[4].double)
                guard place.isWithin(near.km, ofLatitude: near.latitude, longitude: near.longitude) else { return true }
                let name = ExactText(row[0].string ?? "")
                groups[name, default: Group()].posts += 1
                groups[name]!.points += row[2].int
                groups[name]!.authors.insert(ExactText(row[1].string ?? ""))
                return true
            }
            lines = groups.map { PlaceLine(rank: 0, place: $0.key.text, posts: $0.value.posts, authors: $0.value.authors.count, points: $0.value.points) }
        }
        lines.sort { a, b in
            if a.points != b.points { return a.points > b.points }
            if a.posts != b.posts { return a.posts > b.posts }
            return a.place.utf8.lexicographicallyPrecedes(b.place.utf8)
        }
        if let count = limit.flatMap({ $0 > 0 ? $0 : nil }), lines.count > count { lines.removeSubrange(count...) }
        for index in lines.indices { lines[index].rank = index + 1 }
        return lines
    }

    /// The prices of live product posts (hidden ones and private authors' included): all of
    /// them as one group, or by brand (a post under each of its brands) or by place (posts
    /// without one left out). Most posts first, then group.
    ///
    /// Read from `rm_price_groups`, a row per group with its figures, which the writers work
    /// out from the group's price points whenever a post of the group comes or ends.
    public func prices(by grouping: PriceGrouping? = nil) throws -> [PriceLine] {
        var lines: [PriceLine] = []
        try read { tables in
            try tables.forEachRow(
                "SELECT name, posts, min, median, mean, p90, max FROM rm_price_groups WHERE kind = ?",
                [.text(grouping?.rawValue ?? "all")]
            ) { row in
                lines.append(PriceLine(
                    group: row[0].string ?? "", posts: row[1].int, min: row[2].double ?? 0, median: row[3].double ?? 0,
                    mean: row[4].double ?? 0, p90: row[5].double ?? 0, max: row[6].double ?? 0))
                return true
            }
        }
        return lines.sorted { a, b in
            if a.posts != b.posts { return a.posts > b.posts }
            return a.group.utf8.lexicographicallyPrecedes(b.group.utf8)
        }
    }

    /// The prices of the live product posts created in `created` (UTC ms), in seq order: what
    /// the nightly report draws for its day.
    public func productPrices(created: ClosedRange<Int64>) throws -> [Double] {
        try read { tables in
            try tables.rows("""
                SELECT price FROM rm_posts WHERE state = 'live' AND kind = 'product' AND price IS NOT NULL
                AND created BETWEEN ? AND ? ORDER BY seq
                """, [.integer(created.lowerBound), .integer(created.upperBound)]).compactMap { $0[0].double }
        }
    }

    /// Place names starting with `prefix`, for completion.
    public func placeNames(prefix: String, limit: Int = 200) throws -> [String] {
        var found: [String] = []
        try read { tables in
            try tables.forEachRow("SELECT DISTINCT place FROM rm_posts WHERE place >= ? ORDER BY place", [.text(prefix)]) { row in
                guard let name = row[0].string, name.hasPrefix(prefix) else { return false }
                found.append(name)
                return found.count < limit
            }
        }
        return found
    }
}
