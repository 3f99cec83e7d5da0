import ArgumentParser
import GTIOAnalytics
import GTIOProjections
import GTIOTables

/// Prints one side of a user's follow graph: shared by `followers` and `following`.
private func emitFollowList(
    _ user: String, limit: Int, query: QueryOptions,
    list: (StoredReadModels) -> (String, Int?) throws -> [(user: String, name: String?)]
) throws {
    try query.withStoredModels(reading: .follows) { models in
        guard try models.knows(user: user) else {
            throw ConsoleError.notFound("unknown user \"\(user)\": no event in the log names them")
        }
        try query.emit(AnswerTable.follows(try list(models)(user, try checkedLimit(limit))))
    }
}

/// `followers USER` (6.5).
struct FollowersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "followers", abstract: "List a user's followers by display name (6.5).")
    @Argument(help: "The user id.") var user: String
    @Option(parsing: .unconditional, help: "How many (0: all).", transform: Limit.parse) var limit = 0
    @OptionGroup var query: QueryOptions

    func run() throws { try emitFollowList(user, limit: limit, query: query, list: StoredReadModels.followers) }
}

/// `following USER` (6.6).
struct FollowingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "following", abstract: "List whom a user follows, by display name (6.6).")
    @Argument(help: "The user id.") var user: String
    @Option(parsing: .unconditional, help: "How many (0: all).", transform: Limit.parse) var limit = 0
    @OptionGroup var query: QueryOptions

    func run() throws { try emitFollowList(user, limit: limit, query: query, list: StoredReadModels.following) }
}

/// `suggest USER [--page N]` (1.8, 6.2).
struct SuggestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suggest",
        abstract: "Quick-add and suggested friends for a user, 10 a page (1.8, 6.2).",
        discussion: "A user with no events at all still gets the popular list.")
    @Argument(help: "The user id.") var user: String
    @Option(parsing: .unconditional, help: "The page; refresh (6.2) is the next page.") var page = 1
    @Option(parsing: .unconditional, help: "Suggestions per page.") var pageSize = 10
    @OptionGroup var query: QueryOptions

    func validate() throws {
        if page < 1 { throw ValidationError("--page must be 1 or more, got \(page)") }
        if pageSize < 1 { throw ValidationError("--page-size must be 1 or more, got \(pageSize)") }
    }

    func run() throws {
        try query.emit(AnswerTable.suggestions(query.withStoredModels(reading: .suggestions) { try $0.suggestions(for: user, page: page, pageSize: pageSize) }))
    }
}
