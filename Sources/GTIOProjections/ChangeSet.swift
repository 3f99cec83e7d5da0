import GTIOCatalog

/// What a run of applied events touched, so that only those rows of the read-model tables
/// are rewritten. Marks err on the side of too many: a row rewritten unchanged is harmless.
public struct ChangeSet: Sendable {
    public var users = IDSet()
    /// Users whose cohort row moved though their `rm_users` row did not: a new active day that
    /// retention counts (the cohort rows of `users` are rewritten too).
    public var cohorts = IDSet()
    public var follows: Set<CommunityState.BlockPair> = []
    public var blocks: Set<CommunityState.BlockPair> = []
    public var posts = IDSet()
    /// Posts created in this run: their brands are written once.
    public var newPosts = IDSet()
    public var products = IDSet()
    /// The prices whose count of live product posts in a group changed.
    public var pricePoints: Set<PricePoint> = []
    /// Places whose tally moved (`rm_places`).
    public var places: Set<ExactText> = []
    public var flaggers = IDSet()
    /// (post, user) pairs.
    public var hearts: Set<CommunityState.BlockPair> = []
    public var reviews = IDSet()
    public var items = IDSet()
    /// The flags of `items` whose `rm_flag_marks` row is new or changed (a flag, or one a
    /// decision or a deletion closed): an item's history only grows, so its other rows stand.
    public var flagMarks: Set<FlagMarkKey> = []
    /// Devices whose onboarding (first open, or a step of a user who signed up on it) moved.
    public var devices = IDSet()
    /// The days whose funnel sums (devices first opened that day, by step) changed.
    public var onboardingDays: Set<Int64> = []
    /// The sign-up days whose cohort (its users, those retained) changed.
    public var cohortDays: Set<Int64> = []
    /// Decisions from this index on are new.
    public var firstNewDecision: Int
    /// The UTC days whose own figures changed (events, sign-ups, actions, anomalies, quick-add).
    public private(set) var days: Set<Int64> = []
    /// The days whose WAU or MAU changed (`ActiveWindows`), as ranges.
    public private(set) var windowDays: [ClosedRange<Int64>] = []
    /// The day touched last: most events fall on the same day as the one before.
    private var lastDay: Int64?
    /// The days the tables had rows for when these changes began.
    public let daysBefore: ClosedRange<Int64>?
    public var anomalies = false

    public init(decisions: Int, daysBefore: ClosedRange<Int64>?) {
        firstNewDecision = decisions
        self.daysBefore = daysBefore
    }

    mutating func touch(day: Int64) {
        guard day != lastDay else { return }
        lastDay = day
        days.insert(day)
    }

    mutating func touch(windowDays moved: ClosedRange<Int64>) {
        // A user's next new day mostly moves the same windows as the last one did, or a few more.
        if let last = windowDays.last, moved.lowerBound >= last.lowerBound, moved.lowerBound <= last.upperBound + 1 {
            windowDays[windowDays.count - 1] = last.lowerBound...max(last.upperBound, moved.upperBound)
        } else {
            windowDays.append(moved)
        }
    }

    /// The days whose `rm_days` rows must be rewritten now that the log spans `range`,
    /// ascending: each day whose own figures or whose WAU or MAU changed, and the days after
    /// the log's former last one that its users' months still reach (they move from
    /// `rm_days_after` into the span). A day the span gained without either has no row.
    public func dayRows(within range: ClosedRange<Int64>) -> [Int64] {
        var rows = days.filter(range.contains)
        for moved in windowDays where moved.overlaps(range) { rows.formUnion(moved.clamped(to: range)) }
        if let before = daysBefore, range.upperBound > before.upperBound {
            rows.formUnion(before.upperBound + 1...min(range.upperBound, before.upperBound + ActiveWindows.month - 1))
        }
        return rows.sorted()
    }
}

/// One flag of an item, as `rm_flag_marks` keys it: the item and the seq of the flag.
public struct FlagMarkKey: Hashable, Sendable {
    public var item: ExactText
    public var seq: Int64

    public init(_ item: String, seq: Int64) {
        self.item = ExactText(item)
        self.seq = seq
    }
}
