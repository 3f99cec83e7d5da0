import GTIOCatalog
import GTIOSimulation
import GTIOStore

/// Random logs over a handful of users, posts and reviews, so that follows meet blocks,
/// votes meet deletions and flags meet decisions far more often than in real data.
enum RandomLog {
    static let users = ["ann", "bob", "cy", "dee", "eve", "fay"]

    /// `weeks`: spread the events over months, with events weeks late and gaps of weeks
    /// without any, where the days' WAU and MAU windows begin and end.
    static func events(seed: UInt64, count: Int, weeks: Bool = false) -> [ValidatedEvent] {
        var random = SeededGenerator(seed: seed)
        var at = Timestamp(rfc3339: "2012-04-23T00:00:00Z")!.milliseconds
        var events: [ValidatedEvent] = []
        func pick(_ values: [String]) -> String { values[random.below(values.count)] }
        let day: Int64 = 86_400_000
        for index in 0..<count {
            if weeks {
                at += Int64(random.below(Int(day))) + (random.chance(0.03) ? 40 * day : 0)
                if random.chance(0.08) { at -= Int64(random.below(Int(60 * day))) }
            } else {
                // Mostly forward in time, sometimes a late event, up to a few days in all.
                at += Int64(random.below(3_600_000)) - (random.chance(0.1) ? 7_200_000 : 0)
            }
            let user = pick(users), other = pick(users)
            let post = "p\(random.below(5))", review = "r\(random.below(4))"
            let item = random.chance(0.6) ? "post:" + post : "review:" + review
            let data: (EventType, String)
            switch random.below(28) {
            case 0: data = (.userSignedUp, #"{"provider":"google","name":"\#(pick(["Ann", "bob", "Émile", ""]))"}"#)
            case 1: data = (.userPrivacyChanged, #"{"private":\#(random.chance(0.5))}"#)
            case 2, 3: data = (.userFollowed, #"{"target":"\#(other)"}"#)
            case 4: data = (.userUnfollowed, #"{"target":"\#(other)"}"#)
            case 5: data = (.followApproved, #"{"follower":"\#(other)"}"#)
            case 6: data = (.followDeclined, #"{"follower":"\#(other)"}"#)
            case 7: data = (random.chance(0.7) ? .userBlocked : .userUnblocked, #"{"target":"\#(other)"}"#)
            case 8, 9:
                // Products, prices, brands and places, with the edge cases their rules name:
                // equal names in other cases, empty names, a place without coordinates, price 0.
                var extra = ""
                if random.chance(0.4) { extra += #","product":"pr\#(random.below(3))""# }
                if random.chance(0.6) { extra += #","price":\#(Double(random.below(6)) / 2)"# }
                if random.chance(0.4) { extra += #","brands":["\#(pick(["Zara", "zara", "H&M", ""]))","\#(pick(["Zara", "Gap"]))"]"# }
                if random.chance(0.5) {
                    let coordinates = random.chance(0.7) ? #","lat":\#(40 + Double(random.below(3)) / 10),"lon":-73.9"# : ""
                    extra += #","location":{"name":"\#(pick(["Soho", "soho", ""]))"\#(coordinates)}"#
                }
                let kind = random.chance(0.5) ? "product" : "outfit"
                data = (.postCreated, #"{"post":"\#(post)","kind":"\#(kind)","voting":\#(!random.chance(0.2))\#(extra)}"#)
            case 10: data = (.postDeleted, #"{"post":"\#(post)"}"#)
            case 11, 12: data = (.postHearted, #"{"post":"\#(post)"}"#)
            case 13: data = (.postUnhearted, #"{"post":"\#(post)"}"#)
            case 14, 15: data = (.postVoted, #"{"post":"\#(post)","verdict":"\#(random.chance(0.5) ? "wear_it" : "change_it")"}"#)
            case 16:
                let reason = random.chance(0.6) ? #","reason":"\#(pick(["spam", "nudity", "", "Spam"]))""# : ""
                data = (.postFlagged, #"{"post":"\#(post)"\#(reason)}"#)
            case 17: data = (.reviewAdded, #"{"review":"\#(review)","post":"\#(post)","text":"hm"}"#)
            case 18: data = (.reviewAgreed, #"{"review":"\#(review)"}"#)
            case 19: data = (.reviewFlagged, #"{"review":"\#(review)"}"#)
            case 20: data = (.reviewRemoved, #"{"review":"\#(review)"}"#)
            case 21: data = (.moderationResolved, #"{"item":"\#(item)","action":"\#(random.chance(0.5) ? "remove" : "dismiss")"}"#)
            case 22: data = (.postShared, #"{"post":"\#(post)","channel":"twitter"}"#)
            case 23:
                // Product hearts, the shopping list and suggestions, on a few products.
                let type = [EventType.productHearted, .productUnhearted, .shoppingListAdded, .shoppingListRemoved, .productSuggested][random.below(5)]
                let channel = type == .productSuggested ? #","channel":"\#(pick(["sms", "gtio"]))""# : ""
                data = (type, #"{"product":"pr\#(random.below(3))"\#(channel)}"#)
            case 24: data = (.appOpened, #"{"first_launch":true}"#)
            case 25: data = (.userProfileCompleted, "{}")
            case 26: data = (.quickaddShown, #"{"suggested":["\#(other)","\#(pick(users))"]}"#)
            case 27: data = (.userFollowed, #"{"target":"\#(other)","via":"quickadd"}"#)
            default: data = (.track, #"{"name":"Feed"}"#)
            }
            // Devices meet sign-ups often enough for the funnel to join them.
            let device = [.appOpened, .userSignedUp].contains(data.0) ? #","device":"d\#(random.below(4))""# : ""
            let line = #"{"id":"e\#(index)","type":"\#(data.0.rawValue)","at":"\#(Timestamp(milliseconds: at))","user":"\#(user)"\#(device),"data":\#(data.1)}"#
            events.append(try! EventValidator.validate(line).get())
        }
        return events
    }

    /// Appends `events` to `store` in batches of 1 to 60 drawn from `seed`, running `afterEach`
    /// (a catch-up, say) after each batch.
    static func append(_ events: [ValidatedEvent], to store: some EventLog, seed: UInt64, afterEach: () throws -> Void) throws {
        var random = SeededGenerator(seed: seed)
        var start = 0
        while start < events.count {
            let end = min(events.count, start + 1 + random.below(60))
            _ = try store.append(EventBatch(source: "gen", events: events[start..<end].enumerated().map { ($0.offset, $0.element) }))
            try afterEach()
            start = end
        }
    }

    static func records(seed: UInt64, count: Int) -> [LogRecord] {
        events(seed: seed, count: count).enumerated().map { LogRecord(seq: Int64($0.offset + 1), $0.element) }
    }
}
