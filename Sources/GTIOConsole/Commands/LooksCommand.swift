import ArgumentParser
import GTIOAnalytics
import GTIOProjections
import GTIOTables

/// `looks [popular|new|top|wear-it]`: the ranked looks of 9.1.
struct LooksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "looks",
        abstract: "Rank looks: popular, new, top or wear-it (9.1).",
        discussion: "Example: gtio -c 'looks popular --limit 20 --as-of 2012-05-01'")

    @Argument(help: ArgumentHelp("popular, new, top or wear-it.", valueName: "tab")) var tab: String = "popular"
    @Option(parsing: .unconditional, help: "How many (0: all).", transform: Limit.parse) var limit = 20
    @Option(help: ArgumentHelp("Only looks taken at this place (its location name exactly).", valueName: "name")) var place: String?
    @OptionGroup var query: QueryOptions

    func validate() throws {
        guard LooksTab(rawValue: tab) != nil else {
            throw ValidationError("unknown tab \"\(tab)\" (expected popular, new, top or wear-it)")
        }
    }

    func run() throws {
        let looks = try query.withStoredModels(reading: .looks) { try $0.looks(LooksTab(rawValue: tab)!, limit: try checkedLimit(limit), place: place) }
        try query.emit(AnswerTable.looks(looks))
    }
}
