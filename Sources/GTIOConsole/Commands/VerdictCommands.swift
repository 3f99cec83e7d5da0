import ArgumentParser
import GTIOAnalytics
import GTIOProjections
import GTIOTables

/// `verdict POST`: one post's vote verdict (3.2).
struct VerdictCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verdict", abstract: "Show a post's vote verdict: wear it, change it, split or pending (3.2).")

    @Argument(help: "The post id.") var post: String
    @OptionGroup var query: QueryOptions

    func run() throws {
        try query.withStoredModels(reading: .verdicts) { models in
            guard let found = try models.post(post) else {
                throw try ConsoleError.unknownPost(post, command: "verdict", in: models)
            }
            var table = ResultTable(columns: AnswerTable.verdictColumns)
            if let verdict = try models.verdict(post: post) {
                table.rows = [AnswerTable.verdictRow(verdict)]
            } else {
                let why = found.life == .live ? "it has no counted votes yet" : "it was \(found.life == .deleted ? "deleted" : "removed")"
                Terminal.writeError("(no verdict for \(post): \(why))\n")
            }
            try query.emit(table)
        }
    }
}

/// `verdicts`: every live post with a counted vote.
struct VerdictsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verdicts", abstract: "List vote verdicts of every live post with votes, best Wilson bound first.")

    @Option(parsing: .unconditional, help: "How many (0: all).", transform: Limit.parse) var limit = 0
    @OptionGroup var query: QueryOptions

    func run() throws {
        let limit = try checkedLimit(limit)
        try query.emit(AnswerTable.verdicts(try query.withStoredModels(reading: .verdicts) { try $0.verdicts(limit: limit) }))
    }
}
