/// Every event type of EVENTS.md §2, under the names producers send.
public enum EventType: String, Sendable, CaseIterable, Hashable {
    case appOpened = "app.opened"
    case track = "track"
    case userSignedUp = "user.signed_up"
    case userSignedIn = "user.signed_in"
    case userSignInFailed = "user.sign_in_failed"
    case userSignedOut = "user.signed_out"
    case userProfileCompleted = "user.profile_completed"
    case userProfileUpdated = "user.profile_updated"
    case userPrivacyChanged = "user.privacy_changed"
    case userFollowed = "user.followed"
    case userUnfollowed = "user.unfollowed"
    case followApproved = "follow.approved"
    case followDeclined = "follow.declined"
    case userBlocked = "user.blocked"
    case userUnblocked = "user.unblocked"
    case quickaddShown = "quickadd.shown"
    case quickaddSkipped = "quickadd.skipped"
    case postCreated = "post.created"
    case postDeleted = "post.deleted"
    case postHearted = "post.hearted"
    case postUnhearted = "post.unhearted"
    case postVoted = "post.voted"
    case postFlagged = "post.flagged"
    case postShared = "post.shared"
    case reviewAdded = "review.added"
    case reviewAgreed = "review.agreed"
    case reviewFlagged = "review.flagged"
    case reviewRemoved = "review.removed"
    case productHearted = "product.hearted"
    case productUnhearted = "product.unhearted"
    case productSuggested = "product.suggested"
    case inviteSent = "invite.sent"
    case shoppingListAdded = "shopping_list.added"
    case shoppingListRemoved = "shopping_list.removed"
    case shoppingListEmailed = "shopping_list.emailed"
    case notificationSeen = "notification.seen"
    case moderationResolved = "moderation.resolved"

    /// Whether the envelope must carry `user`: all but anonymous tracking and failed sign-ins.
    public var requiresUser: Bool {
        switch self {
        case .track, .appOpened, .userSignInFailed: false
        default: true
        }
    }

    private static let byName: [String: EventType] = Dictionary(
        uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })

    /// The type named `name`, looked up in a table built once.
    public static func named(_ name: String) -> EventType? { byName[name] }
}
