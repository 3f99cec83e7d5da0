import ArgumentParser
import GTIOAnalytics
import GTIOCatalog
import GTIOInsights
import GTIOTables
import GTIOProjections

/// `funnel`: the onboarding funnel of devices by the day of their first `app.opened`; with
/// steps, how many actors go through them in order (an insight).
struct FunnelCommand: InsightAnswering {
    static let configuration = CommandConfiguration(
        commandName: "funnel",
        abstract: "The onboarding funnel, or how many go through STEP STEP … in order.",
        discussion: """
            Without steps: app opened → signed up → profile completed → quick-add follow within 7 days, \
            devices taken by the UTC day of their first app.opened (a user joins the device of their \
            sign-up). Example: gtio -c 'funnel --from 2012-05-01 --by-day'. With steps (selectors): the \
            actors whose first step-1 event lies in the window, and how many then matched each next step \
            in order within --within; columns step,selector,group,actors,conversion,from_previous,median_hours. \
            Example: gtio -c 'funnel track[name=Upload] post.created --within 1h'
            """)
    @Argument(help: ArgumentHelp("Two or more selectors, in order (none: the onboarding funnel).", valueName: "step"))
    var steps: [String] = []
    @Option(parsing: .unconditional, help: ArgumentHelp("With steps: how long after entering the later steps may come (30m, 12h, 7d).", valueName: "duration"))
    var within: String?
    @Option(help: ArgumentHelp("With steps: split actors by this property of their entry event.", valueName: "prop")) var by: String?
    @Option(help: "With steps: user or device.") var actor: String?
    @Option(name: .customLong("where"), help: ArgumentHelp("With steps: keep only events with PROP=VALUE or PROP!=VALUE.", valueName: "filter"))
    var filters: [String] = []
    @Option(help: ArgumentHelp("With steps: also write the funnel's figure to this SVG file.", valueName: "file.svg")) var chart: String?
    @OptionGroup var range: DayRangeOptions
    @Flag(help: "One row per first-open day instead of one row per step.") var byDay = false
    @OptionGroup var query: QueryOptions

    func run() throws {
        if let table = try answer() {
            if let chart { try writeChart(table, to: chart) }
            return try query.emit(query.forReader ? readable(table) : table)
        }
        if within != nil || by != nil || actor != nil || !filters.isEmpty {
            throw ValidationError("--within, --by, --actor and --where need steps (e.g. funnel post.created post.hearted --within 1d)")
        }
        try query.withStoredModels(reading: .onboarding) { models in
            if let days = range.days { try query.noteDaysOutsideLog(days, asked: range.asked, models) }
            if byDay {
                guard let first = try range.firstDay ?? models.firstOpenDay(), case let last = range.lastDay ?? models.today, first <= last else {
                    return try query.emit(AnswerTable.funnelByDay([]))
                }
                try insight { try InsightWindow.checkSpan(first, last) }
                try query.emit(AnswerTable.funnelByDay(models.onboardingFunnelByDay(first...last)))
            } else {
                try query.emit(AnswerTable.funnel(models.onboardingFunnel(firstOpenedOn: range.days)))
            }
        }
    }

    /// The funnel of the steps; nil without steps (the onboarding funnel).
    func answer() throws -> ResultTable? {
        guard !steps.isEmpty else { return nil }
        if byDay { throw ValidationError("--by-day is for the onboarding funnel, not for steps") }
        return try insight {
            var funnel = try FunnelInsight(steps: try steps.map { try EventSelector($0) })
            if let within { funnel.within = try InsightDuration.milliseconds(within) }
            funnel.by = try by.map { try InsightProperty($0) }
            if let actor {
                guard let kind = InsightActor(rawValue: actor) else { throw InsightError.badOption("--actor: \"\(actor)\" is not user or device") }
                funnel.actor = kind
            }
            funnel.filters = try filters.map { try PropertyFilter($0) }
            let (reader, window) = try insightReader(query, from: range.from, to: range.to)
            return try funnel.run(reader, window: window)
        }
    }

    /// A bar per step.
    func readable(_ table: ResultTable) -> ResultTable { InsightTables.withBars(table) }
}
