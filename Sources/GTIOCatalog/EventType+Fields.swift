extension EventType {
    /// The sign-in providers, in the order of EVENTS.md §2.
    public static let providers = ["facebook", "aol", "google", "twitter", "yahoo"]

    /// The channels a product is suggested through (4.2–4.6), in the contract's order.
    public static let suggestionChannels = ["gtio", "sms", "email", "facebook"]

    /// The `data` fields of this type in the order of EVENTS.md §2, which is also the order
    /// in which they are checked (§4: a line has one reason, the first check that fails).
    public var fields: [FieldSpec] { Self.fieldTable[self]! }

    /// The columns this type keeps its fields in: a scan reads only those, as every column
    /// read costs a call into the database per event.
    public var columns: EventColumns { Self.columnsByCase[caseIndex] }

    /// Whether this type's `subject` is another user (a follow, a block and their answers),
    /// rather than a post, review or product.
    public var targetsUser: Bool {
        switch self {
        case .userFollowed, .userUnfollowed, .followApproved, .followDeclined, .userBlocked, .userUnblocked: true
        default: false
        }
    }

    private static let columnsByCase: [EventColumns] = allCases.map { type in
        EventColumns(type.fields.compactMap(\.column))
    }

    private static let fieldTable: [EventType: [FieldSpec]] = [
        .appOpened: [
            FieldSpec("first_launch", .bool, column: .flag),
            FieldSpec("upgraded_from", .string, required: false, column: .text),
        ],
        .track: [
            FieldSpec("name", .string, column: .value),
            FieldSpec("screen", .string, required: false, column: .object),
            FieldSpec("props", .object, required: false, column: .properties),
        ],
        .userSignedUp: [
            FieldSpec("provider", .enumeration(providers), column: .value),
            FieldSpec("name", .string, column: .text),
        ],
        .userSignedIn: [FieldSpec("provider", .enumeration(providers), column: .value)],
        .userSignInFailed: [
            FieldSpec("provider", .enumeration(providers), column: .value),
            FieldSpec("reason", .string, required: false, column: .text),
        ],
        .userSignedOut: [],
        .userProfileCompleted: [],
        .userProfileUpdated: [
            FieldSpec("name", .string, required: false, column: .text),
            FieldSpec("location", .string, required: false, column: .properties),
            FieldSpec("bio", .string, required: false, column: .properties),
            FieldSpec("website", .string, required: false, column: .properties),
        ],
        .userPrivacyChanged: [FieldSpec("private", .bool, column: .flag)],
        .userFollowed: [
            FieldSpec("target", .id, column: .subject),
            FieldSpec("via", .enumeration(["quickadd", "suggested", "profile", "search", "hearts", "feed"]),
                      required: false, column: .value),
        ],
        .userUnfollowed: [FieldSpec("target", .id, column: .subject)],
        .followApproved: [FieldSpec("follower", .id, column: .subject)],
        .followDeclined: [FieldSpec("follower", .id, column: .subject)],
        .userBlocked: [FieldSpec("target", .id, column: .subject)],
        .userUnblocked: [FieldSpec("target", .id, column: .subject)],
        .quickaddShown: [FieldSpec("suggested", .idList, column: .list)],
        .quickaddSkipped: [],
        .postCreated: [
            FieldSpec("post", .id, column: .subject),
            FieldSpec("kind", .enumeration(["outfit", "product"]), column: .value),
            FieldSpec("voting", .bool, column: .flag),
            FieldSpec("description", .string, required: false, column: .text),
            FieldSpec("brands", .stringList, required: false, column: .properties),
            FieldSpec("frames", .integer(allowed: [1, 3]), required: false, column: .properties),
            FieldSpec("product", .id, required: false, column: .object),
            FieldSpec("price", .number(minimum: 0), required: false, column: .number),
            FieldSpec("location", .location, required: false, column: .properties),
        ],
        .postDeleted: [FieldSpec("post", .id, column: .subject)],
        .postHearted: [FieldSpec("post", .id, column: .subject)],
        .postUnhearted: [FieldSpec("post", .id, column: .subject)],
        .postVoted: [
            FieldSpec("post", .id, column: .subject),
            FieldSpec("verdict", .enumeration(["wear_it", "change_it"]), column: .value),
        ],
        .postFlagged: [
            FieldSpec("post", .id, column: .subject),
            FieldSpec("reason", .string, required: false, column: .text),
        ],
        .postShared: [
            FieldSpec("post", .id, column: .subject),
            FieldSpec("channel", .enumeration(["twitter", "facebook"]), column: .value),
        ],
        .reviewAdded: [
            FieldSpec("review", .id, column: .subject),
            FieldSpec("post", .id, column: .object),
            FieldSpec("text", .string, column: .text),
        ],
        .reviewAgreed: [FieldSpec("review", .id, column: .subject)],
        .reviewFlagged: [FieldSpec("review", .id, column: .subject)],
        .reviewRemoved: [FieldSpec("review", .id, column: .subject)],
        .productHearted: [FieldSpec("product", .id, column: .subject)],
        .productUnhearted: [FieldSpec("product", .id, column: .subject)],
        .productSuggested: [
            FieldSpec("product", .id, column: .subject),
            FieldSpec("channel", .enumeration(suggestionChannels), column: .value),
            FieldSpec("to", .id, required: false, column: .object),
        ],
        .inviteSent: [FieldSpec("channel", .enumeration(["sms", "email", "facebook"]), column: .value)],
        .shoppingListAdded: [FieldSpec("product", .id, column: .subject)],
        .shoppingListRemoved: [FieldSpec("product", .id, column: .subject)],
        .shoppingListEmailed: [],
        .notificationSeen: [FieldSpec("notification", .id, column: .subject)],
        .moderationResolved: [
            FieldSpec("item", .item, column: .subject),
            FieldSpec("action", .enumeration(["remove", "dismiss"]), column: .value),
            FieldSpec("note", .string, required: false, column: .text),
        ],
    ]
}

/// A set of `EventColumn`s, as bits.
public struct EventColumns: OptionSet, Sendable {
    public let rawValue: UInt8

    @inlinable public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    public init(_ columns: [EventColumn]) {
        self.init(rawValue: columns.reduce(0) { $0 | 1 << unsafeBitCast($1, to: UInt8.self) })
    }

    // Constants the compiler sees through from other modules: as `static let`s, a scan paid a
    // call to check their one-time initialization each time it asked a row's type for one.
    @inlinable public static var subject: EventColumns { EventColumns(rawValue: 1 << 0) }
    @inlinable public static var object: EventColumns { EventColumns(rawValue: 1 << 1) }
    @inlinable public static var value: EventColumns { EventColumns(rawValue: 1 << 2) }
    @inlinable public static var flag: EventColumns { EventColumns(rawValue: 1 << 3) }
    @inlinable public static var number: EventColumns { EventColumns(rawValue: 1 << 4) }
    @inlinable public static var text: EventColumns { EventColumns(rawValue: 1 << 5) }
    @inlinable public static var list: EventColumns { EventColumns(rawValue: 1 << 6) }
    @inlinable public static var properties: EventColumns { EventColumns(rawValue: 1 << 7) }
}
