import ArgumentParser
import GTIOAnalytics
import GTIOInsights
import GTIOTables
import GTIOProjections

/// `retention`: sign-up cohorts and how many came back on day 1, 7 and 30.
struct RetentionCommand: InsightAnswering {
    static let configuration = CommandConfiguration(
        commandName: "retention",
        abstract: "Retention by sign-up day, or of any start and return events.",
        discussion: """
            Without --start: users active again 1, 7 and 30 days after signing up; columns stay empty \
            while that day has not begun. Example: gtio -c 'retention --from 2012-05-01'. With --start \
            and --return (selectors): cohorts by the day or week of each user's first start event in the \
            window, and who had a return event N intervals later; columns cohort,size,period,retained,share. \
            Example: gtio -c 'retention --start user.signed_up --return post.created --interval week'
            """)
    @Option(help: ArgumentHelp("The event that puts a user in a cohort.", valueName: "selector")) var start: String?
    @Option(name: .customLong("return"), help: ArgumentHelp("The event that counts as coming back.", valueName: "selector"))
    var comeback: String?
    @Option(help: "With --start: day or week.") var interval: String?
    @Option(parsing: .unconditional, help: ArgumentHelp("With --start: periods after the cohort's (default 7 days or 4 weeks).", valueName: "N")) var periods: Int?
    @Option(name: .customLong("where"), help: ArgumentHelp("With --start: keep only events with PROP=VALUE or PROP!=VALUE.", valueName: "filter"))
    var filters: [String] = []
    @Option(help: ArgumentHelp("With --start: also write the cohorts' figure to this SVG file.", valueName: "file.svg"))
    var chart: String?
    @OptionGroup var range: DayRangeOptions
    @OptionGroup var query: QueryOptions

    func run() throws {
        if let table = try answer() {
            if let chart { try writeChart(table, to: chart) }
            return try query.emit(table)
        }
        if interval != nil || periods != nil || !filters.isEmpty || chart != nil {
            throw ValidationError("--interval, --periods, --where and --chart need --start and --return")
        }
        try query.emit(AnswerTable.retention(try query.withStoredModels(reading: .cohorts) { models in
            if let days = range.days { try query.noteDaysOutsideLog(days, asked: range.asked, models) }
            return try models.retention(cohorts: range.days)
        }))
    }

    /// The retention of the start and return events; nil without them (sign-up cohorts).
    func answer() throws -> ResultTable? {
        guard start != nil || comeback != nil else { return nil }
        guard let start, let comeback else { throw ValidationError("give both --start SELECTOR and --return SELECTOR") }
        if let periods, periods < 1 { throw ValidationError("--periods must be 1 or more, got \(periods)") }
        return try insight {
            var retention = RetentionInsight(start: try EventSelector(start), comeback: try EventSelector(comeback))
            if let interval {
                guard let kind = InsightInterval(rawValue: interval), kind != .month else {
                    throw InsightError.badOption("--interval: \"\(interval)\" is not day or week")
                }
                retention.interval = kind
            }
            retention.periods = periods
            retention.filters = try filters.map { try PropertyFilter($0) }
            let (reader, window) = try insightReader(query, from: range.from, to: range.to)
            return try retention.run(reader, window: window)
        }
    }
}
