import ArgumentParser
import GTIOCatalog
import GTIOProjections
import GTIOTables

/// Prints label/value lines, then optional sections, as one screen.
private func card(_ lines: [(String, String)], sections: [(String, [String])] = []) -> String {
    let width = lines.map(\.0.count).max() ?? 0
    var text = lines.map { $0.0.padding(to: width) + "  " + $0.1 }.joined(separator: "\n") + "\n"
    for (title, entries) in sections {
        text += "\n\(title)\n" + (entries.isEmpty ? "  (none)\n" : entries.map { "  " + $0 + "\n" }.joined())
    }
    return text
}

private func time(_ ms: Int64) -> String { Timestamp(milliseconds: ms).description }

/// `post POST`: one post on one screen.
struct PostCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "post", abstract: "Everything about one post: author, state, points, verdict, hearts, reviews, flags.")
    @Argument(help: "The post id.") var post: String
    @OptionGroup var query: QueryOptions

    func run() throws {
        let models = try query.readModels()
        let state = models.state
        guard let found = state.posts[post] else {
            throw ConsoleError.notFound("unknown post \"\(post)\": no post.created with that id in the log (try: looks new)")
        }
        let verdict = VoteVerdict(post: post, wearIt: found.wearIt, changeIt: found.changeIt)
        let life = switch found.life { case .live: "live"; case .deleted: "deleted by its author"; case .removed: "removed by moderation" }
        let item = "post:" + post
        let rank = models.looks(.popular, limit: nil).first { $0.post == post }?.rank
        let hearts = state.hearts(of: found).sorted { $0.value > $1.value }
        let table = ResultTable(columns: ["post", "author", "kind", "created", "state", "points", "hearts", "wear_it",
                                          "change_it", "reviews", "verdict", "flaggers", "hidden", "popular_rank"],
                                rows: [[.text(post), .text(found.author), .text(found.kind),
                                        .timestamp(Timestamp(milliseconds: found.created)), .text(life),
                                        .integer(Int64(models.points(found))), .integer(Int64(found.heartCount)),
                                        .integer(Int64(found.wearIt)), .integer(Int64(found.changeIt)),
                                        .integer(Int64(found.liveReviews)), .text(verdict.votes > 0 ? verdict.label : "no votes"),
                                        .integer(Int64(state.items[item]?.open.count ?? 0)), .bool(state.isHidden(item)),
                                        Cell(rank.map(Int64.init))]])
        guard query.format == .table && query.out == nil else { return try query.emit(table) }
        let reviews = found.reviews.compactMap { state.reviews[$0] }.map {
            "\($0.id) by \($0.author)\($0.removed ? " (removed)" : ""), \($0.agreers.count) agree: “\($0.text)”"
        }
        let flags = (state.items[item]?.history ?? []).map { "\(time($0.mark.at))  \($0.user)\($0.mark.reason.map { ": \($0)" } ?? "")" }
        let decisions = state.decisions.filter { $0.item == item }.map { "\(time($0.at))  \($0.action) by \($0.moderator)" }
        Terminal.write(card(zip(table.columns, table.rows[0]).map { ($0, $1.plainText) }
                            + [("description", found.description ?? "")],
                            sections: [("who hearted (newest first)", hearts.prefix(10).map { $0.key + (models.name(of: $0.key).map { " (\($0))" } ?? "") }
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
        let models = try query.readModels()
        try requireKnown(user, in: models)
        let state = models.state
        let posts = (state.postsByAuthor[user] ?? []).compactMap { state.posts[$0] }
        let live = posts.filter { $0.life == .live }
        // Items of theirs that moderators removed: posts and reviews alike.
        let removed = state.decisions.filter { decision in
            guard decision.action == "remove" else { return false }
            if decision.item.hasPrefix("post:") { return state.posts[String(decision.item.dropFirst(5))]?.author == user }
            return state.reviews[String(decision.item.dropFirst(7))]?.author == user
        }.count
        let flagsReceived = posts.reduce(0) { $0 + (state.items["post:" + $1.id]?.history.count ?? 0) }
        let signup = state.signups[user]
        let table = ResultTable(
            columns: ["user", "name", "private", "signed_up", "provider", "followers", "following", "posts", "removed_items",
                      "flags_received"],
            rows: [[.text(user), Cell(models.name(of: user)), .bool(state.isPrivate(user)),
                    Cell(signup.map { Timestamp(milliseconds: $0.at) }), Cell(signup?.provider),
                    .integer(Int64(models.followerCount(user))), .integer(Int64(models.followingCount(user))),
                    .integer(Int64(live.count)), .integer(Int64(removed)), .integer(Int64(flagsReceived))]])
        guard query.format == .table && query.out == nil else { return try query.emit(table) }
        let recent = live.sorted { $0.created > $1.created }.prefix(10).map {
            "\($0.id)  \(time($0.created))  \(models.points($0)) points"
        }
        let requests = state.incoming(of: user).filter { $0.value == .requested }.map(\.key).sorted()
        Terminal.write(card(zip(table.columns, table.rows[0]).map { ($0, $1.plainText) },
                            sections: [("latest live posts", Array(recent)), ("pending follow requests", requests),
                                       ("suggested for them", models.suggestions(for: user, pageSize: 5).map { "\($0.user) (\($0.reason))" })]))
    }
}
