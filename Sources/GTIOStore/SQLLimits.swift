/// Bounds on an analyst's statement, so that a runaway query (an endless recursive CTE, a
/// cross join) cannot hold the machine: at most `rows` rows kept, at most `seconds` of work,
/// and Ctrl-C (`Interruption`) stops it.
public struct SQLLimits: Sendable, Equatable {
    /// Rows kept; nil keeps all. The answer says when more were there.
    public var rows: Int?
    /// Seconds the statement may run; nil lets it run until Ctrl-C.
    public var seconds: Double?

    public init(rows: Int? = 10_000, seconds: Double? = 60) {
        self.rows = rows
        self.seconds = seconds
    }

    /// The bounds an analyst gets unless they ask otherwise.
    public static let standard = SQLLimits()
}
