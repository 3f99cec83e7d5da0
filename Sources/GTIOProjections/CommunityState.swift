import GTIOCatalog
import GTIOStore

/// Everything the read models know, folded from the log in `seq` order by the rules of
/// EVENTS.md §3. A pure function of the events applied: the same events give the same state.
public struct CommunityState: Sendable {
    public enum EdgeState: Sendable, Equatable { case following, requested }
    public enum Life: Sendable, Equatable { case live, deleted, removed }

    public struct Post: Sendable {
        public var id: String
        public var author: String
        public var kind: String
        public var voting: Bool
        public var created: Int64
        public var createdSeq: Int64
        public var life = Life.live
        public var description: String?
        /// The product it shows (by id), its price, place and brands, as created.
        public var product: String?
        public var price: Double?
        public var place: PostPlace?
        public var brands: [String] = []
        /// Who hearts it by user key, with the seq of the heart that counts (for "newest
        /// first"); by id through `CommunityState.hearts(of:)`. Keyed by integer, as hearts are
        /// the most common action and a string-keyed table hashes the id each time.
        var hearters: [IDKey: Int64] = [:]
        public var wearIt = 0
        public var changeIt = 0
        /// Who voted, by user key: only their first vote counts.
        var voters: Set<IDKey> = []
        /// Its reviews, in the order they were added.
        public var reviews: [String] = []
        public var liveReviews = 0
        public var shares = 0

        /// Users who heart it now.
        public var heartCount: Int { hearters.count }

        /// Popular looks' points: hearts + counted votes + 2 × live reviews.
        public var points: Int { heartCount + wearIt + changeIt + 2 * liveReviews }
    }

    public struct Review: Sendable {
        public var id: String
        public var post: String
        public var author: String
        public var text: String
        public var at: Int64
        /// The seq of its `review.added`: a post's reviews are listed in that order.
        public var seq: Int64
        public var removed = false
        public var agreers = IDSet()
        /// Its post's slot in `posts`.
        var postSlot = 0
    }

    /// A user's first open flag on an item: kept when they flag again.
    public struct FlagMark: Sendable, Equatable {
        public var at: Int64
        public var seq: Int64
        public var reason: String?
    }

    public struct FlagItem: Sendable {
        public var item: String
        /// The slot of the post it is, nil for a review: the rules that hide or remove the post
        /// find it by slot, as a fold in progress cannot look ids up (`post(id:)`). Not saved:
        /// a state read back finds it by the post's key.
        var postSlot: Int?
        public var open: IDMap<FlagMark> = [:]
        /// The seq of the latest flag that opened or joined the current round (the queue's version).
        public var lastFlagSeq: Int64 = 0
        public var lastFlagAt: Int64 = 0
        /// Every flag ever applied, closed rounds included, for the item's history; `counted`
        /// when it opened or joined a round (a user's repeated flag does not).
        public var history: [(user: String, mark: FlagMark, counted: Bool)] = []

        /// Adds `user`'s flag to the history and, unless their flag is open already, to the open
        /// round; the number of open flags before it, nil for a repeated flag.
        mutating func add(_ mark: FlagMark, by user: String) -> Int? {
            let counted = open[user] == nil
            history.append((user, mark, counted))
            guard counted else { return nil }
            open[user] = mark
            lastFlagSeq = mark.seq
            lastFlagAt = mark.at
            return open.count - 1
        }
    }

    public struct Decision: Sendable, Equatable {
        public var seq: Int64
        public var at: Int64
        public var item: String
        public var action: String
        public var moderator: String
        public var note: String?
        public var flaggers: Int
        /// When the round it closed was first flagged.
        public var firstFlagged: Int64
    }

    public struct Signup: Sendable, Equatable {
        public var at: Int64
        public var provider: String
        public var device: String?
    }

    // MARK: Position

    /// The last seq applied, 0 for none.
    public internal(set) var lastSeq: Int64 = 0
    /// The largest `at` applied: "now" of the default view.
    public internal(set) var newestAt: Int64?
    public internal(set) var eventCount = 0

