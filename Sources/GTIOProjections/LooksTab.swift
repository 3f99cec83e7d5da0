/// The four tabs of Popular looks (9.1).
public enum LooksTab: String, Sendable, CaseIterable {
    case popular, new, top
    case wearIt = "wear-it"
}

/// One ranked look.
public struct Look: Sendable, Equatable {
    public var rank: Int
    public var post: String
    public var author: String
    public var points: Int
    public var hearts: Int
    public var votes: Int
    public var reviews: Int
    public var score: Double
    public var created: Int64
}
