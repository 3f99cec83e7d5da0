import Foundation
import GTIOCatalog
import GTIOStore

/// The state as bytes and back, field by field: what `FoldSnapshot` keeps in the store so that a
/// writer continues from it instead of folding the log from the start. Every field a rule reads
/// is here; a field added to the state must be added here too (the property tests compare a
/// fold continued from a snapshot with one that never stopped).
extension CommunityState {
    /// The state as two runs of bytes that take about as long to decode, encoded side by side:
    /// decoding (the longer part of a writer's start on a big log) then takes both cores. Each
    /// run comes in chunks of about `chunkSize` bytes (`StateWriter`).
    func encodedHalves(chunkSize: Int) -> (people: [[UInt8]], rest: [[UInt8]]) {
        var people = StateWriter(chunkSize: chunkSize), rest = StateWriter(chunkSize: chunkSize)
        // Neither throws: `try!` cannot fire.
        try! SideBySide.run({ writePeople(to: &people) }, { writeRest(to: &rest) })
        return (people.chunks, rest.chunks)
    }

    /// The two halves a state is saved and read back in, side by side.
    enum Half { case people, rest }

    /// The state that `encodedHalves` gave, each half decoded on its own thread, after `check`
    /// of its bytes there (the checksum of each half, when read from the store).
    static func decoded(
        people: UnsafeRawBufferPointer, rest: UnsafeRawBufferPointer, check: (Half, UnsafeRawBufferPointer) throws -> Void = { _, _ in }
    ) throws -> CommunityState {
        var state = CommunityState(), other = CommunityState()
        try SideBySide.run({
            try check(.people, people)
            var reader = StateReader(people)
            try state.readPeople(from: &reader)
            guard reader.isAtEnd else { throw FoldSnapshotError.malformed("bytes left after the users and the graph") }
        }, {
            try check(.rest, rest)
            var reader = StateReader(rest)
            try other.readRest(from: &reader)
            guard reader.isAtEnd else { throw FoldSnapshotError.malformed("bytes left after the state") }
            other.countPlacesOfLivePosts()
        })
        state.adoptRest(of: &other)
        try state.findFlaggedPosts()
        // The two halves were read apart: keys and slots of one must lie in the other's tables.
        guard state.products.keys.allSatisfy({ $0 < state.keys.count }),
              state.products.values.allSatisfy({ $0.postSlots.allSatisfy { $0 < state.posts.count } }),
              state.productsHearted.keys.allSatisfy({ $0 < state.userKeys.count }),
              state.listSizes.keys.allSatisfy({ $0 < state.userKeys.count }),
              state.reviews.values.allSatisfy({ $0.postSlot < state.posts.count }),
              state.earlierPostOfAuthor.count == state.posts.count,
              state.latestPostOfAuthor.allSatisfy({ Int($0) <= state.posts.count })
        else { throw FoldSnapshotError.malformed("a product, post or user key beyond its table") }
        state.uncountHiddenPlaces()
        return state
    }

    /// Position, keys, what is kept by user key (names, sign-ups, onboarding times, quick-add
    /// pairs, authors' posts), the follow graph, moderation (flagged items, decisions, flaggers)
    /// and the product sets (hearts, shopping lists, tallies): the key tables and the graph take
    /// the longest to rebuild, so the posts, next in weight, are in the other half, and
    /// moderation and products here even them out (docs/PERFORMANCE.md).
    private func writePeople(to writer: inout StateWriter) {
        writer.write(lastSeq)
        writer.write(newestAt)
        writer.write(eventCount)
        for table in [userKeys, deviceKeys, keys] { writer.write(table.ids.dropFirst()) { $0.write($1) } }
        writer.write(known) { $0.write($1) }
        writer.write(names.indices.filter { names[$0] != nil }) { $0.write($1); $0.write(names[$1]!) }
        writer.write(signedUpUsers) { writer, user in
            let signUp = firstSignUps[user]
            writer.write(user)
            writer.write(signUp.at)
            writer.write(Int(signUp.device))
            writer.write(Int(signUp.previousOnDevice))
            writer.write(Int(signUp.provider))
        }
        // Past the devices keyed, room made ahead: nobody's there.
        writer.write(lastSignUpOnDevice.prefix(deviceKeys.count)) { $0.write(Int($1)) }
        profileCompletions.write(to: &writer)
        quickAddFollows.write(to: &writer)
        quickAddPairs.write(to: &writer) { writer, shown in
            writer.write(shown.day)
            writer.write(shown.accepted)
        }
        follows.write(to: &writer)
        writer.write(latestPostOfAuthor) { $0.write(Int($1)) }
        writer.write(earlierPostOfAuthor) { $0.write(Int($1)) }
        writer.write(items.values) { $1.write(to: &$0) }
        writer.write(decisions) { $1.write(to: &$0) }
        writer.write(flaggers) { writer, entry in
            writer.write(entry.key)
            entry.value.write(to: &writer)
        }
        writer.write(productHearts) { $0.write($1.packed) }
        writer.write(shoppingList) { $0.write($1.packed) }
        writer.write(products) { writer, entry in
            writer.write(entry.key)
            entry.value.write(to: &writer)
        }
        Self.write(productsHearted, to: &writer)
        Self.write(listSizes, to: &writer)
    }