    // MARK: People

    /// Dense keys of the users seen: `known`, the follow graph, active days, hearters and voters
    /// are indexed by them.
    public internal(set) var userKeys = KeyTable()
    /// Dense keys of the devices seen: `deviceActivity` and `firstOpen` are indexed by them.
    public internal(set) var deviceKeys = KeyTable()
    /// Dense keys of every other id seen (posts, reviews, products, moderation items).
    public internal(set) var keys = KeyTable()
    /// Whether each user key is a user known to the console (an actor, or another user's target).
    var known: [Bool] = []
    /// Each user key's first sign-up (`FirstSignUp.none` for none): looked up by key, as
    /// retention does at every new active day.
    var firstSignUps: [FirstSignUp] = []
    /// The user key of the latest user whose first sign-up came from each device, by device key
    /// (0 for none); each one's `FirstSignUp.previousOnDevice` leads to the one before.
    var lastSignUpOnDevice: [Int32] = []
    /// Each user key's display name as last given (by a sign-up or a profile), nil for none.
    var names: [String?] = []

    // MARK: Follow graph

    /// Edges, blocks and private accounts by user key; asked by id through `edge(from:to:)` and kin.
    public internal(set) var follows = FollowGraph()

    // MARK: Posts, reviews, moderation

    public internal(set) var posts = PostDirectory()
    /// Each author's latest post as its slot + 1, by user key (0 for none); `earlierPostOfAuthor`
    /// leads from each post to the one its author created before it.
    var latestPostOfAuthor: [Int32] = []
    /// By post slot: the slot + 1 of the post its author created before it (0 for none).
    var earlierPostOfAuthor: [Int32] = []
    public internal(set) var reviews: IDMap<Review> = [:]
    public internal(set) var items: IDMap<FlagItem> = [:]
    public internal(set) var decisions: [Decision] = []
    /// The queue's and the decisions' totals, kept as flags and decisions come.
    var desk = DeskTotals()
    /// (user, product) pairs, as `KeyPair`s.
    public internal(set) var productHearts: Set<KeyPair> = []
    public internal(set) var shoppingList: Set<KeyPair> = []
    /// Every product named so far, by id key: its hearts, lists, suggestions and posts.
    public internal(set) var products: [Int: ProductTally] = [:]
    /// How many products each user hearts now, and how many are on their shopping list, by user key.
    public internal(set) var productsHearted: [Int: Int] = [:]
    public internal(set) var listSizes: [Int: Int] = [:]
    /// Each user who flagged anything: the items flagged, and those a decision upheld or dismissed.
    public internal(set) var flaggers: IDMap<FlaggerRecord> = [:]
    /// How many live product posts have each price, by group of `prices`: a group's figures
    /// read its own prices only.
    var priceGroups: [PriceGroup: [Double: Int]] = [:]
    /// The looks at each place that Popular looks may rank, as of the last `settlePlaces`
    /// (CommunityState+Places.swift); not in the saved state: counted from the posts as it is
    /// read back.
    public internal(set) var placeTallies: [ExactText: PlaceTally] = [:]
    /// Each counted post's part in its place's tally, by slot.
    var placeShares: [Int: PlaceShare] = [:]
    /// The posts with a place whose part may have changed since the last `settlePlaces`.
    var placesUnsettled: Set<Int> = []

    // MARK: Engagement

    /// Distinct active users and devices of each day.
    public internal(set) var dauByDay: [Int64: Int] = [:]
    public internal(set) var devicesByDay: [Int64: Int] = [:]
    /// The days each user was active, by key: DAU, WAU and MAU without a set per day.
    var userActivity = ActivityCalendar()
    /// Each day's WAU and MAU, moved by each user's new active days.
    var activeWindows = ActiveWindows()
    /// The days each device was active, by key.
    var deviceActivity = ActivityCalendar()
    public internal(set) var signupsByDay: [Int64: [String: Int]] = [:]
    /// Events applied on each day (one count: no figure splits it by type).
    public internal(set) var eventsByDay: [Int64: Int] = [:]
    public internal(set) var actionsByDay: [Int64: [Action: Int]] = [:]
    public internal(set) var anomalies: [AnomalyKey: Int] = [:]
    public internal(set) var anomaliesByDay: [Int64: [AnomalyKey: Int]] = [:]

