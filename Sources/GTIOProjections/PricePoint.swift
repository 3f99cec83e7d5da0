import GTIOCatalog

/// One price among the live product posts of one group of `prices`: the key of a row of
/// `rm_price_points`, which holds how many such posts have that price. `prices` then reads a row
/// per distinct price of a group rather than one per post.
public struct PricePoint: Hashable, Sendable {
    /// `all`, `brand` or `place`: the groups of `prices`, `--by brand` and `--by place`.
    public var kind: String
    /// The group (`all`, the brand, the place's name), compared by its bytes.
    public var group: ExactText
    public var price: Double

    /// The groups a live product post with a price counts in: all of them, each distinct brand,
    /// its place when it has one (EVENTS.md, Prices).
    static func of(_ post: CommunityState.Post) -> [PricePoint] {
        guard post.kind == "product", let price = post.price else { return [] }
        var points = [PricePoint(kind: "all", group: ExactText("all"), price: price)]
        for brand in post.brands.distinctInCodePointOrder() {
            points.append(PricePoint(kind: PriceGrouping.brand.rawValue, group: ExactText(brand), price: price))
        }
        if let place = post.place {
            points.append(PricePoint(kind: PriceGrouping.place.rawValue, group: ExactText(place.name), price: price))
        }
        return points
    }

    /// The order of `rm_price_points`' key: kind and name by their bytes, then price.
    static func inKeyOrder(_ a: PricePoint, _ b: PricePoint) -> Bool {
        if a.kind != b.kind { return a.kind.utf8.lexicographicallyPrecedes(b.kind.utf8) }
        if a.group != b.group { return a.group.text.utf8.lexicographicallyPrecedes(b.group.text.utf8) }
        return a.price < b.price
    }
}

/// One group of `prices` (all, a brand, a place): the key of a row of `rm_price_groups`, which
/// holds the group's figures, so that `prices` reads a row per group.
public struct PriceGroup: Hashable, Sendable {
    public var kind: String
    public var group: ExactText

    init(_ point: PricePoint) {
        kind = point.kind
        group = point.group
    }

    /// The order of `rm_price_groups`' key: kind and name by their bytes.
    static func inKeyOrder(_ a: PriceGroup, _ b: PriceGroup) -> Bool {
        if a.kind != b.kind { return a.kind.utf8.lexicographicallyPrecedes(b.kind.utf8) }
        return a.group.text.utf8.lexicographicallyPrecedes(b.group.text.utf8)
    }
}
