import GTIOCatalog
import GTIOProjections
import GTIOStore

/// Builds a log event by event for rule tests: seq counts up, `at` advances a minute per
/// event from 2012-04-23T00:00Z unless a test sets `clock`.
struct TestLog {
    var records: [LogRecord] = []
    /// UTC ms of the next event.
    var clock: Int64 = Timestamp(rfc3339: "2012-04-23T00:00:00Z")!.milliseconds
    static let minute: Int64 = 60_000

    mutating func add(
        _ type: EventType, _ user: String?, subject: String? = nil, object: String? = nil, value: String? = nil,
        flag: Bool? = nil, number: Double? = nil, text: String? = nil, list: [String] = [],
        properties: [EventProperty] = [], device: String? = nil, at: Int64? = nil
    ) {
        let moment = at ?? clock
        records.append(LogRecord(
            seq: Int64(records.count + 1), type: type, at: moment, user: user, device: device, subject: subject,
            object: object, value: value, flag: flag, number: number, text: text, list: list, properties: properties))
        if at == nil { clock += Self.minute }
    }

    mutating func signUp(_ user: String, name: String, provider: String = "facebook", device: String? = nil) {
        add(.userSignedUp, user, value: provider, text: name, device: device)
    }
    mutating func rename(_ user: String, _ name: String?) { add(.userProfileUpdated, user, text: name) }
    mutating func setPrivate(_ user: String, _ isPrivate: Bool) { add(.userPrivacyChanged, user, flag: isPrivate) }
    mutating func follow(_ a: String, _ b: String, via: String? = nil) { add(.userFollowed, a, subject: b, value: via) }
    mutating func unfollow(_ a: String, _ b: String) { add(.userUnfollowed, a, subject: b) }
    mutating func approve(_ owner: String, _ follower: String) { add(.followApproved, owner, subject: follower) }
    mutating func decline(_ owner: String, _ follower: String) { add(.followDeclined, owner, subject: follower) }
    mutating func block(_ a: String, _ b: String) { add(.userBlocked, a, subject: b) }
    mutating func unblock(_ a: String, _ b: String) { add(.userUnblocked, a, subject: b) }
    mutating func post(
        _ post: String, by user: String, voting: Bool = true, kind: String = "outfit", product: String? = nil, price: Double? = nil,
        brands: [String] = [], place: PostPlace? = nil, at: Int64? = nil
    ) {
        var properties = brands.enumerated().map { EventProperty(name: EventProperty.brands, position: $0.offset, text: $0.element) }
        if let place {
            properties.append(EventProperty(name: EventProperty.locationName, text: place.name))
            if let latitude = place.latitude { properties.append(EventProperty(name: EventProperty.locationLatitude, number: latitude)) }
            if let longitude = place.longitude { properties.append(EventProperty(name: EventProperty.locationLongitude, number: longitude)) }
        }
        add(.postCreated, user, subject: post, object: product, value: kind, flag: voting, number: price, properties: properties, at: at)
    }
    mutating func delete(_ post: String, by user: String) { add(.postDeleted, user, subject: post) }
    mutating func heart(_ post: String, by user: String) { add(.postHearted, user, subject: post) }
    mutating func unheart(_ post: String, by user: String) { add(.postUnhearted, user, subject: post) }
    mutating func vote(_ post: String, by user: String, _ verdict: String) { add(.postVoted, user, subject: post, value: verdict) }
    mutating func wear(_ post: String, _ users: [String]) { users.forEach { vote(post, by: $0, "wear_it") } }
    mutating func change(_ post: String, _ users: [String]) { users.forEach { vote(post, by: $0, "change_it") } }
    mutating func flag(_ post: String, by user: String, reason: String? = nil, at: Int64? = nil) {
        add(.postFlagged, user, subject: post, text: reason, at: at)
    }
    mutating func product(_ type: EventType, _ product: String, by user: String, channel: String? = nil) {
        add(type, user, subject: product, value: channel)
    }
    mutating func review(_ review: String, on post: String, by user: String) {
        add(.reviewAdded, user, subject: review, object: post, text: "nice")
    }
    mutating func agree(_ review: String, by user: String) { add(.reviewAgreed, user, subject: review) }
    mutating func flagReview(_ review: String, by user: String) { add(.reviewFlagged, user, subject: review) }
    mutating func removeReview(_ review: String, by user: String) { add(.reviewRemoved, user, subject: review) }
    mutating func resolve(_ item: String, _ action: String, by moderator: String = "mod") {
        add(.moderationResolved, moderator, subject: item, value: action)
    }

    /// The read models of this log as of `view`.
    func models(_ view: LogView = .latest) -> ReadModels { view.readModels(from: records) }
}
