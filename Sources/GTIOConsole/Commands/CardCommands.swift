import ArgumentParser
import GTIOAnalytics
import GTIOCatalog
import GTIOProjections
import GTIOTables

private func time(_ ms: Int64) -> String { Timestamp(milliseconds: ms).description }

/// `post POST`: one post on one screen.
struct PostCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "post", abstract: "Everything about one post: author, state, points, verdict, hearts, reviews, flags.")
    @Argument(help: "The post id.") var post: String
    @OptionGroup var card: CardOptions
    @OptionGroup var query: QueryOptions

    func run() throws {
        try query.withStoredModels { models in
            guard let (table, found) = try AnswerTable.post(post, hearters: query.forReader ? card.entries : 0, in: models) else {
                throw try ConsoleError.unknownPost(post, command: "post", in: models)
            }
            guard query.forReader else { return try query.emit(table) }
            let item = "post:" + post
            Terminal.write(Card.render(zip(table.columns, table.rows[0]).map { ($0, $1.plainText) } + [("description", found.description ?? "")], sections: [
                Card.list("who hearted (newest first)", found.hearters) { $0.user + ($0.name.map { " (\($0))" } ?? "") },
                Card.list("reviews", try models.reviews(of: post, first: card.entries)) {
                    "\($0.id) by \($0.author)\($0.removed ? " (removed)" : ""), \($0.agrees) agree: “\($0.text)”"
                },
                Card.history("flags", try models.flagHistory(item, latest: card.entries)) {
                    "\(time($0.at))  \($0.user)\($0.reason.map { ": \($0)" } ?? "")"
                },
                Card.history("decisions", try models.decisions(on: item, latest: card.entries)) {
                    "\(time($0.at))  \($0.action) by \($0.moderator)"
                },
            ]))
        }
    }
}

/// `user USER`: one user on one screen.
struct UserCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Everything about one user: name, sign-up, privacy, followers, posts, flags received.")
    @Argument(help: "The user id.") var user: String
    @OptionGroup var card: CardOptions
    @OptionGroup var query: QueryOptions

    func run() throws {
        try query.withStoredModels { models in
            guard let (table, posts) = try AnswerTable.user(user, posts: query.forReader ? card.entries : 0, in: models) else {
                throw ConsoleError.notFound("unknown user \"\(user)\": no event in the log names them")
            }
            guard query.forReader else { return try query.emit(table) }
            Terminal.write(Card.render(zip(table.columns, table.rows[0]).map { ($0, $1.plainText) }, sections: [
                Card.list("latest live posts", posts) { "\($0.post)  \(time($0.created))  \($0.points) points" },
                Card.list("pending follow requests", try models.pendingRequests(to: user, first: card.entries)) { $0 },
                ("suggested for them", try models.suggestions(for: user, pageSize: 5).map { "\($0.user) (\($0.reason))" }, "(none)"),
            ]))
        }
    }
}