    // MARK: Onboarding and quick-add (kept for the funnel and acceptance, computed on demand)

    /// Each device's earliest `app.opened` (by `at`) by device key; `Int64.max` when none.
    var firstOpen: [Int64] = []
    /// Each opened device's onboarding step by device key, as it stands in `onboardingByDay`.
    var onboardingSteps: [Int8] = []
    /// Each user's `user.profile_completed` times.
    var profileCompletions = TimesByUser()
    /// Each user's `user.followed` times with `via: quickadd` (applied or not).
    var quickAddFollows = TimesByUser()
    /// Each (viewer, suggested user) pair shown by `quickadd.shown`: the day it was first shown,
    /// and whether a follow with `via: quickadd` accepted it since.
    var quickAddPairs = PairTable<QuickAddShowing>()
    /// Pairs first shown on a day, and how many of those were accepted (by the day shown).
    public internal(set) var quickAddShownByDay: [Int64: Int] = [:]
    public internal(set) var quickAddAcceptedByDay: [Int64: Int] = [:]
    /// The opened devices by the day of their first open, counted at the steps they reached.
    public internal(set) var onboardingByDay: [Int64: OnboardingDay] = [:]
    /// The signed-up users by the day of their first sign-up, and those retained.
    public internal(set) var cohortsByDay: [Int64: CohortDay] = [:]

    /// The events and actions counted for the day being applied, not yet in `eventsByDay` and
    /// `actionsByDay`: settled whenever `apply` returns.
    private var tally = DayTally()

    /// When set, every mutation records what it touched (for incremental table writes).
    public var changes: ChangeSet?

    /// The first to the last UTC day with events applied, nil before any.
    public var dayRange: ClosedRange<Int64>? {
        guard let first = eventsByDay.keys.min(), let last = eventsByDay.keys.max() else { return nil }
        return first...last
    }

    public init() {}

    /// An ordered pair of ids, told apart by their bytes (see `IDMap`): a block, a product heart,
    /// a shopping-list entry.
    public struct BlockPair: Hashable, Sendable {
        public var first: String
        public var second: String
        public init(_ first: String, _ second: String) {
            self.first = first
            self.second = second
        }

        public static func == (a: BlockPair, b: BlockPair) -> Bool {
            ExactText(a.first) == ExactText(b.first) && ExactText(a.second) == ExactText(b.second)
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(ExactText(first))
            hasher.combine(ExactText(second))
        }
    }

    /// An ordered pair of id keys in one integer: one cheap hash where a pair of strings takes two.
    public struct KeyPair: Hashable, Sendable {
        let packed: Int
        init(_ first: Int, _ second: Int) {
            packed = first << 32 | second
        }
        init(packed: Int) {
            self.packed = packed
        }
        var first: Int { packed >> 32 }
        var second: Int { packed & 0xFFFF_FFFF }

        /// The pair mixed with the table's seed by two multiply-xorshift rounds, in place of the
        /// standard library's SipHash over one integer: a saved state of millions of pairs is put
        /// back into its sets at load, and SipHash's setup took most of that (docs/PERFORMANCE.md).
        /// Still seeded per table, so that nobody can lay out pairs that collide.
        public func _rawHashValue(seed: Int) -> Int {
            Self.mix(UInt64(UInt(bitPattern: packed)), seed: seed)
        }

        /// `bits` and a table's `seed` mixed by two multiply-xorshift rounds: the hash of a pair,
        /// and of an `IDKey`.
        static func mix(_ bits: UInt64, seed: Int) -> Int {
            var mixed = bits ^ UInt64(UInt(bitPattern: seed))
            mixed = (mixed ^ (mixed >> 32)) &* 0xD6E8_FEB8_6659_FD93
            mixed = (mixed ^ (mixed >> 32)) &* 0xD6E8_FEB8_6659_FD93
            return Int(truncatingIfNeeded: mixed ^ (mixed >> 32))
        }
    }

