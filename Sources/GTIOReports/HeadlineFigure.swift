/// One headline number of the report, with the same figure a day and a week before (nil when
/// that day is before the log begins: no data is not zero).
public struct HeadlineFigure: Sendable, Equatable {
    public var name: String
    public var value: Int
    public var dayBefore: Int?
    public var weekBefore: Int?

    /// The change to `value` from `earlier`, signed, and as a percentage of `earlier` when it is not 0.
    public static func change(from earlier: Int, to value: Int) -> (difference: Int, percent: Double?) {
        (value - earlier, earlier == 0 ? nil : Double(value - earlier) * 100 / Double(earlier))
    }
}
