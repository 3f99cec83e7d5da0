import ArgumentParser
import GTIOAnalytics
import GTIOCatalog
import GTIOProjections
import GTIOTables

private func time(_ ms: Int64) -> String { Timestamp(milliseconds: ms).description }

/// `item post:P` / `item review:R`: an item with everything a moderator needs to decide it.
struct ItemCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "item", abstract: "An item in context: content, author's record, its flags, and earlier decisions.")
    @Argument(help: "post:<id> or review:<id>.") var item: String
    @OptionGroup var card: CardOptions
    @OptionGroup var query: QueryOptions

    func run() throws {
        guard let ref = ItemRef(item) else {
            // A bare post or review id, as `looks` and `post` show them, is pointed at its item.
            let named = try query.withStoredModels { try $0.item(namedByBareID: item) }
            throw ConsoleError.badArgument(
                "\"\(item)\" is not an item (expected post:<id> or review:<id>)" + (named.map { "; it is a \($0.kind): try item \($0)" } ?? ""))
        }
        try query.withStoredModels { models in
            let review = ref.kind == .review ? try models.review(ref.id) : nil
            let post = try models.postCard(ref.kind == .post ? ref.id : review?.post ?? "", hearters: 0)
            guard (ref.kind == .post && post != nil) || review != nil else {
                throw ConsoleError.notFound("no such item \(item): nothing with that id was ever created")
            }
            let (author, preview) = try models.preview(of: item)
            let flagged = try models.flagged(item)
            let decisions = try models.decisions(on: item, latest: query.forReader ? card.entries : 0)
            let table = ResultTable(
                columns: ["item", "author", "open_flaggers", "hidden", "version", "decisions", "author_removed_items", "author_flags_received", "content"],
                rows: [[.text(item), Cell(author), .integer(Int64(flagged?.flaggers ?? 0)), .bool(flagged?.hidden ?? false),
                        .integer(try models.flagVersion(item)), .integer(Int64(decisions.total)),
                        .integer(Int64(try author.map(models.removedItems(of:)) ?? 0)),
                        .integer(Int64(try author.map { try models.flagsReceived(by: $0, reviews: true) } ?? 0)), .text(preview)]])
            guard query.forReader else { return try query.emit(table) }
            var sections: [Card.Section] = []
            if let post {
                let state = post.life == .live ? "live" : "\(post.life)"
                sections.append(Card.list(
                    "post \(post.id): \(post.hearts) hearts, \(post.wearIt) wear it / \(post.changeIt) change it, \(post.liveReviews) live reviews, \(state)",
                    try models.reviews(of: post.id, first: card.entries), none: nil
                ) { "review \($0.id) by \($0.author)\($0.removed ? " (removed)" : ""): “\($0.text)”" })
            }
            sections.append(Card.history("flags (open ones marked *)", try models.flagHistory(item, latest: card.entries), none: nil) {
                "\($0.open ? "*" : " ") \(time($0.at))  \($0.user)\($0.reason.map { ": \($0)" } ?? "")"
            })
            sections.append(Card.history("decisions", decisions) {
                "\(time($0.at))  \($0.action) by \($0.moderator)\($0.note.map { ": \($0)" } ?? "") (seq \($0.seq))"
            })
            Terminal.write(Card.render(zip(table.columns, table.rows[0]).map { ($0, $1.plainText) }, sections: sections))
        }
    }
}

/// `decisions [--moderator M] [--since T]`: the record of moderators' decisions.
struct DecisionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decisions", abstract: "List moderators' decisions, oldest first, with the time each item waited.")
    @Option(help: "Only this moderator's.") var moderator: String?
    @Option(help: ArgumentHelp("Only decisions at or after this time.", valueName: "time")) var since: String?
    @Option(parsing: .unconditional, help: "The newest this many, still oldest first (0: all).", transform: Limit.parse)
    var limit = 0
    @OptionGroup var query: QueryOptions

    func run() throws {
        try query.withStoredModels { models in
            let from = try since.map { try TimeArgument.parse($0, option: "--since", endOfDay: false).milliseconds }
            let rows = try models.decisions(by: moderator, since: from, newest: limit > 0 ? limit : nil)
            try query.emit(ResultTable(
                columns: ["seq", "at", "item", "action", "moderator", "flaggers", "first_flagged", "waited_h", "note"],
                rows: rows.map {
                    [.integer($0.seq), .timestamp(Timestamp(milliseconds: $0.at)), .text($0.item), .text($0.action),
                     .text($0.moderator), .integer(Int64($0.flaggers)), .timestamp(Timestamp(milliseconds: $0.firstFlagged)),
                     .number(Double(max(0, $0.at - $0.firstFlagged)) / 3_600_000), Cell($0.note)]
                }))
        }
    }
}
