import GTIOCatalog
import GTIOStore

/// The `data` fields the rules read, by their names in the event contract: `event.vote.verdict`,
/// `event.follow.via`. Each view names the columns its fields come from, as the catalog keeps
/// them (`EventType.fields`); `EventFieldViewTests` checks every one against what the validator
/// makes of a line. Ids stay keys, as the fold indexes by them. A view is read only on its own
/// types: on another type the same column holds another field, or nothing.
extension KeyedEvent {
    /// `user.signed_up`: `provider` (value), `name` (text); `user.profile_updated`: `name` (text).
    struct Profile {
        var provider: String?
        var name: String?
    }

    /// `user.privacy_changed`: `private` (flag).
    struct Privacy {
        var isPrivate: Bool?
    }

    /// `user.followed`: `target` (subject), `via` (value).
    struct Follow {
        var target: Int
        var via: String?
    }

    /// `post.created`: `post` (subject), `kind` (value), `voting` (flag), `description` (text),
    /// `product` (object), `price` (number), `brands` and `location` (properties).
    struct PostCreation {
        var post: Int
        var kind: String?
        var voting: Bool?
        var description: String?
        var product: Int
        var price: Double?
        var properties: [EventProperty]

        /// Its brands in the order sent.
        var brands: [String] {
            properties.filter { $0.name == EventProperty.brands }.sorted { $0.position < $1.position }.compactMap(\.text)
        }

        var place: PostPlace? { PostPlace(properties) }
    }

    /// `product.suggested`: `product` (subject), `channel` (value).
    struct Suggestion {
        var product: Int
        var channel: String?
    }

    /// `post.voted`: `post` (subject), `verdict` (value).
    struct Vote {
        var post: Int
        var verdict: String?
    }

    /// `post.flagged`: `post` (subject), `reason` (text); `review.flagged`: `review` (subject),
    /// and no reason in the contract.
    struct Flag {
        var target: Int
        var reason: String?
    }

    /// `review.added`: `review` (subject), `post` (object), `text` (text).
    struct ReviewAddition {
        var review: Int
        var post: Int
        var text: String?
    }

    /// `moderation.resolved`: `item` (subject), `action` (value), `note` (text).
    struct Resolution {
        var item: Int
        var action: String?
        var note: String?
    }

    /// `quickadd.shown`: `suggested` (list).
    struct QuickAddShown {
        var suggested: [Int]
    }

    var profile: Profile { Profile(provider: value, name: text) }
    var privacy: Privacy { Privacy(isPrivate: flag) }
    var follow: Follow { Follow(target: subject, via: value) }
    var postCreation: PostCreation {
        PostCreation(post: subject, kind: value, voting: flag, description: text, product: object, price: number, properties: properties)
    }
    var suggestion: Suggestion { Suggestion(product: subject, channel: value) }
    var vote: Vote { Vote(post: subject, verdict: value) }
    var flagging: Flag { Flag(target: subject, reason: text) }
    var reviewAddition: ReviewAddition { ReviewAddition(review: subject, post: object, text: text) }
    var resolution: Resolution { Resolution(item: subject, action: value, note: text) }
    var quickAddShown: QuickAddShown { QuickAddShown(suggested: list) }
}
