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
        let models = try query.storedModels()
        guard let found = try models.postCard(post) else {
            throw ConsoleError.notFound("unknown post \"\(post)\": no post.created with that id in the log (try: looks new)")
        }
        let verdict = VoteVerdict(post: post, wearIt: found.wearIt, changeIt: found.changeIt)
        let life = switch found.life { case .live: "live"; case .deleted: "deleted by its author"; case .removed: "removed by moderation" }
        let item = "post:" + post
        let rank = try models.looks(.popular, limit: nil).first { $0.post == post }?.rank
        let flagged = try models.flagged(item)
        let price: Cell = found.price.map(AnswerTable.amount) ?? .null
        let placeCells: [Cell] = [Cell(found.product), price, Cell(found.place?.name), Cell(found.place?.latitude),
                                  Cell(found.place?.longitude), .text(found.brands.joined(separator: ";"))]
        let table = ResultTable(columns: ["post", "author", "kind", "created", "state", "points", "hearts", "wear_it",
                                          "change_it", "reviews", "verdict", "flaggers", "hidden", "popular_rank", "product", "price",
                                          "place", "lat", "lon", "brands"],
                                rows: [[.text(post), .text(found.author), .text(found.kind),
                                        .timestamp(Timestamp(milliseconds: found.created)), .text(life),
                                        .integer(Int64(found.points)), .integer(Int64(found.hearts)),
                                        .integer(Int64(found.wearIt)), .integer(Int64(found.changeIt)),
                                        .integer(Int64(found.liveReviews)), .text(verdict.votes > 0 ? verdict.label : "no votes"),
                                        .integer(Int64(flagged?.flaggers ?? 0)), .bool(flagged?.hidden ?? false),
                                        Cell(rank.map(Int64.init))] + placeCells])
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

/// `user USER`: one user on one screen.
struct UserCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Everything about one user: name, sign-up, privacy, followers, posts, flags received.")
    @Argument(help: "The user id.") var user: String
    @OptionGroup var query: QueryOptions

    func run() throws {
        let models = try query.storedModels()
        guard let facts = try models.userFacts(user) else {
            throw ConsoleError.notFound("unknown user \"\(user)\": no event in the log names them")
        }
        let posts = try models.livePosts(of: user, newest: 10)
        let flagger = try models.flagger(user)
        let table = ResultTable(
            columns: ["user", "name", "private", "signed_up", "provider", "followers", "following", "posts", "removed_items",
                      "flags_received", "products_hearted", "shopping_list", "flagged", "upheld", "dismissed", "flag_accuracy"],
            rows: [[.text(user), Cell(facts.name), .bool(facts.isPrivate),
                    Cell(facts.signedUp.map { Timestamp(milliseconds: $0) }), Cell(facts.provider),
                    .integer(Int64(facts.followers)), .integer(Int64(facts.following)),
                    .integer(Int64(posts.count)), .integer(Int64(try models.removedItems(of: user))),
                    .integer(Int64(try models.flagsReceived(by: user, reviews: false))),
                    .integer(Int64(facts.productsHearted)), .integer(Int64(facts.shoppingList)),
                    .integer(Int64(flagger?.flagged ?? 0)), .integer(Int64(flagger?.upheld ?? 0)),
                    .integer(Int64(flagger?.dismissed ?? 0)), Cell(flagger?.accuracy)]])
        guard query.format == .table && query.out == nil else { return try query.emit(table) }
        let recent = posts.newest.map { "\($0.post)  \(time($0.created))  \($0.points) points" }
        Terminal.write(Card.render(zip(table.columns, table.rows[0]).map { ($0, $1.plainText) },
                            sections: [("latest live posts", recent), ("pending follow requests", try models.pendingRequests(to: user)),
                                       ("suggested for them", try models.suggestions(for: user, pageSize: 5).map { "\($0.user) (\($0.reason))" })]))
    }
}
