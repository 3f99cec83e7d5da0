import Foundation

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

    /// Hashes the case, not its name: a `String`-backed enum otherwise hashes its raw value,
    /// and a fold hashes a type or an action per event.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(caseIndex)
    }

    /// The case's place in `allCases` (declaration order), which is how it is stored: for
    /// tables indexed by type.
    public var caseIndex: Int { Int(unsafeBitCast(self, to: UInt8.self)) }

    private static let byName: [String: EventType] = Dictionary(
        uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })

    /// The type named `name`, looked up in a table built once.
    public static func named(_ name: String) -> EventType? { byName[name] }

    /// The type whose name is these UTF-8 bytes: a scan reads a type per event straight from
    /// SQLite, where making a `String` first (longer names are heap-allocated) and hashing it
    /// cost more than the rest of keying the event.
    public static func named(utf8 bytes: UnsafeBufferPointer<UInt8>) -> EventType? {
        var slot = Int(fnv1a(bytes) & UInt64(bySlot.count - 1))
        while let entry = bySlot[slot] {
            if entry.name.count == bytes.count,
               entry.name.withUnsafeBufferPointer({ memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }) {
                return entry.type
            }
            slot = (slot + 1) & (bySlot.count - 1)
        }
        return nil
    }

    /// Open addressing over the names' FNV-1a hashes, at most a quarter full.
    private static let bySlot: [(type: EventType, name: [UInt8])?] = {
        var slots = [(type: EventType, name: [UInt8])?](repeating: nil, count: 256)
        precondition(allCases.count * 4 <= slots.count, "the type table needs more slots")
        for type in allCases {
            let name = Array(type.rawValue.utf8)
            var slot = Int(name.withUnsafeBufferPointer(fnv1a) & UInt64(slots.count - 1))
            while slots[slot] != nil { slot = (slot + 1) & (slots.count - 1) }
            slots[slot] = (type, name)
        }
        return slots
    }()

    private static func fnv1a(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return hash
    }
}
