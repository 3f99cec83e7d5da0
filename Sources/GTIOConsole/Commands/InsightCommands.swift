import ArgumentParser
import Foundation
import GTIOReports
import GTIOInsights
import GTIOTables

/// A command whose answer is an insight's table, in the long form CSV and JSON give: what
/// `insight run` and the nightly report's saved insights ask for.
protocol InsightAnswering: ParsableCommand {
    /// The query options the answer honours (format, output, view).
    var query: QueryOptions { get }
    /// Where to write the answer's figure as SVG, if anywhere.
    var chart: String? { get }
    /// nil when this invocation is not an insight (`funnel` without steps).
    func answer() throws -> ResultTable?
    /// The answer as a person reads it on a terminal.
    func readable(_ table: ResultTable) -> ResultTable
}

extension InsightAnswering {
    func run() throws {
        guard let table = try answer() else { return }
        if let chart { try writeChart(table, to: chart) }
        try query.emit(query.forReader ? readable(table) : table)
    }

    /// Writes the answer's figure, titled by the command's name, as a self-contained SVG file.
    func writeChart(_ table: ResultTable, to path: String) throws {
        guard let svg = InsightChart.svg(table, title: Self.configuration.commandName ?? "insight") else {
            throw ConsoleError.badArgument("--chart: this answer has no figure")
        }
        try OutputFile.write(Data(svg.utf8), to: path, option: "--chart")
        Terminal.writeError("wrote the chart to \(path)\n")
    }

    /// The long form, by default.
    func readable(_ table: ResultTable) -> ResultTable { table }
}

/// `trend SELECTOR`: how a number moves over time.
struct TrendCommand: InsightAnswering {
    static let configuration = CommandConfiguration(
        commandName: "trend",
        abstract: "How a number moves over time: events, users, devices, or a sum or average, per day, week or month.",
        discussion: """
            SELECTOR is a type, types joined by commas, or *, with optional filters in brackets: \
            post.voted[verdict=wear_it]. Columns bucket,group,value. Example: \
            gtio -c 'trend post.shared --by channel --interval week'
            """)
    @Argument(help: ArgumentHelp("The events to count.", valueName: "selector")) var selector: String
    @Option(help: "events, users, devices, sum:PROP or avg:PROP.") var measure = "events"
    @Option(help: ArgumentHelp("Split each bucket by this property.", valueName: "prop")) var by: String?
    @Option(help: "day, week (ISO, labelled by its Monday) or month.") var interval = "day"
    @Option(parsing: .unconditional, help: "Groups kept by their total; the rest are summed into (other) (0: all).") var top = 10
    @OptionGroup var options: InsightOptions

    var query: QueryOptions { options.query }
    var chart: String? { options.chart }

    func answer() throws -> ResultTable? {
        try insight {
            var trend = TrendInsight(selector: try EventSelector(selector))
            trend.measure = try InsightMeasure(measure)
            trend.by = try by.map { try InsightProperty($0) }
            guard let interval = InsightInterval(rawValue: interval) else {
                throw InsightError.badOption("--interval: \"\(interval)\" is not day, week or month")
            }
            trend.interval = interval
            trend.top = try checkedTop(top, "--top")
            trend.filters = try options.parsedFilters()
            let (reader, window) = try options.reader()
            return try trend.run(reader, window: window)
        }
    }

    /// Buckets down and groups across, with a total for counts and sums and a sparkline.
    func readable(_ table: ResultTable) -> ResultTable {
        InsightTables.pivoted(table, totals: measure == "events" || measure.hasPrefix("sum:"))
    }
}

/// `breakdown SELECTOR --by PROP`: one number per value of a property.
struct BreakdownCommand: InsightAnswering {
    static let configuration = CommandConfiguration(
        commandName: "breakdown",
        abstract: "One number per value of a property over the window, with its share.",
        discussion: "Columns group,value,share. Example: gtio -c 'breakdown post.flagged --by reason'")
    @Argument(help: ArgumentHelp("The events to count.", valueName: "selector")) var selector: String
    @Option(help: ArgumentHelp("The property to split by.", valueName: "prop")) var by: String
    @Option(help: "events, users, devices, sum:PROP or avg:PROP.") var measure = "events"
    @Option(parsing: .unconditional, help: "Rows kept; the rest are summed into (other) (0: all).") var top = 20
    @OptionGroup var options: InsightOptions

    var query: QueryOptions { options.query }
    var chart: String? { options.chart }

    func answer() throws -> ResultTable? {
        try insight {
            var breakdown = BreakdownInsight(selector: try EventSelector(selector), by: try InsightProperty(by))
            breakdown.measure = try InsightMeasure(measure)
            breakdown.top = try checkedTop(top, "--top")
            breakdown.filters = try options.parsedFilters()
            let (reader, window) = try options.reader()
            return try breakdown.run(reader, window: window)
        }
    }
}

/// `top DIMENSION`: the biggest values of any property.
struct TopCommand: InsightAnswering {
    static let configuration = CommandConfiguration(
        commandName: "top",
        abstract: "The biggest values of any property over every event of the window (breakdown * --by it, less (none)).",
        discussion: "Example: gtio -c 'top brands', gtio -c 'top product --where type=product.hearted'")
    @Argument(help: ArgumentHelp("The property.", valueName: "dimension")) var dimension: String
    @Option(help: "events, users, devices, sum:PROP or avg:PROP.") var measure = "events"
    @Option(parsing: .unconditional, help: "How many (0: all).", transform: Limit.parse) var limit = 20
    @OptionGroup var options: InsightOptions

    var query: QueryOptions { options.query }
    var chart: String? { options.chart }

    func answer() throws -> ResultTable? {
        try insight {
            var breakdown = BreakdownInsight(selector: try EventSelector("*"), by: try InsightProperty(dimension))
            breakdown.measure = try InsightMeasure(measure)
            breakdown.top = try checkedTop(limit, "--limit")
            breakdown.leavesOutNone = true
            breakdown.filters = try options.parsedFilters()
            let (reader, window) = try options.reader()
            return try breakdown.run(reader, window: window)
        }
    }
}

/// `paths`: where people go between screens.
struct PathsCommand: InsightAnswering {
    static let configuration = CommandConfiguration(
        commandName: "paths",
        abstract: "Where people go between /Tracking screens: transitions by step, in sessions cut by 30 idle minutes.",
        discussion: "Columns step,from,to,actors,paths. Example: gtio -c 'paths --start track[name=Feed] --depth 3'")
    @Option(help: ArgumentHelp("Begin each session's path at its first event matching this.", valueName: "selector"))
    var start: String?
    @Option(parsing: .unconditional, help: "Names in a path (2 or more).") var depth = 4
    @Option(parsing: .unconditional, help: "Transitions kept per step (0: all).") var top = 10
    @Option(help: "user or device.") var actor = "user"
    @OptionGroup var options: InsightOptions

    var query: QueryOptions { options.query }
    var chart: String? { options.chart }

    func answer() throws -> ResultTable? {
        try insight {
            var paths = PathsInsight()
            paths.start = try start.map { try EventSelector($0) }
            paths.depth = depth
            paths.top = try checkedTop(top, "--top")
            guard let actor = InsightActor(rawValue: actor) else { throw InsightError.badOption("--actor: \"\(actor)\" is not user or device") }
            paths.actor = actor
            paths.filters = try options.parsedFilters()
            let (reader, window) = try options.reader()
            return try paths.run(reader, window: window)
        }
    }
}
