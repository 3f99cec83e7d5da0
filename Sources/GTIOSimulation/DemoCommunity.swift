import GTIOCatalog

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A simulated GTIO community that writes a deterministic JSON Lines event log: the same
/// seed and size give the same bytes. Streams, so 10 million events need no more memory
/// than the community's own state.
public struct DemoCommunity: Sendable {
    public var seed: UInt64
    public var eventCount: Int
    /// When the simulated log begins (GTIO 4.0's launch week by default).
    public var start: Timestamp

    public init(seed: UInt64 = 42, eventCount: Int, start: Timestamp = Timestamp(rfc3339: "2012-04-23T00:00:00Z")!) {
        self.seed = seed
        self.eventCount = eventCount
        self.start = start
    }

    /// Generates the log, handing `sink` about a mebibyte of lines at a time.
    public func write(to sink: ([UInt8]) throws -> Void) throws {
        var state = DemoState(seed: seed, eventCount: eventCount, start: start)
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 20 + 4096)
        while state.emitted < eventCount {
            state.step { line in buffer.append(contentsOf: line) }
            if buffer.count >= 1 << 20 {
                try sink(buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        if !buffer.isEmpty { try sink(buffer) }
    }
}

/// The community's evolving state; `step` performs one action and emits its events.
struct DemoState {
    struct Member {
        var id: String
        var device: String
        var isPrivate = false
        /// How active (0…1]; picks are weighted by it, giving a heavy tail.
        var activity: Double
    }

    struct Post {
        var id: String
        var author: Int
        var deleted = false
        /// How much attention it draws (0…1]; most posts get little, a few get most hearts.
        var appeal: Double
        var reviews: [String] = []
    }

    var random: SeededGenerator
    let eventCount: Int
    var emitted = 0
    var clock: Int64
    let meanStep: Double
    var members: [Member] = []
    var posts: [Post] = []
    var recentHearts: [(member: Int, post: Int)] = []
    var recentVotes: [(member: Int, post: Int)] = []
    var recentReviews: [(author: Int, review: String)] = []
    var flaggedItems: [String] = []
    /// Posts that draw flags from many people (and so get hidden until a moderator decides).
    var troubledPosts: [Int] = []
    var pendingRequests: [(follower: Int, owner: Int)] = []
    var follows: [(follower: Int, target: Int)] = []
    var recentLines: [[UInt8]] = []
    let moderators = 3

    init(seed: UInt64, eventCount: Int, start: Timestamp) {
        random = SeededGenerator(seed: seed)
        self.eventCount = eventCount
        clock = start.milliseconds
        // Spread the log over 3 to 90 days whatever its size, as a real one would be.
        let days = min(90.0, max(3.0, Double(eventCount) / 15_000))
        meanStep = days * 86_400_000 / Double(max(eventCount, 1))
    }

    // MARK: Emitting

    mutating func nextID(_ prefix: String) -> String { prefix + random.hex(12) }

    /// The `at` of the next event: mostly `Z` with milliseconds, sometimes an offset, no
    /// fraction, or six digits; now and then a late event stamped minutes earlier.
    mutating func at() -> String {
        var moment = clock
        if random.chance(0.01) { moment -= Int64(random.below(3_600_000)) }
        let utc = Timestamp(milliseconds: moment).description
        switch random.below(100) {
        case 0..<84: return utc
        case 84..<89: return String(utc.prefix(19)) + "Z"
        case 89..<92: return String(utc.prefix(23)) + "000Z"
        default:
            let offsets = [120, -300, 600, -360, 0, 330]
            let minutes = offsets[random.below(offsets.count)]
            let local = Timestamp(milliseconds: moment + Int64(minutes) * 60_000).description
            let sign = minutes < 0 ? "-" : "+"
            let magnitude = abs(minutes)
            let zone = sign + two(magnitude / 60) + ":" + two(magnitude % 60)
            return String(local.prefix(23)) + zone
        }
    }

    private func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    mutating func tick(_ scale: Double = 1) {
        let gap = -log(max(random.unit(), 1e-12)) * meanStep * scale
        clock += Int64(gap)
    }

    /// Starts the next event's line; fill its `data` fields, then hand it to `finish`.
    mutating func begin(_ type: EventType, user: Int?, device: String? = nil) -> EventLineWriter {
        EventLineWriter(id: nextID("e"), type: type, at: at(), user: user.map { members[$0].id }, device: device)
    }

    mutating func finish(_ writer: EventLineWriter, _ sink: ([UInt8]) -> Void) {
        guard emitted < eventCount else { return }
        var writer = writer
        let line = writer.finish()
        sink(line)
        emitted += 1
        if recentLines.count < 256 { recentLines.append(line) } else { recentLines[random.below(256)] = line }
    }

    // MARK: Picking

    mutating func activeMember() -> Int {
        for _ in 0..<16 {
            let index = random.below(members.count)
            if random.unit() < members[index].activity { return index }
        }
        return random.below(members.count)
    }

    mutating func popularMember() -> Int { random.skewed(members.count, exponent: 3) }

    mutating func livePost() -> Int? {
        guard !posts.isEmpty else { return nil }
        for _ in 0..<24 {
            // Recent posts draw most attention; appeal decides which of them.
            let window = min(posts.count, 400)
            let index = random.chance(0.7) ? posts.count - 1 - random.below(window) : random.below(posts.count)
            if !posts[index].deleted && random.unit() < posts[index].appeal { return index }
        }
        return nil
    }

    // MARK: Acting

    mutating func step(_ sink: ([UInt8]) -> Void) {
        tick()
        if members.count < 12 {
            newcomer(sink)
            return
        }
        let roll = random.below(1000)
        switch roll {
        case 0..<40: newcomer(sink)
        case 40..<120: returningSession(sink)
        case 120..<220:
            let member = activeMember()
            do { var w = begin(.track, user: member, device: members[member].device); w.field("name", DemoNames.trackNames[random.below(DemoNames.trackNames.count)])
                w.field("screen", DemoNames.screens[random.below(DemoNames.screens.count)]); finish(w, sink) }
        case 220..<240: let m = activeMember(); do { var w = begin(.userSignedIn, user: m); w.field("provider", provider()); finish(w, sink) }
        case 240..<250: do { let w = begin(.userSignedOut, user: activeMember()); finish(w, sink) }
        case 250..<295: createPost(sink)
        case 295..<495: heart(sink)
        case 495..<515: unheart(sink)
        case 515..<625: vote(sink)
        case 625..<665: review(sink)
        case 665..<685: agree(sink)
        case 685..<695: flag(sink)
        case 695..<700: removeReview(sink)
        case 700..<710:
            if let post = livePost() {
                do { var w = begin(.postShared, user: activeMember()); w.field("post", posts[post].id); w.field("channel", random.chance(0.5) ? "twitter" : "facebook"); finish(w, sink) }
            }
        case 710..<770: follow(sink, via: ["profile", "search", "hearts", "feed", "suggested"][random.below(5)])
        case 770..<780: answerRequest(sink)
        case 780..<785: unfollow(sink)
        case 785..<788: block(sink)
        case 788..<791: changePrivacy(sink)
        case 791..<796:
            let m = activeMember()
            do { var w = begin(.userProfileUpdated, user: m); if random.chance(0.4) { w.field("name", name()) }
                if random.chance(0.5) { w.field("location", DemoNames.places[random.below(DemoNames.places.count)]) }
                if random.chance(0.3) { w.field("bio", "Fashion is my thing") }; finish(w, sink) }
        case 796..<880: shop(sink)
        case 880..<900:
            do { var w = begin(.notificationSeen, user: activeMember()); w.field("notification", nextID("n")); finish(w, sink) }
        case 900..<905:
            do { var w = begin(.inviteSent, user: activeMember()); w.field("channel", ["sms", "email", "facebook"][random.below(3)]); finish(w, sink) }
        case 905..<908: deletePost(sink)
        case 908..<911: moderate(sink)
        case 911..<916: oddEvent(sink)
        case 916..<920:
            // A producer re-sending a line it already sent: a duplicate at ingest, not a new event.
            if !recentLines.isEmpty, emitted < eventCount {
                sink(recentLines[random.below(recentLines.count)])
                emitted += 1
            }
        default: returningSession(sink)
        }
    }

    mutating func provider() -> String {
        let roll = random.below(100)
        return roll < 45 ? "facebook" : roll < 65 ? "google" : roll < 80 ? "twitter" : roll < 92 ? "yahoo" : "aol"
    }

    mutating func name() -> String {
        DemoNames.first[random.below(DemoNames.first.count)] + " " + DemoNames.last[random.below(DemoNames.last.count)]
    }

    mutating func newcomer(_ sink: ([UInt8]) -> Void) {
        let device = "dev-" + random.hex(12)
        do { var w = begin(.appOpened, user: nil, device: device); w.field("first_launch", true); finish(w, sink) }
        tick(0.01)
        do { var w = begin(.track, user: nil, device: device); w.field("name", "Splash"); w.field("screen", "1.1"); finish(w, sink) }
        tick(0.01)
        guard members.count < 12 || random.chance(0.85) else {
            do { var w = begin(.userSignInFailed, user: nil, device: device); w.field("provider", provider()); w.field("reason", random.chance(0.5) ? "denied" : "cancelled"); finish(w, sink) }
            return
        }
        let isModerator = members.count < moderators
        let member = Member(
            id: isModerator ? "mod-\(members.count + 1)" : "u" + random.hex(8), device: device,
            activity: isModerator ? 0.05 : pow(random.unit(), 2.5) + 0.01)
        members.append(member)
        let index = members.count - 1
        do { var w = begin(.userSignedUp, user: index, device: device); w.field("provider", provider()); w.field("name", name()); finish(w, sink) }
        tick(0.02)
        if random.chance(0.75) { do { let w = begin(.userProfileCompleted, user: index); finish(w, sink) } }
        if random.chance(0.08) { setPrivate(index, true, sink) }
        guard members.count > 8 else { return }
        let shown = (0..<5).map { _ in popularMember() }.filter { $0 != index }
        let unique = shown.reduce(into: [Int]()) { if !$0.contains($1) { $0.append($1) } }
        do { var w = begin(.quickaddShown, user: index); w.field("suggested", unique.map { members[$0].id }); finish(w, sink) }
        tick(0.02)
        if random.chance(0.6) {
            for target in unique.prefix(1 + random.below(3)) { followEdge(index, target, via: "quickadd", sink) }
        } else {
            do { let w = begin(.quickaddSkipped, user: index); finish(w, sink) }
        }
    }

    mutating func returningSession(_ sink: ([UInt8]) -> Void) {
        let member = activeMember()
        let device = members[member].device
        do { var w = begin(.appOpened, user: member, device: device); w.field("first_launch", false)
            if random.chance(0.05) { w.field("upgraded_from", "3.2") }; finish(w, sink) }
        for _ in 0..<random.below(3) {
            tick(0.05)
            do { var w = begin(.track, user: member, device: device); w.field("name", DemoNames.trackNames[random.below(DemoNames.trackNames.count)])
                w.field("screen", DemoNames.screens[random.below(DemoNames.screens.count)]); finish(w, sink) }
        }
    }

    mutating func setPrivate(_ member: Int, _ isPrivate: Bool, _ sink: ([UInt8]) -> Void) {
        members[member].isPrivate = isPrivate
        do { var w = begin(.userPrivacyChanged, user: member); w.field("private", isPrivate); finish(w, sink) }
    }

    mutating func changePrivacy(_ sink: ([UInt8]) -> Void) {
        let member = activeMember()
        setPrivate(member, !members[member].isPrivate, sink)
    }

    mutating func createPost(_ sink: ([UInt8]) -> Void) {
        let author = activeMember()
        let post = Post(id: nextID("p"), author: author, appeal: pow(random.unit(), 3) + 0.005)
        posts.append(post)
        if random.chance(0.04) { troubledPosts.append(posts.count - 1) }
        let isProduct = random.chance(0.2)
        do { var w = begin(.postCreated, user: author); w.field("post", post.id)
            w.field("kind", isProduct ? "product" : "outfit")
            w.field("voting", !random.chance(0.1))
            if random.chance(0.8) { w.field("description", DemoNames.descriptions[random.below(DemoNames.descriptions.count)]) }
            if random.chance(0.5) { w.field("brands", [DemoNames.brands[random.below(DemoNames.brands.count)]]) }
            w.field("frames", random.chance(0.7) ? 1 : 3)
            if isProduct {
                w.field("product", "prd" + random.hex(6))
                w.field("price", number: Double(random.below(20_000)) / 100)
            }
            if random.chance(0.2) {
                let place = random.below(DemoNames.places.count)
                let (lat, lon) = DemoNames.placeCoordinates[place]
                w.location(DemoNames.places[place], lat: lat, lon: lon)
            }; finish(w, sink) }
    }

    mutating func heart(_ sink: ([UInt8]) -> Void) {
        guard let post = livePost() else { return }
        let member = activeMember()
        do { var w = begin(.postHearted, user: member); w.field("post", posts[post].id); finish(w, sink) }
        if recentHearts.count < 512 { recentHearts.append((member, post)) } else { recentHearts[random.below(512)] = (member, post) }
    }

    mutating func unheart(_ sink: ([UInt8]) -> Void) {
        guard !recentHearts.isEmpty else { return }
        let (member, post) = recentHearts[random.below(recentHearts.count)]
        do { var w = begin(.postUnhearted, user: member); w.field("post", posts[post].id); finish(w, sink) }
    }

    mutating func vote(_ sink: ([UInt8]) -> Void) {
        let (member, post): (Int, Int)
        if random.chance(0.05), !recentVotes.isEmpty {
            (member, post) = recentVotes[random.below(recentVotes.count)]  // a second vote: ignored by the rules
        } else {
            guard let chosen = livePost() else { return }
            (member, post) = (activeMember(), chosen)
        }
        // Each post leans one way, so verdicts come out wear it, change it and split.
        let lean = Double(posts[post].id.utf8.last! % 7) / 6
        do { var w = begin(.postVoted, user: member); w.field("post", posts[post].id); w.field("verdict", random.unit() < 0.25 + lean / 2 ? "wear_it" : "change_it"); finish(w, sink) }
        if recentVotes.count < 512 { recentVotes.append((member, post)) } else { recentVotes[random.below(512)] = (member, post) }
    }

    mutating func review(_ sink: ([UInt8]) -> Void) {
        guard let post = livePost() else { return }
        let author = activeMember()
        let review = nextID("r")
        posts[post].reviews.append(review)
        do { var w = begin(.reviewAdded, user: author); w.field("review", review); w.field("post", posts[post].id)
            w.field("text", DemoNames.reviews[random.below(DemoNames.reviews.count)]); finish(w, sink) }
        if recentReviews.count < 512 { recentReviews.append((author, review)) } else { recentReviews[random.below(512)] = (author, review) }
    }

    mutating func agree(_ sink: ([UInt8]) -> Void) {
        guard !recentReviews.isEmpty else { return }
        let review = recentReviews[random.below(recentReviews.count)]
        let member = random.chance(0.05) ? review.author : activeMember()
        do { var w = begin(.reviewAgreed, user: member); w.field("review", review.review); finish(w, sink) }
    }

    mutating func flag(_ sink: ([UInt8]) -> Void) {
        if random.chance(0.25), !recentReviews.isEmpty {
            let review = recentReviews[random.below(min(recentReviews.count, 8))].review
            do { var w = begin(.reviewFlagged, user: activeMember()); w.field("review", review); finish(w, sink) }
            flaggedItems.append("review:" + review)
            return
        }
        // A few troubled posts draw many flags (reaching three flaggers, so hidden); the rest one each.
        guard !posts.isEmpty else { return }
        let post: Int
        if random.chance(0.6), !troubledPosts.isEmpty {
            post = troubledPosts[troubledPosts.count - 1 - random.below(min(troubledPosts.count, 3))]
        } else {
            post = livePost() ?? random.below(posts.count)
        }
        do { var w = begin(.postFlagged, user: activeMember())
            w.field("post", posts[post].id)
            if random.chance(0.7) { w.field("reason", DemoNames.flagReasons[random.below(DemoNames.flagReasons.count)]) }
            finish(w, sink) }
        flaggedItems.append("post:" + posts[post].id)
    }

    mutating func removeReview(_ sink: ([UInt8]) -> Void) {
        guard !recentReviews.isEmpty else { return }
        let review = recentReviews[random.below(recentReviews.count)]
        // One in five removals comes from someone else: the rules ignore it.
        let member = random.chance(0.8) ? review.author : activeMember()
        do { var w = begin(.reviewRemoved, user: member); w.field("review", review.review); finish(w, sink) }
    }

    mutating func followEdge(_ follower: Int, _ target: Int, via: String, _ sink: ([UInt8]) -> Void) {
        do { var w = begin(.userFollowed, user: follower); w.field("target", members[target].id); w.field("via", via); finish(w, sink) }
        if members[target].isPrivate { pendingRequests.append((follower: follower, owner: target)) } else { follows.append((follower, target)) }
    }

    mutating func follow(_ sink: ([UInt8]) -> Void, via: String) {
        followEdge(activeMember(), popularMember(), via: via, sink)
    }

    mutating func answerRequest(_ sink: ([UInt8]) -> Void) {
        guard !pendingRequests.isEmpty else { return }
        let request = pendingRequests.remove(at: random.below(pendingRequests.count))
        let approve = random.chance(0.7)
        do { var w = begin(approve ? .followApproved : .followDeclined, user: request.owner); w.field("follower", members[request.follower].id); finish(w, sink) }
        if approve { follows.append((request.follower, request.owner)) }
    }

    mutating func unfollow(_ sink: ([UInt8]) -> Void) {
        guard !follows.isEmpty else { return }
        let edge = follows.remove(at: random.below(follows.count))
        do { var w = begin(.userUnfollowed, user: edge.follower); w.field("target", members[edge.target].id); finish(w, sink) }
    }

    mutating func block(_ sink: ([UInt8]) -> Void) {
        let member = activeMember(), target = activeMember()
        do { var w = begin(.userBlocked, user: member); w.field("target", members[target].id); finish(w, sink) }
        if random.chance(0.3) {
            tick(5)
            do { var w = begin(.userUnblocked, user: member); w.field("target", members[target].id); finish(w, sink) }
        }
    }

    mutating func shop(_ sink: ([UInt8]) -> Void) {
        let member = activeMember()
        let product = "prd" + String(random.skewed(500) + 100_000, radix: 16)
        switch random.below(10) {
        case 0..<4: do { var w = begin(.productHearted, user: member); w.field("product", product); finish(w, sink) }
        case 4: do { var w = begin(.productUnhearted, user: member); w.field("product", product); finish(w, sink) }
        case 5:
            let to = activeMember()
            do { var w = begin(.productSuggested, user: member); w.field("product", product); w.field("channel", ["gtio", "sms", "email", "facebook"][random.below(4)])
                if random.chance(0.5) { w.field("to", members[to].id) }; finish(w, sink) }
        case 6, 7: do { var w = begin(.shoppingListAdded, user: member); w.field("product", product); finish(w, sink) }
        case 8: do { var w = begin(.shoppingListRemoved, user: member); w.field("product", product); finish(w, sink) }
        default: do { let w = begin(.shoppingListEmailed, user: member); finish(w, sink) }
        }
    }

    mutating func deletePost(_ sink: ([UInt8]) -> Void) {
        guard let post = livePost() else { return }
        // Now and then someone other than the author tries: the rules ignore it.
        let byAuthor = random.chance(0.85)
        let member = byAuthor ? posts[post].author : activeMember()
        do { var w = begin(.postDeleted, user: member); w.field("post", posts[post].id); finish(w, sink) }
        if byAuthor { posts[post].deleted = true }
    }

    mutating func moderate(_ sink: ([UInt8]) -> Void) {
        let moderator = random.below(moderators)
        let item: String
        if !flaggedItems.isEmpty, random.chance(0.9) {
            item = flaggedItems.remove(at: random.below(flaggedItems.count))
        } else if let post = livePost() {
            item = "post:" + posts[post].id  // not flagged: kept in the log, ignored by the queue
        } else {
            return
        }
        let remove = random.chance(0.4)
        do { var w = begin(.moderationResolved, user: moderator); w.field("item", item); w.field("action", remove ? "remove" : "dismiss")
            if random.chance(0.5) { w.field("note", remove ? "nudity" : "fine") }; finish(w, sink) }
        if remove, item.hasPrefix("post:"), let index = posts.lastIndex(where: { "post:" + $0.id == item }) {
            posts[index].deleted = true
        }
    }

    /// Valid events that the read models must ignore.
    mutating func oddEvent(_ sink: ([UInt8]) -> Void) {
        let member = activeMember()
        switch random.below(5) {
        case 0: do { var w = begin(.userFollowed, user: member); w.field("target", members[member].id); finish(w, sink) }
        case 1: do { var w = begin(.postHearted, user: member); w.field("post", nextID("p")); finish(w, sink) }
        case 2:
            if let deleted = posts.lastIndex(where: \.deleted) {
                do { var w = begin(.postVoted, user: member); w.field("post", posts[deleted].id); w.field("verdict", "wear_it"); finish(w, sink) }
            }
        case 3:
            do { var w = begin(.reviewAdded, user: member); w.field("review", nextID("r")); w.field("post", nextID("p")); w.field("text", "first!"); finish(w, sink) }
        default:
            if let post = livePost() {
                // A vote before the post exists is impossible to produce here; a re-created id is not.
                do { var w = begin(.postCreated, user: member); w.field("post", posts[post].id); w.field("kind", "outfit"); w.field("voting", true); finish(w, sink) }
            }
        }
    }
}