    /// Posts, reviews, prices, engagement and onboarding.
    private func writeRest(to writer: inout StateWriter) {
        posts.write(to: &writer)
        writer.write(reviews.values) { $1.write(to: &$0) }
        writer.write(pricePoints) { writer, entry in
            writer.write(entry.key.kind)
            writer.write(entry.key.group.text)
            writer.write(Optional(entry.key.price))
            writer.write(entry.value)
        }
        Self.write(dauByDay, to: &writer)
        Self.write(devicesByDay, to: &writer)
        userActivity.write(to: &writer)
        activeWindows.write(to: &writer)
        deviceActivity.write(to: &writer)
        writer.write(signupsByDay) { writer, day in
            writer.write(day.key)
            writer.write(day.value) { $0.write($1.key); $0.write($1.value) }
        }
        Self.write(eventsByDay, to: &writer)
        writer.write(actionsByDay) { writer, day in
            writer.write(day.key)
            writer.write(day.value) { $0.write($1.key.index); $0.write($1.value) }
        }
        Self.write(anomalies, to: &writer)
        writer.write(anomaliesByDay) { writer, day in
            writer.write(day.key)
            Self.write(day.value, to: &writer)
        }
        writer.write(firstOpen) { $0.write($1) }
        writer.write(onboardingSteps) { $0.write(Int($1)) }
        Self.write(quickAddShownByDay, to: &writer)
        Self.write(quickAddAcceptedByDay, to: &writer)
        writer.write(onboardingByDay) { writer, day in
            writer.write(day.key)
            day.value.write(to: &writer)
        }
        writer.write(cohortsByDay) { writer, day in
            writer.write(day.key)
            day.value.write(to: &writer)
        }
    }

