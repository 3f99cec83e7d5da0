/// What the log says of one product (GTIO 4.1–4.6, 7.8): who hearts it and lists it now, how
/// often it was suggested and where, and the posts that show it.
public struct ProductTally: Sendable, Equatable {
    /// Users whose heart on it is set now, and who have it on their shopping list now.
    public var hearts = 0
    public var lists = 0
    /// Every `product.suggested` naming it, repeats included, and those by channel.
    public var suggestions = 0
    public var channels: [String: Int] = [:]
    /// The slots of the posts created with it, in creation (seq) order, whatever their life now.
    public var postSlots: [Int] = []

    public init() {}
}
