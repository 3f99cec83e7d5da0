import GTIOCatalog

/// A property an insight reads of an event (INSIGHTS.md §2): an envelope field, a time part, a
/// `data` field by its name, a post's place or brands, a track's `props.KEY`, or a fact of the
/// acting user's first sign-up.
public enum InsightProperty: Hashable, Sendable, CustomStringConvertible {
    case type, user, device, day, hour, weekday
    /// A `data` field by its name in the catalog: a property only of the types that have it.
    case field(String)
    /// `post.created`'s `location.name`.
    case location
    /// `track`'s `props.KEY`.
    case prop(String)
    case userProvider, userSignupDay

    /// What an absent value reads as.
    public static let none = "(none)"

    public init(_ name: String) throws(InsightError) {
        switch name {
        case "type": self = .type
        case "user": self = .user
        case "device": self = .device
        case "day": self = .day
        case "hour": self = .hour
        case "weekday": self = .weekday
        case "location": self = .location
        case "user.provider": self = .userProvider
        case "user.signup_day": self = .userSignupDay
        default:
            if name.hasPrefix("props."), name.count > 6 {
                self = .prop(String(name.dropFirst(6)))
            } else if Self.fieldNames.contains(name) {
                self = .field(name)
            } else {
                throw .unknownProperty(name, known: Self.knownNames)
            }
        }
    }

    public var description: String {
        switch self {
        case .type: "type"
        case .user: "user"
        case .device: "device"
        case .day: "day"
        case .hour: "hour"
        case .weekday: "weekday"
        case .field(let name): name
        case .location: "location"
        case .prop(let key): "props." + key
        case .userProvider: "user.provider"
        case .userSignupDay: "user.signup_day"
        }
    }

    /// Every `data` field name of the catalog.
    static let fieldNames: Set<String> = Set(EventType.allCases.flatMap { $0.fields.map(\.name) })

    /// The names a property may have, sorted (less `props.KEY`): for errors and completion.
    public static let knownNames: [String] = (["type", "user", "device", "day", "hour", "weekday", "location",
                                               "user.provider", "user.signup_day"] + fieldNames).uniqued().sorted()

    /// The types that can have a value of it; nil when every type can.
    var types: Set<EventType>? {
        switch self {
        case .field(let name): Set(EventType.allCases.filter { $0.fields.contains { $0.name == name } })
        case .location: [.postCreated]
        case .prop: [.track]
        default: nil
        }
    }

    /// Whether its values come from the acting user's first sign-up rather than the event.
    var needsSignups: Bool { self == .userProvider || self == .userSignupDay }
}

extension Array where Element: Hashable {
    /// The elements in order, each once.
    func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}

extension Array<String> {
    /// The values in order, each once, told apart by their bytes: values compare as exact text.
    func uniquedExactly() -> [String] { map(ExactText.init).uniqued().map(\.text) }
}