    private mutating func readPeople(from reader: inout StateReader) throws {
        lastSeq = try reader.readInt64()
        newestAt = try reader.readOptionalInt64()
        eventCount = try reader.readInt()
        var tables: [KeyTable] = []
        for name in ["user", "device", "id"] {
            guard let table = KeyTable(ids: try reader.readArray({ try $0.readString() })) else {
                throw FoldSnapshotError.malformed("an \(name) keyed twice")
            }
            tables.append(table)
        }
        (userKeys, deviceKeys, keys) = (tables[0], tables[1], tables[2])
        known = try reader.readArray { try $0.readBool() }
        names = Array(repeating: nil, count: known.count)
        for _ in 0..<(try reader.readCount()) {
            let user = try reader.readCount()
            guard user > 0, user < known.count, names[user] == nil else { throw FoldSnapshotError.malformed("a name of user key \(user)") }
            names[user] = try reader.readString()
        }
        try readSignUps(from: &reader)
        profileCompletions = try TimesByUser(from: &reader, users: userKeys.count)
        quickAddFollows = try TimesByUser(from: &reader, users: userKeys.count)
        quickAddPairs = try PairTable(from: &reader) { QuickAddShowing(day: try $0.readInt64(), accepted: try $0.readBool()) }
        follows = try FollowGraph(from: &reader)
        latestPostOfAuthor = try reader.readArray { Int32(truncatingIfNeeded: try $0.readCount()) }
        earlierPostOfAuthor = try reader.readArray { Int32(truncatingIfNeeded: try $0.readCount()) }
        // Each post's earlier one comes before it: no chain loops.
        guard latestPostOfAuthor.count == known.count,
              earlierPostOfAuthor.indices.allSatisfy({ Int(earlierPostOfAuthor[$0]) <= $0 })
        else { throw FoldSnapshotError.malformed("an author's posts out of order") }
        items = try reader.readDictionary { reader in
            let item = try FlagItem(from: &reader)
            return (item.item, item)
        }
        decisions = try reader.readArray { try Decision(from: &$0) }
        desk = DeskTotals(items: items.values, decisions: decisions)
        flaggers = try reader.readDictionary { (try $0.readString(), try FlaggerRecord(from: &$0)) }
        productHearts = try reader.readSet { KeyPair(packed: try $0.readInt()) }
        shoppingList = try reader.readSet { KeyPair(packed: try $0.readInt()) }
        products = try reader.readDictionary { (try $0.readCount(), try ProductTally(from: &$0)) }
        productsHearted = try Self.readKeyCounts(&reader)
        listSizes = try Self.readKeyCounts(&reader)
    }

    /// The first sign-ups and each device's chain of them, every key checked against the key
    /// tables read before them.
    private mutating func readSignUps(from reader: inout StateReader) throws {
        firstSignUps = Array(repeating: .none, count: known.count)
        let count = try reader.readCount()
        for _ in 0..<count {
            let user = try reader.readCount(), at = try reader.readInt64()
            let device = try reader.readCount(), previous = try reader.readCount(), provider = try reader.readCount()
            guard user > 0, user < known.count, firstSignUps[user].isNone, at != .min, device < deviceKeys.count,
                  previous < known.count, provider < EventType.providers.count
            else { throw FoldSnapshotError.malformed("a sign-up of user key \(user) that does not fit the key tables") }
            firstSignUps[user] = FirstSignUp(at: at, device: Int32(device), previousOnDevice: Int32(previous), provider: UInt8(provider))
        }
        lastSignUpOnDevice = try reader.readArray { reader in
            let user = try reader.readCount()
            guard user < known.count else { throw FoldSnapshotError.malformed("a device's sign-up by user key \(user) beyond the users") }
            return Int32(user)
        }
        guard lastSignUpOnDevice.count <= deviceKeys.count else { throw FoldSnapshotError.malformed("sign-ups for more devices than keyed") }
        try checkSignUpChains()
    }

    /// Each device's chain holds the users who signed up first on it, each once: a chain that
    /// loops would hold the fold in `onboardingStep` forever, and a user left out of theirs
    /// would not count for their device.
    private func checkSignUpChains() throws {
        var seen = [Bool](repeating: false, count: firstSignUps.count)
        for (device, last) in lastSignUpOnDevice.enumerated() {
            var user = Int(last)
            while user != 0 {
                guard !seen[user], !firstSignUps[user].isNone, Int(firstSignUps[user].device) == device else {
                    throw FoldSnapshotError.malformed("device key \(device)'s sign-ups loop or hold user key \(user) of another")
                }
                seen[user] = true
                user = Int(firstSignUps[user].previousOnDevice)
            }
        }
        if let user = firstSignUps.indices.first(where: { !seen[$0] && !firstSignUps[$0].isNone && firstSignUps[$0].device != 0 }) {
            throw FoldSnapshotError.malformed("user key \(user)'s sign-up is in no chain of its device")
        }
    }

