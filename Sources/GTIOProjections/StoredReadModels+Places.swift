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
        let sorted = prices.sorted(), n = sorted.count
        self.group = group
        posts = n
        min = sorted[0]
        max = sorted[n - 1]
        median = n % 2 == 1 ? sorted[n / 2] : MeanSum(sorted[n / 2 - 1 ... n / 2]).mean!
        mean = MeanSum(sorted).mean!
        p90 = sorted[(9 * n + 9) / 10 - 1]
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
    public func places(near: NearFilter? = nil, limit: Int? = 20) throws -> [PlaceLine] {
        var lines: [PlaceLine] = []
        try read { tables in
            let posts = "FROM rm_posts p WHERE p.place >= '' AND \(Self.eligibleAtPlaces)"
            guard let near else {
                // SQL groups the posts itself: no row per post crosses into Swift.
                try tables.forEachRow("SELECT p.place, COUNT(*), COUNT(DISTINCT p.author), SUM(p.points) \(posts) GROUP BY p.place",
                                      [.integer(now)]) { row in
                    lines.append(PlaceLine(rank: 0, place: row[0].string ?? "", posts: row[1].int, authors: row[2].int, points: row[3].int))
                    return true
                }
                return
            }
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
    public func prices(by grouping: PriceGrouping? = nil) throws -> [PriceLine] {
        let live = "p.state = 'live' AND p.kind = 'product' AND p.price IS NOT NULL"
        let sql = switch grouping {
        case nil: "SELECT 'all', p.price FROM rm_posts p WHERE \(live)"
        // Posts without a place are left out below, not in SQL: there, the condition would
        // take SQLite through the place index and to each post's row from it, slower than the
        // one scan of the posts that the other groupings make.
        case .place: "SELECT p.place, p.price FROM rm_posts p WHERE \(live)"
        case .brand: "SELECT b.brand, p.price FROM rm_post_brands b JOIN rm_posts p ON p.post = b.post WHERE \(live)"
        }
        var prices: [ExactText: [Double]] = [:]
        try read { tables in
            try tables.forEachRow(sql, []) { row in
                guard let group = row[0].string else { return true }
                prices[ExactText(group), default: []].append(row[1].double ?? 0)
                return true
            }
        }
        return prices.map { PriceLine(group: $0.key.text, prices: $0.value) }.sorted { a, b in
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
