import GTIOCatalog
import GTIOStore

/// One product as `products` ranks it.
public struct ProductLine: Sendable, Equatable {
    /// Its place in `products`; nil for a product that events named but that nothing counts for
    /// now, which `products` leaves out (its card still answers).
    public var rank: Int?
    public var product: String
    public var hearts: Int
    public var lists: Int
    public var suggestions: Int
    /// Live posts showing it (hidden ones and private authors' included).
    public var posts: Int
    /// The price of the latest created of those posts that has one.
    public var price: Double?
}

/// A post that shows a product, as the product's card lists it.
public struct ProductPost: Sendable, Equatable {
    public var post: String
    public var author: String
    public var kind: String
    public var created: Int64
    public var seq: Int64
    public var life: CommunityState.Life
    public var price: Double?
    public var verdict: VoteVerdict?
}

/// One product on one screen: its figures, suggestions by channel and the posts showing it.
public struct ProductCard: Sendable {
    public var line: ProductLine
    /// Suggestions by channel, by channel name.
    public var channels: [(channel: String, count: Int)]
    /// Posts created with it, live or not, the first in seq order.
    public var posts: Excerpt<ProductPost>
    /// Its price history: the latest of those posts with a price, in seq order.
    public var prices: Excerpt<ProductPost>
}

extension StoredReadModels {
    /// Products with any heart, list, suggestion or live post: most hearted first, then most
    /// listed, most suggested, then id; `limit` nil or 0 for all.
    public func products(limit: Int? = 20) throws -> [ProductLine] {
        let count = limit.flatMap { $0 > 0 ? $0 : nil }
        return try read { tables in
            var lines: [ProductLine] = []
            try tables.forEachRow("""
                SELECT product, hearts, lists, suggestions, posts, price FROM rm_products
                WHERE hearts + lists + suggestions + posts > 0
                ORDER BY hearts DESC, lists DESC, suggestions DESC, product
                """, []) { row in
                lines.append(Self.productLine(row, rank: lines.count + 1))
                return count.map { lines.count < $0 } ?? true
            }
            return lines
        }
    }

    /// The product `id`'s card with the first `count` posts showing it and its latest `count`
    /// prices (all with nil), nil when no event named it.
    public func productCard(_ id: String, posts count: Int? = nil) throws -> ProductCard? {
        try read { tables in
            guard let row = try tables.row(
                "SELECT product, hearts, lists, suggestions, posts, price FROM rm_products WHERE product = ?", [.text(id)])
            else { return nil }
            let channels = try tables.rows("SELECT channel, count FROM rm_product_channels WHERE product = ? ORDER BY channel", [.text(id)])
                .map { (channel: $0[0].string ?? "", count: $0[1].int) }
            let columns = "p.post, p.author, p.kind, p.created, p.seq, p.state, p.price, v.wear_it, v.change_it"
            let posts = "FROM rm_posts p LEFT JOIN rm_verdicts v ON v.post = p.post WHERE p.product = ?"
            let shown = try tables.excerpt(columns, posts, orderedBy: "p.seq", [.text(id)], first: count,
                                           counting: "FROM rm_posts WHERE product = ?", Self.productPost)
            var prices = try tables.excerpt(columns, posts + " AND p.price IS NOT NULL", orderedBy: "p.seq DESC", [.text(id)],
                                            first: count, counting: "FROM rm_posts WHERE product = ? AND price IS NOT NULL",
                                            Self.productPost)
            prices.entries.reverse()
            // Its rank among all products, as `products` would give it: none when it has no row there.
            let counted = row[1].int + row[2].int + row[3].int + row[4].int > 0
            let rank = try !counted ? nil : tables.row("""
                SELECT COUNT(*) + 1 FROM rm_products WHERE hearts + lists + suggestions + posts > 0
                AND (hearts > ?1 OR (hearts = ?1 AND (lists > ?2 OR (lists = ?2 AND (suggestions > ?3
                     OR (suggestions = ?3 AND product < ?4))))))
                """, [row[1], row[2], row[3], row[0]])?[0].int
            return ProductCard(line: Self.productLine(row, rank: rank), channels: channels, posts: shown, prices: prices)
        }
    }

    private static func productPost(_ row: [StoreValue]) -> ProductPost {
        ProductPost(
            post: row[0].string ?? "", author: row[1].string ?? "", kind: row[2].string ?? "", created: row[3].int64 ?? 0,
            seq: row[4].int64 ?? 0, life: CommunityState.Life(column: row[5].string ?? ""), price: row[6].double,
            verdict: row[7].int64 == nil ? nil : VoteVerdict(post: row[0].string ?? "", wearIt: row[7].int, changeIt: row[8].int))
    }

    private static func productLine(_ row: [StoreValue], rank: Int?) -> ProductLine {
        ProductLine(rank: rank, product: row[0].string ?? "", hearts: row[1].int, lists: row[2].int, suggestions: row[3].int,
                    posts: row[4].int, price: row[5].double)
    }
}

extension StoredReadModels {
    /// Suggestions of every product by channel, in the contract's channel order (zeros included).
    public func suggestionsByChannel() throws -> [(channel: String, count: Int)] {
        let counts = try read { tables in
            try tables.rows("SELECT channel, SUM(count) FROM rm_product_channels GROUP BY channel")
        }
        let byChannel = Dictionary(uniqueKeysWithValues: counts.map { ($0[0].string ?? "", $0[1].int) })
        let known = EventType.suggestionChannels
        return known.map { ($0, byChannel[$0] ?? 0) } + byChannel.keys.filter { !known.contains($0) }.sorted().map { ($0, byChannel[$0]!) }
    }
}
