import GTIOCatalog

/// Parses the times people type: RFC 3339 (`2012-05-01T12:00:00Z`) or a bare UTC date,
/// which means the start of that day for `--since` and its end for `--until`/`--as-of`.
enum TimeArgument {
    static func parse(_ text: String, option: String, endOfDay: Bool) throws -> Timestamp {
        if let moment = Timestamp(rfc3339: text) { return moment }
        if let day = Timestamp(date: text) {
            return endOfDay ? Timestamp.endOfDay(day.day) : day
        }
        throw ConsoleError.badArgument(
            "\(option): \"\(text)\" is not a time (expected YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS[.fff]Z or ±HH:MM)")
    }
}