    private mutating func readRest(from reader: inout StateReader) throws {
        posts = try PostDirectory(from: &reader)
        reviews = try reader.readDictionary { reader in
            let review = try Review(from: &reader)
            return (review.id, review)
        }
        let points: [PricePoint: Int] = try reader.readDictionary { reader in
            let kind = try reader.readString(), group = try reader.readString()
            guard let price = try reader.readOptionalDouble() else { throw FoldSnapshotError.malformed("a price point without a price") }
            return (PricePoint(kind: kind, group: ExactText(group), price: price), try reader.readInt())
        }
        for (point, posts) in points { priceGroups[PriceGroup(point), default: [:]][point.price] = posts }
        dauByDay = try Self.readCounts(&reader)
        devicesByDay = try Self.readCounts(&reader)
        userActivity = try ActivityCalendar(from: &reader)
        activeWindows = try ActiveWindows(from: &reader)
        deviceActivity = try ActivityCalendar(from: &reader)
        signupsByDay = try reader.readDictionary { reader in
            (try reader.readInt64(), try reader.readDictionary { (try $0.readString(), try $0.readInt()) })
        }
        eventsByDay = try Self.readCounts(&reader)
        actionsByDay = try reader.readDictionary { reader in
            (try reader.readInt64(), try reader.readDictionary { (try Self.readAction(&$0), try $0.readInt()) })
        }
        anomalies = try Self.readAnomalies(&reader)
        anomaliesByDay = try reader.readDictionary { (try $0.readInt64(), try Self.readAnomalies(&$0)) }
        firstOpen = try reader.readArray { try $0.readInt64() }
        onboardingSteps = try reader.readArray { Int8(clamping: try $0.readInt()) }
        guard onboardingSteps.count == firstOpen.count else { throw FoldSnapshotError.malformed("onboarding steps for another number of devices") }
        quickAddShownByDay = try Self.readCounts(&reader)
        quickAddAcceptedByDay = try Self.readCounts(&reader)
        onboardingByDay = try reader.readDictionary { (try $0.readInt64(), try OnboardingDay(from: &$0)) }
        cohortsByDay = try reader.readDictionary { (try $0.readInt64(), try CohortDay(from: &$0)) }
    }

    /// Gives each flagged post's item its post's slot (`FlagItem.postSlot`), found by the key of
    /// the post's id: the key table is in one half, the posts in the other.
    private mutating func findFlaggedPosts() throws {
        let (keys, posts) = (self.keys, self.posts)
        try items.updateEach { item in
            guard let ref = ItemRef(item.item), ref.kind == .post else { return }
            guard let slot = keys.key(ref.id).flatMap(posts.slot(key:)) else {
                throw FoldSnapshotError.malformed("the flagged post \(ref.id) is not among the posts")
            }
            item.postSlot = slot
        }
    }

    /// Takes the fields `readRest` fills from `other`.
    private mutating func adoptRest(of other: inout CommunityState) {
        posts = other.posts
        // Swapped, not shared: the shares change at once (`uncountHiddenPlaces`), and a table
        // still held by `other` would be copied whole then.
        swap(&placeTallies, &other.placeTallies)
        swap(&placeShares, &other.placeShares)
        reviews = other.reviews
        priceGroups = other.priceGroups
        dauByDay = other.dauByDay
        devicesByDay = other.devicesByDay
        userActivity = other.userActivity
        activeWindows = other.activeWindows
        deviceActivity = other.deviceActivity
        signupsByDay = other.signupsByDay
        eventsByDay = other.eventsByDay
        actionsByDay = other.actionsByDay
        anomalies = other.anomalies
        anomaliesByDay = other.anomaliesByDay
        firstOpen = other.firstOpen
        onboardingSteps = other.onboardingSteps
        quickAddShownByDay = other.quickAddShownByDay
        quickAddAcceptedByDay = other.quickAddAcceptedByDay
        onboardingByDay = other.onboardingByDay
        cohortsByDay = other.cohortsByDay
    }

    // MARK: Shapes used more than once

    private static func write(_ counts: [Int64: Int], to writer: inout StateWriter) {
        writer.write(counts) { $0.write($1.key); $0.write($1.value) }
    }

    private static func readCounts(_ reader: inout StateReader) throws -> [Int64: Int] {
        try reader.readDictionary { (try $0.readInt64(), try $0.readInt()) }
    }

    private static func write(_ counts: [Int: Int], to writer: inout StateWriter) {
        writer.write(counts) { $0.write($1.key); $0.write($1.value) }
    }

    private static func readKeyCounts(_ reader: inout StateReader) throws -> [Int: Int] {
        try reader.readDictionary { (try $0.readCount(), try $0.readInt()) }
    }

