/// One `data` field of an event type, as EVENTS.md §2 lists it.
public struct FieldSpec: Sendable, Equatable {
    public var name: String
    public var kind: FieldKind
    public var isRequired: Bool
    /// The typed store column the field is kept in, so read models never parse JSON again;
    /// nil where only the stored original keeps it.
    public var column: EventColumn?

    public init(_ name: String, _ kind: FieldKind, required: Bool = true, column: EventColumn? = nil) {
        self.name = name
        self.kind = kind
        self.isRequired = required
        self.column = column
    }
}

/// What a field's value may be (EVENTS.md §2 and §4).
public enum FieldKind: Sendable, Equatable {
    /// An opaque id: a string of 1–64 Unicode code points.
    case id
    /// Any string, empty included.
    case string
    case bool
    /// An integer written without fraction or exponent, one of `allowed`.
    case integer(allowed: [Int64])
    /// Any number not below `minimum`.
    case number(minimum: Double?)
    /// A string, one of `values`.
    case enumeration([String])
    /// An array of ids.
    case idList
    /// An array of strings.
    case stringList
    /// Any JSON object.
    case object
    /// `{name: string, lat?: number, lon?: number}`.
    case location
    /// `"post:<id>"` or `"review:<id>"`.
    case item

    /// The maximum length of an id in Unicode code points.
    public static let maximumIDLength = 64
}

/// The typed columns of a stored event beside `type`, `at`, `user` and `device`.
public enum EventColumn: String, Sendable, CaseIterable {
    /// The thing acted on: a post, review, product, notification, moderation item or other user.
    case subject
    /// A second reference: the post of a review, the product of a post, the recipient of a suggestion, a screen.
    case object
    /// A short enumerated value: provider, verdict, kind, channel, via, action, tracking name.
    case value
    /// A boolean: voting, private, first_launch.
    case flag
    /// A number: price.
    case number
    /// Free text: a name, description, review text, reason or note.
    case text
    /// A list of user ids: the users quick-add showed.
    case list
    /// Rows of `EventProperty`: every field no other column keeps (brands, location, frames,
    /// a track's props, a profile's bio …), one row per element of a list or member of props.
    case properties
}
