import ArgumentParser
import GTIOCatalog
import GTIOInsights
import GTIOProjections

/// What every insight takes beside its own options: `--where` filters, the window of days, and
/// the query options (format, output, as-of).
struct InsightOptions: ParsableArguments {
    @Option(name: .customLong("where"), help: ArgumentHelp(
        "Keep only events with PROP=VALUE (or PROP!=VALUE); repeatable, all must hold.", valueName: "filter"))
    var filters: [String] = []
    @Option(help: ArgumentHelp("The first UTC day, YYYY-MM-DD (default: 29 days before --to).", valueName: "date"))
    var from: String?
    @Option(help: ArgumentHelp("The last UTC day, YYYY-MM-DD (default: the day of now).", valueName: "date"))
    var to: String?
    @Option(help: ArgumentHelp("Also write the answer's figure to this SVG file.", valueName: "file.svg")) var chart: String?
    @OptionGroup var query: QueryOptions

    func validate() throws {
        for (name, value) in [("--from", from), ("--to", to)] {
            if let value, Timestamp(date: value) == nil {
                throw ValidationError("\(name): \"\(value)\" is not a date (expected YYYY-MM-DD)")
            }
        }
    }

    /// The `--where` filters, parsed.
    func parsedFilters() throws -> [PropertyFilter] {
        try filters.map { text in try insight { try PropertyFilter(text) } }
    }

    /// The reader of the view asked for, and the window in it.
    func reader() throws -> (InsightReader, InsightWindow) { try insightReader(query, from: from, to: to) }
}

/// The reader of the view `query` asks for, and the window of `from`…`to` in it.
func insightReader(_ query: QueryOptions, from: String?, to: String?) throws -> (InsightReader, InsightWindow) {
    let view: InsightView = switch try query.view {
    case .latest: InsightView()
    case .asOf(let moment): InsightView(asOf: moment.milliseconds)
    case .atSeq(let seq): InsightView(throughSeq: seq)
    }
    let reader = InsightReader(store: try query.storeOptions.openForReading(), view: view)
    let window = try insight {
        try InsightWindow.resolve(
            from: from.flatMap(Timestamp.init(date:))?.day, to: to.flatMap(Timestamp.init(date:))?.day, reader: reader)
    }
    return (reader, window)
}

/// Runs `body`, turning an insight's error into bad usage (exit 2) with its words.
func insight<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as InsightError {
        throw ConsoleError.badArgument(error.description)
    }
}

/// `--top N` / `--limit N`: 0 means no limit.
func checkedTop(_ value: Int, _ name: String) throws -> Int {
    guard value >= 0 else { throw ValidationError("\(name) must be 0 (no limit) or more, got \(value)") }
    return value
}