    private static func write(_ counts: [AnomalyKey: Int], to writer: inout StateWriter) {
        writer.write(counts) { writer, entry in
            writer.write(entry.key.type.rawValue)
            writer.write(entry.key.anomaly.rawValue)
            writer.write(entry.value)
        }
    }

    private static func readAnomalies(_ reader: inout StateReader) throws -> [AnomalyKey: Int] {
        try reader.readDictionary { reader in
            let type = try reader.readString(), anomaly = try reader.readString()
            guard let type = EventType(rawValue: type), let anomaly = Anomaly(rawValue: anomaly) else {
                throw FoldSnapshotError.malformed("an anomaly \(type): \(anomaly) this build does not know")
            }
            return (AnomalyKey(type: type, anomaly: anomaly), try reader.readInt())
        }
    }

    private static func readAction(_ reader: inout StateReader) throws -> Action {
        let index = try reader.readInt()
        guard Action.allCases.indices.contains(index) else { throw FoldSnapshotError.malformed("an action numbered \(index)") }
        return Action.allCases[index]
    }
}

extension CommunityState.Post {
    func write(to writer: inout StateWriter) {
        writer.write(id)
        writer.write(author)
        writer.write(kind)
        writer.write(voting)
        writer.write(created)
        writer.write(createdSeq)
        writer.write(life.code)
        writer.write(description)
        writer.write(hearters) { $0.write($1.key.int); $0.write($1.value) }
        writer.write(wearIt)
        writer.write(changeIt)
        writer.write(voters) { $0.write($1.int) }
        writer.write(reviews) { $0.write($1) }
        writer.write(liveReviews)
        writer.write(shares)
        writer.write(product)
        writer.write(price)
        writer.write(place?.name)
        if let place {
            writer.write(place.latitude)
            writer.write(place.longitude)
        }
        writer.write(brands) { $0.write($1) }
    }

    /// Every field read into a local first and the post made once: assigned one by one, each
    /// assignment copied and destroyed the post's strings and tables (docs/PERFORMANCE.md).
    init(from reader: inout StateReader) throws {
        let id = try reader.readString(), author = try reader.readString(), kind = try reader.readString()
        let voting = try reader.readBool(), created = try reader.readInt64(), createdSeq = try reader.readInt64()
        let life = try CommunityState.Life(code: reader.readInt())
        let description = try reader.readOptionalString()
        let hearters: [IDKey: Int64] = try reader.readDictionary { (IDKey(try $0.readCount()), try $0.readInt64()) }
        let wearIt = try reader.readInt(), changeIt = try reader.readInt()
        let voters = try reader.readSet { IDKey(try $0.readCount()) }
        let reviews = try reader.readArray { try $0.readString() }
        let liveReviews = try reader.readInt(), shares = try reader.readInt()
        let product = try reader.readOptionalString(), price = try reader.readOptionalDouble()
        var place: PostPlace?
        if let name = try reader.readOptionalString() {
            place = PostPlace(name: name, latitude: try reader.readOptionalDouble(), longitude: try reader.readOptionalDouble())
        }
        let brands = try reader.readArray { try $0.readString() }
        self.init(id: id, author: author, kind: kind, voting: voting, created: created, createdSeq: createdSeq, life: life,
                  description: description, product: product, price: price, place: place, brands: brands,
                  hearters: hearters, wearIt: wearIt, changeIt: changeIt, voters: voters, reviews: reviews,
                  liveReviews: liveReviews, shares: shares)
    }
}

extension CommunityState.Life {
    var code: Int {
        switch self {
        case .live: 0
        case .deleted: 1
        case .removed: 2
        }
    }

    init(code: Int) throws {
        switch code {
        case 0: self = .live
        case 1: self = .deleted
        case 2: self = .removed
        default: throw FoldSnapshotError.malformed("a post state numbered \(code)")
        }
    }
}

extension CommunityState.Review {
    func write(to writer: inout StateWriter) {
        writer.write(id)
        writer.write(post)
        writer.write(author)
        writer.write(text)
        writer.write(at)
        writer.write(seq)
        writer.write(removed)
        writer.write(agreers) { $0.write($1) }
        writer.write(postSlot)
    }

