import ArgumentParser
import GTIOAnalytics
import GTIOProjections

/// `prices`: what product posts ask (the Yellow House seed).
struct PricesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prices",
        abstract: "Prices of live product posts: min, median, mean, p90 and max, in all or by brand or place (Yellow House).",
        discussion: """
            p90 is the nearest rank (the ⌈9n/10⌉-th smallest). By brand, a post counts under each \
            of its brands; posts without a brand or place are left out of those groupings. \
            Example: gtio -c 'prices --by brand'
            """)
    @Option(help: ArgumentHelp("Group by brand or place (default: all posts as one group).", valueName: "brand|place"))
    var by: String?
    @Option(parsing: .unconditional, help: "How many groups (0: all).", transform: Limit.parse) var limit = 0
    @OptionGroup var query: QueryOptions

    func validate() throws {
        if let by, PriceGrouping(rawValue: by) == nil {
            throw ValidationError("--by: unknown grouping \"\(by)\" (expected brand or place)")
        }
    }

    func run() throws {
        var lines = try query.withStoredModels(reading: .prices) { try $0.prices(by: by.flatMap(PriceGrouping.init(rawValue:))) }
        if let limit = try checkedLimit(limit) { lines = Array(lines.prefix(limit)) }
        try query.emit(AnswerTable.prices(lines))
    }
}
