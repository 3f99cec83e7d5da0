/// What a run of applied events touched, so that only those rows of the read-model tables
/// are rewritten. Marks err on the side of too many: a row rewritten unchanged is harmless.
public struct ChangeSet: Sendable {
    public var users: Set<String> = []
    public var follows: Set<CommunityState.BlockPair> = []
    public var blocks: Set<CommunityState.BlockPair> = []
    public var posts: Set<String> = []
    /// Posts created in this run: their brands are written once.
    public var newPosts: Set<String> = []
    public var products: Set<String> = []
    public var flaggers: Set<String> = []
    /// (post, user) pairs.
    public var hearts: Set<CommunityState.BlockPair> = []
    public var reviews: Set<String> = []
    public var items: Set<String> = []
    /// Devices whose onboarding (first open, or a step of a user who signed up on it) moved.
    public var devices: Set<String> = []
    /// Decisions from this index on are new.
    public var firstNewDecision: Int
    /// The earliest UTC day whose figures changed (activity moves WAU and MAU of later days too).
    public var earliestDay: Int64?
    public var anomalies = false

    public init(decisions: Int) {
        firstNewDecision = decisions
    }

    mutating func touch(day: Int64) {
        if earliestDay.map({ day < $0 }) ?? true { earliestDay = day }
    }
}
