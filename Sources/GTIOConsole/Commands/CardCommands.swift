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
    @OptionGroup var query: QueryOptions

    func run() throws {
        try query.withStoredModels { models in
            guard let (table, found) = try AnswerTable.post(post, in: models) else {
                throw ConsoleError.notFound("unknown post \"\(post)\": no post.created with that id in the log (try: looks new)")
            }
            let item = "post:" + post
            guard query.format == .table && query.out == nil else { return try query.emit(table) }
            let reviews = try models.reviews(of: post).map {
                "\($0.id) by \($0.author)\($0.removed ? " (removed)" : ""), \($0.agrees) agree: “\($0.text)”"
            }
            let flags = try models.flagHistory(item).map { "\(time($0.at))  \($0.user)\($0.reason.map { ": \($0)" } ?? "")" }
            let decisions = try models.decisions(on: item).map { "\(time($0.at))  \($0.action) by \($0.moderator)" }
            let hearts = found.hearters
            Terminal.write(Card.render(zip(table.columns, table.rows[0]).map { ($0, $1.plainText) }
                                + [("description", found.description ?? "")],
                                sections: [("who hearted (newest first)", hearts.prefix(10).map { $0.user + ($0.name.map { " (\($0))" } ?? "") }
                                            + (hearts.count > 10 ? ["… and \(hearts.count - 10) more"] : [])),
                                           ("reviews", reviews), ("flags", flags), ("decisions", decisions)]))
        }
    }
}

/// `user USER`: one user on one screen.
struct UserCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Everything about one user: name, sign-up, privacy, followers, posts, flags received.")
    @Argument(help: "The user id.") var user: String
    @OptionGroup var query: QueryOptions

    func run() throws {
        try query.withStoredModels { models in
            guard let (table, posts) = try AnswerTable.user(user, in: models) else {
                throw ConsoleError.notFound("unknown user \"\(user)\": no event in the log names them")
            }
            guard query.format == .table && query.out == nil else { return try query.emit(table) }
            let recent = posts.newest.map { "\($0.post)  \(time($0.created))  \($0.points) points" }
            Terminal.write(Card.render(zip(table.columns, table.rows[0]).map { ($0, $1.plainText) },
                                sections: [("latest live posts", recent), ("pending follow requests", try models.pendingRequests(to: user)),
                                           ("suggested for them", try models.suggestions(for: user, pageSize: 5).map { "\($0.user) (\($0.reason))" })]))
        }
    }
}
