import ArgumentParser
import GTIOCatalog

/// `--from D --to D`: a range of UTC days, each end optional.
struct DayRangeOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The first UTC day, YYYY-MM-DD (default: the first in the log).", valueName: "date"))
    var from: String?
    @Option(help: ArgumentHelp("The last UTC day, YYYY-MM-DD (default: the last in view).", valueName: "date"))
    var to: String?

    func validate() throws {
        for (name, value) in [("--from", from), ("--to", to)] {
            if let value, Timestamp(date: value) == nil {
                throw ValidationError("\(name): \"\(value)\" is not a date (expected YYYY-MM-DD)")
            }
        }
        if let first = from.flatMap(Timestamp.init(date:)), let last = to.flatMap(Timestamp.init(date:)), first > last {
            throw ValidationError("--from \(from!) is after --to \(to!)")
        }
    }

    var firstDay: Int64? { from.flatMap(Timestamp.init(date:))?.day }
    var lastDay: Int64? { to.flatMap(Timestamp.init(date:))?.day }

    /// The options as given, for messages ("--from 2012-05-01 --to 2012-05-07").
    var asked: String {
        [("--from", from), ("--to", to)].compactMap { name, value in value.map { "\(name) \($0)" } }.joined(separator: " ")
    }

    /// The days asked for, an end not given left open; nil when neither was given.
    var days: ClosedRange<Int64>? {
        if from == nil && to == nil { return nil }
        return (firstDay ?? Int64.min / 2)...(lastDay ?? Int64.max / 2)
    }
}