    public struct AnomalyKey: Hashable, Sendable {
        public var type: EventType
        public var anomaly: Anomaly
    }

    /// The applied actions that engagement counts per day (EVENTS.md, Engagement).
    public enum Action: String, Sendable, CaseIterable {
        case posts, hearts, votes, reviews, flags, shares, invites, suggestions

        /// By case, not by name (see `EventType.hash(into:)`).
        public func hash(into hasher: inout Hasher) {
            hasher.combine(index)
        }

        /// The case's place in `allCases`.
        var index: Int { Int(unsafeBitCast(self, to: UInt8.self)) }
    }

    // MARK: Applying

    /// Applies one record built in memory, keying its ids first.
    public mutating func apply(_ record: LogRecord) {
        apply(keys.keyed(record, users: &userKeys, devices: &deviceKeys))
    }

    /// Applies records in order, as `apply(_:)` one by one would, keying each as it comes.
    public mutating func apply(_ records: ArraySlice<LogRecord>) {
        for record in records { applyOne(keys.keyed(record, users: &userKeys, devices: &deviceKeys)) }
        settleTally()
    }

    /// Applies one event whose ids this state's key table keyed; events must come in increasing `seq`.
    public mutating func apply(_ event: KeyedEvent) {
        applyOne(event)
        settleTally()
    }

    /// Applies events in order, as `apply(_:)` one by one would.
    public mutating func apply(_ events: [KeyedEvent]) {
        // Through the buffer: a for-in, or the array's subscript, copies each event out (a
        // retain and a release per string).
        events.withUnsafeBufferPointer { events in
            for index in events.indices { applyOne(events[index]) }
        }
        settleTally()
    }

    /// Adds the day's tally to the per-day tables; every `apply` ends with it.
    private mutating func settleTally() {
        guard tally.events > 0 else { return }
        eventsByDay[tally.day, default: 0] += tally.events
        if tally.users > 0 { dauByDay[tally.day, default: 0] += tally.users }
        if tally.devices > 0 { devicesByDay[tally.day, default: 0] += tally.devices }
        tally.users = 0
        tally.devices = 0
        for action in Action.allCases where tally.actions[action.index] > 0 {
            actionsByDay[tally.day, default: [:]][action, default: 0] += tally.actions[action.index]
            tally.actions[action.index] = 0
        }
        tally.events = 0
    }

    private mutating func applyOne(_ event: KeyedEvent) {
        makeRoom(for: event)
        lastSeq = event.seq
        eventCount += 1
        let day = Timestamp(milliseconds: event.at).day
        changes?.touch(day: day)
        if newestAt.map({ event.at > $0 }) ?? true { newestAt = event.at }
        if day != tally.day {
            settleTally()
            tally.day = day
        }
        tally.events += 1
        if event.user != 0, userActivity.mark(event.user, on: day) {
            tally.users += 1
            let nearest = userActivity.nearestDays(of: event.user, around: day, within: ActiveWindows.month - 1)
            if let moved = activeWindows.add(day: day, before: nearest.before, after: nearest.after) {
                changes?.touch(windowDays: moved)
            }
            noteKnown(event.user)
            noteActiveDay(event.user, day)
        }
        if event.device != 0, deviceActivity.mark(event.device, on: day) { tally.devices += 1 }

        switch event.type {
        case .userSignedUp: applySignUp(event, day: day)
        case .userProfileUpdated:
            if event.user != 0, let name = event.profile.name { setName(name, ofUser: event.user) }
        case .userPrivacyChanged: applyPrivacy(event)
        case .userFollowed:
            applyFollow(event)
            if event.follow.via == "quickadd" { noteQuickAddFollow(event) }
        case .appOpened: noteOpened(event)
        case .userProfileCompleted: noteProfileCompleted(event)
        case .quickaddShown: noteQuickAddShown(event, day: day)
        case .userUnfollowed: applyUnfollow(event)
        case .followApproved, .followDeclined: applyAnswer(event)
        case .userBlocked: applyBlock(event)
        case .userUnblocked: applyUnblock(event)
        case .postCreated: applyPostCreated(event, day: day)
        case .postDeleted: applyPostDeleted(event)
        case .postHearted: applyHeart(event, day: day)
        case .postUnhearted: applyUnheart(event)
        case .postVoted: applyVote(event, day: day)
        case .postFlagged: applyPostFlag(event, day: day)
        case .postShared: applyShare(event, day: day)
        case .reviewAdded: applyReviewAdded(event, day: day)
        case .reviewAgreed: applyAgree(event)
        case .reviewFlagged: applyReviewFlag(event, day: day)
        case .reviewRemoved: applyReviewRemoved(event)
        case .moderationResolved: applyResolution(event)
        case .productHearted: applyProductMark(event, list: false, add: true)
        case .productUnhearted: applyProductMark(event, list: false, add: false)
        case .shoppingListAdded: applyProductMark(event, list: true, add: true)
        case .shoppingListRemoved: applyProductMark(event, list: true, add: false)
        case .inviteSent: count(.invites, day)
        case .productSuggested: applySuggestion(event, day: day)
        default: break  // tracking, sessions and the rest only count as activity
        }
        if event.type.targetsUser, event.subject != 0 { noteKnown(event.subject) }
    }

