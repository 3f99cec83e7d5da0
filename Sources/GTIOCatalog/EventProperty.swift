/// One element of a nested or multi-valued `data` field, kept as a row of its own so that read
/// models and analysts never parse the stored JSON again: each brand of a post
/// (`brands`, position 0, 1 …), its place (`location.name`, `location.lat`, `location.lon`).
public struct EventProperty: Sendable, Equatable, Hashable {
    /// The field's path in `data`, dotted for a nested one.
    public var name: String
    /// The element's place in a list; 0 for a single value.
    public var position: Int
    /// The value when it is text.
    public var text: String?
    /// The value when it is a number.
    public var number: Double?

    public init(name: String, position: Int = 0, text: String? = nil, number: Double? = nil) {
        self.name = name
        self.position = position
        self.text = text
        self.number = number
    }

    /// The names the validator extracts, for documentation and completion.
    public static let brands = "brands"
    public static let locationName = "location.name"
    public static let locationLatitude = "location.lat"
    public static let locationLongitude = "location.lon"
}