    /// Made once from locals, as a post is.
    init(from reader: inout StateReader) throws {
        let id = try reader.readString(), post = try reader.readString(), author = try reader.readString()
        let text = try reader.readString(), at = try reader.readInt64(), seq = try reader.readInt64()
        let removed = try reader.readBool()
        let agreers = IDSet(try reader.readArray { try $0.readString() })
        self.init(id: id, post: post, author: author, text: text, at: at, seq: seq, removed: removed, agreers: agreers,
                  postSlot: try reader.readCount())
    }
}

extension CommunityState.FlagMark {
    func write(to writer: inout StateWriter) {
        writer.write(at)
        writer.write(seq)
        writer.write(reason)
    }

    init(from reader: inout StateReader) throws {
        self.init(at: try reader.readInt64(), seq: try reader.readInt64(), reason: try reader.readOptionalString())
    }
}

extension CommunityState.FlagItem {
    func write(to writer: inout StateWriter) {
        writer.write(item)
        writer.write(open) { writer, entry in
            writer.write(entry.key)
            entry.value.write(to: &writer)
        }
        writer.write(lastFlagSeq)
        writer.write(lastFlagAt)
        writer.write(history) { writer, flag in
            writer.write(flag.user)
            flag.mark.write(to: &writer)
            writer.write(flag.counted)
        }
    }

    init(from reader: inout StateReader) throws {
        self.init(item: try reader.readString())
        open = try reader.readDictionary { (try $0.readString(), try CommunityState.FlagMark(from: &$0)) }
        lastFlagSeq = try reader.readInt64()
        lastFlagAt = try reader.readInt64()
        history = try reader.readArray { (user: try $0.readString(), mark: try CommunityState.FlagMark(from: &$0), counted: try $0.readBool()) }
    }
}

extension CommunityState.Decision {
    func write(to writer: inout StateWriter) {
        writer.write(seq)
        writer.write(at)
        writer.write(item)
        writer.write(action)
        writer.write(moderator)
        writer.write(note)
        writer.write(flaggers)
        writer.write(firstFlagged)
    }

    init(from reader: inout StateReader) throws {
        self.init(seq: try reader.readInt64(), at: try reader.readInt64(), item: try reader.readString(), action: try reader.readString(),
                  moderator: try reader.readString(), note: try reader.readOptionalString(), flaggers: try reader.readInt(),
                  firstFlagged: try reader.readInt64())
    }
}

extension ProductTally {
    func write(to writer: inout StateWriter) {
        writer.write(hearts)
        writer.write(lists)
        writer.write(suggestions)
        writer.write(channels) { $0.write($1.key); $0.write($1.value) }
        writer.write(postSlots) { $0.write($1) }
    }

    init(from reader: inout StateReader) throws {
        self.init()
        hearts = try reader.readInt()
        lists = try reader.readInt()
        suggestions = try reader.readInt()
        channels = try reader.readDictionary { (try $0.readString(), try $0.readInt()) }
        postSlots = try reader.readArray { try $0.readCount() }
    }
}

extension FlaggerRecord {
    func write(to writer: inout StateWriter) {
        for items in [flagged, upheld, dismissed] { writer.write(items) { $0.write($1) } }
    }

    init(from reader: inout StateReader) throws {
        self.init()
        flagged = IDSet(try reader.readArray { try $0.readString() })
        upheld = IDSet(try reader.readArray { try $0.readString() })
        dismissed = IDSet(try reader.readArray { try $0.readString() })
    }
}

extension OnboardingDay {
    func write(to writer: inout StateWriter) {
        for count in reached { writer.write(count) }
    }

    init(from reader: inout StateReader) throws {
        self.init()
        for step in reached.indices { reached[step] = try reader.readInt() }
    }
}

extension CohortDay {
    func write(to writer: inout StateWriter) {
        writer.write(users)
        for count in retained { writer.write(count) }
    }

    init(from reader: inout StateReader) throws {
        self.init()
        users = try reader.readInt()
        for index in retained.indices { retained[index] = try reader.readInt() }
    }
}