    /// The user with id key `key` is known to the console from now on.
    private mutating func noteKnown(_ key: Int) {
        guard !known[key] else { return }
        known[key] = true
        changes?.users.insert(userKeys[key])
    }

    /// Grows the user-indexed arrays to hold every user key of `event`.
    private mutating func makeRoom(for event: KeyedEvent) {
        var top = event.type.targetsUser ? max(event.user, event.subject) : event.user
        if !event.list.isEmpty, let listTop = event.list.max() { top = max(top, listTop) }
        guard top >= known.count else { return }
        // Keys come in increasing order, so doubling keeps growth amortized.
        let count = max(top + 1, known.count * 2)
        known.pad(to: count, with: false)
        firstSignUps.pad(to: count, with: .none)
        names.pad(to: count, with: nil)
        latestPostOfAuthor.pad(to: count, with: 0)
        follows.makeRoom(count)
    }

    mutating func ignore(_ event: KeyedEvent, _ anomaly: Anomaly) {
        changes?.anomalies = true
        let key = AnomalyKey(type: event.type, anomaly: anomaly)
        anomalies[key, default: 0] += 1
        anomaliesByDay[Timestamp(milliseconds: event.at).day, default: [:]][key, default: 0] += 1
    }

    /// Counts an applied action of the event being applied, on its `day`.
    mutating func count(_ action: Action, _ day: Int64) {
        if day == tally.day {
            tally.actions[action.index] += 1
        } else {
            actionsByDay[day, default: [:]][action, default: 0] += 1
        }
    }

    private mutating func applySignUp(_ event: KeyedEvent, day: Int64) {
        guard let user = userKeys.id(event.user) else { return }
        changes?.users.insert(user)
        let profile = event.profile
        if let name = profile.name { setName(name, ofUser: event.user) }
        // A second sign-up updates the name but is not a second sign-up.
        guard firstSignUps[event.user].isNone, let provider = profile.provider,
              let providerIndex = EventType.providers.firstIndex(of: provider) else { return }
        var signUp = FirstSignUp(at: event.at, device: Int32(event.device), previousOnDevice: 0, provider: UInt8(providerIndex))
        if event.device != 0 {
            lastSignUpOnDevice.makeRoom(for: event.device, filling: 0)
            signUp.previousOnDevice = lastSignUpOnDevice[event.device]
            lastSignUpOnDevice[event.device] = Int32(event.user)
        }
        firstSignUps[event.user] = signUp
        if event.device != 0 {
            changes?.devices.insert(deviceKeys[event.device])
            noteStep(ofDevice: event.device, at: event.at)
        }
        signupsByDay[day, default: [:]][provider, default: 0] += 1
        noteCohortMember(event.user, signedUpOn: day)
    }
}
