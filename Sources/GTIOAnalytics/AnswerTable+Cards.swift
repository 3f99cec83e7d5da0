import GTIOCatalog
import GTIOProjections
import GTIOTables

/// The answers about one post, one user, a follow list, a user's suggestions and a day's
/// figures, as the console prints them with `--format json` and the read API sends them.
extension AnswerTable {
    /// A follow list (followers or following): user and display name.
    public static func follows(_ users: [(user: String, name: String?)]) -> ResultTable {
        ResultTable(columns: ["user", "name"], rows: users.map { [.text($0.user), Cell($0.name)] })
    }

    /// One page of quick-add and suggested friends.
    public static func suggestions(_ rows: [FriendSuggestion]) -> ResultTable {
        ResultTable(
            columns: ["rank", "user", "mutual", "followers", "reason"],
            rows: rows.map {
                [.integer(Int64($0.rank)), .text($0.user), .integer(Int64($0.mutual)), .integer(Int64($0.followers)),
                 .text($0.reason)]
            })
    }

    /// One post's row: author, state, points, verdict, flags, place and price, with the card's
    /// first `hearters`; nil when no `post.created` has that id.
    public static func post(_ post: String, hearters: Int?, in models: StoredReadModels) throws -> (table: ResultTable, card: PostCard)? {
        guard let found = try models.postCard(post, hearters: hearters) else { return nil }
        let verdict = VoteVerdict(post: post, wearIt: found.wearIt, changeIt: found.changeIt)
        let life = switch found.life { case .live: "live"; case .deleted: "deleted by its author"; case .removed: "removed by moderation" }
        let rank = try models.popularRank(of: post)
        let flagged = try models.flagged("post:" + post)
        let price: Cell = found.price.map(amount) ?? .null
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
        return (table, found)
    }

    /// One user's row: name, sign-up, privacy, follows, posts, flags received and given, with
    /// their newest `posts` live posts; nil when no event names them.
    public static func user(_ user: String, posts count: Int?, in models: StoredReadModels) throws
        -> (table: ResultTable, posts: Excerpt<LivePost>)?
    {
        guard let facts = try models.userFacts(user) else { return nil }
        let posts = try models.livePosts(of: user, newest: count)
        let flagger = try models.flagger(user)
        let table = ResultTable(
            columns: ["user", "name", "private", "signed_up", "provider", "followers", "following", "posts", "removed_items",
                      "flags_received", "products_hearted", "shopping_list", "flagged", "upheld", "dismissed", "flag_accuracy"],
            rows: [[.text(user), Cell(facts.name), .bool(facts.isPrivate),
                    Cell(facts.signedUp.map { Timestamp(milliseconds: $0) }), Cell(facts.provider),
                    .integer(Int64(facts.followers)), .integer(Int64(facts.following)),
                    .integer(Int64(posts.total)), .integer(Int64(try models.removedItems(of: user))),
                    .integer(Int64(try models.flagsReceived(by: user, reviews: false))),
                    .integer(Int64(facts.productsHearted)), .integer(Int64(facts.shoppingList)),
                    .integer(Int64(flagger?.flagged ?? 0)), .integer(Int64(flagger?.upheld ?? 0)),
                    .integer(Int64(flagger?.dismissed ?? 0)), Cell(flagger?.accuracy)]])
        return (table, posts)
    }

    /// One day's engagement (`figures`) and quick-add acceptance, with the moderation desk as of
    /// the models' "now": one row.
    public static func stats(_ figures: EngagementDay, in models: StoredReadModels) throws -> ResultTable {
        let engagement = engagement([figures])
        var columns = engagement.columns
        var row = engagement.rows[0]
        let queue = try models.queueSize(), decided = try models.decisionFigures()
        let desk = ModerationFigures(
            queue: queue.items, hidden: queue.hidden, decisions: decided.count, removed: decided.removed,
            dismissed: decided.dismissed, medianWait: decided.medianWait, p90Wait: decided.p90Wait,
            byModerator: decided.byModerator.map { (moderator: $0.0, decisions: $0.1) })
        let acceptance = QuickAddAcceptance(shown: figures.quickAddShown, accepted: figures.quickAddAccepted)
        columns += ["quickadd_shown", "quickadd_accepted", "quickadd_acceptance"]
        row += [.integer(Int64(acceptance.shown)), .integer(Int64(acceptance.accepted)), Cell(acceptance.rate)]
        columns += ["queue", "queue_hidden", "decisions", "decision_median_h", "decision_p90_h"]
        row += [.integer(Int64(desk.queue)), .integer(Int64(desk.hidden)), .integer(Int64(desk.decisions)),
                Cell(desk.medianHours), Cell(desk.p90Hours)]
        for (moderator, count) in desk.byModerator {
            columns.append("decisions_\(moderator)")
            row.append(.integer(Int64(count)))
        }
        return ResultTable(columns: columns, rows: [row])
    }
}
