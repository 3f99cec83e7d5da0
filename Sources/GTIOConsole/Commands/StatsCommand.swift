import ArgumentParser
import GTIOCatalog
import GTIOProjections

/// `stats [--date D]`: engagement of one UTC day.
struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "DAU, WAU, MAU, sign-ups by provider and applied actions of one UTC day.",
        discussion: "The day defaults to the day of \"now\" (the newest event, or --as-of).")
    @Option(help: ArgumentHelp("The UTC day, YYYY-MM-DD.", valueName: "date")) var date: String?
    @OptionGroup var query: QueryOptions

    static let providers = ["facebook", "aol", "google", "twitter", "yahoo"]

    func run() throws {
        let models = try query.readModels()
        var day = models.today
        if let date {
            guard let start = Timestamp(date: date) else {
                throw ConsoleError.badArgument("--date: \"\(date)\" is not a date (expected YYYY-MM-DD)")
            }
            day = start.day
        }
        let figures = models.engagement(on: day)
        var columns = ["date", "dau", "wau", "mau", "devices", "signups"]
        var row: [Cell] = [.text(figures.date), .integer(Int64(figures.dau)), .integer(Int64(figures.wau)),
                           .integer(Int64(figures.mau)), .integer(Int64(figures.devices)),
                           .integer(Int64(figures.signups.values.reduce(0, +)))]
        for provider in Self.providers {
            columns.append("signups_\(provider)")
            row.append(.integer(Int64(figures.signups[provider] ?? 0)))
        }
        for action in CommunityState.Action.allCases {
            columns.append(action.rawValue)
            row.append(.integer(Int64(figures.actions[action] ?? 0)))
        }
        columns.append("events")
        row.append(.integer(Int64(figures.events)))
        // The moderation desk as of now: the queue, and how long decided items waited.
        let queue = models.moderationQueue()
        let waits = models.state.decisions.map { Double(max(0, $0.at - $0.firstFlagged)) / 3_600_000 }.sorted()
        func percentile(_ p: Double) -> Cell {
            waits.isEmpty ? .null : .number(waits[min(waits.count - 1, Int((Double(waits.count - 1) * p).rounded()))])
        }
        columns += ["queue", "queue_hidden", "decisions", "decision_median_h", "decision_p90_h"]
        row += [.integer(Int64(queue.count)), .integer(Int64(queue.filter(\.hidden).count)),
                .integer(Int64(waits.count)), percentile(0.5), percentile(0.9)]
        for (moderator, count) in Dictionary(grouping: models.state.decisions, by: \.moderator).mapValues(\.count).sorted(by: { $0.key < $1.key }) {
            columns.append("decisions_\(moderator)")
            row.append(.integer(Int64(count)))
        }
        let table = ResultTable(columns: columns, rows: [row])
        if query.format == .table && query.out == nil {
            // One day reads better down the page.
            try query.emit(ResultTable(columns: ["metric", "value"], rows: zip(columns, row).map { [.text($0), $1] }))
        } else {
            try query.emit(table)
        }
    }
}
