import ArgumentParser
import GTIOAnalytics
import GTIOProjections

/// `flaggers`: who flags, and how often a moderator's decision agreed.
struct FlaggersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flaggers",
        abstract: "Who flags: items flagged, upheld by a removal, dismissed, and accuracy.",
        discussion: """
            upheld and dismissed count the items decided while the user's flag on them was open; \
            accuracy = upheld / (upheld + dismissed), empty when no decision touched their flags.
            """)
    @Option(parsing: .unconditional, help: "How many (0: all).", transform: Limit.parse) var limit = 20
    @OptionGroup var query: QueryOptions

    func run() throws {
        try query.emit(AnswerTable.flaggers(try query.withStoredModels(reading: .flaggers) { try $0.flaggers(limit: try checkedLimit(limit)) }))
    }
}
