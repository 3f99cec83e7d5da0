import GTIOCatalog
import GTIOProjections
import GTIOTables

/// The standard answers as tables: the same columns for the console's commands and the
/// report's files, so that a script reading one can read the other (CONSOLE.md).
public enum AnswerTable {
    public static let lookColumns = ["rank", "post", "author", "points", "hearts", "votes", "reviews", "score"]
    public static let verdictColumns = ["post", "wear_it", "change_it", "share", "wilson", "verdict"]
    public static let flagColumns = ["item", "flaggers", "first_flagged", "hidden", "reasons", "last_flagged", "version", "author", "preview"]
    public static let productColumns = ["rank", "product", "hearts", "lists", "suggestions", "posts", "price"]
    public static let placeColumns = ["rank", "place", "posts", "authors", "points"]
    public static let priceColumns = ["group", "posts", "min", "median", "mean", "p90", "max"]
    public static let flaggerColumns = ["user", "flagged", "upheld", "dismissed", "accuracy"]

    public static func looks(_ looks: [Look]) -> ResultTable {
        ResultTable(columns: lookColumns, rows: looks.map(lookRow))
    }

    public static func lookRow(_ look: Look) -> [Cell] {
        [.integer(Int64(look.rank)), .text(look.post), .text(look.author), .integer(Int64(look.points)),
         .integer(Int64(look.hearts)), .integer(Int64(look.votes)), .integer(Int64(look.reviews)), .number(look.score)]
    }

    public static func verdicts(_ verdicts: [VoteVerdict]) -> ResultTable {
        ResultTable(columns: verdictColumns, rows: verdicts.map(verdictRow))
    }

    public static func verdictRow(_ verdict: VoteVerdict) -> [Cell] {
        [.text(verdict.post), .integer(Int64(verdict.wearIt)), .integer(Int64(verdict.changeIt)),
         .number(verdict.share), .number(verdict.wilson), .text(verdict.label)]
    }

    /// Queue entries with their author and the first 60 characters of their content.
    public static func flags(_ queue: [FlaggedItem], in state: CommunityState) -> ResultTable {
        flags(queue) { state.preview(of: $0.item) }
    }

    /// Queue entries with the author and content each carries.
    public static func flags(_ queue: [FlaggedItem]) -> ResultTable {
        flags(queue, preview: \.previewed)
    }

    /// Queue entries with the author and content `preview` gives for each.
    private static func flags(_ queue: [FlaggedItem], preview: (FlaggedItem) -> (author: String?, text: String)) -> ResultTable {
        ResultTable(columns: flagColumns, rows: queue.map {
            let (author, preview) = preview($0)
            return [.text($0.item), .integer(Int64($0.flaggers)), .timestamp(Timestamp(milliseconds: $0.firstFlagged)),
                    .bool($0.hidden), .text($0.reasons), .timestamp(Timestamp(milliseconds: $0.lastFlagged)), .integer($0.version),
                    Cell(author), .text(shortened(preview, to: 60))]
        })
    }

    /// `text`'s first `count` characters, found without walking them when it has no more bytes
    /// than that (a character is at least one byte).
    static func shortened(_ text: String, to count: Int) -> String {
        text.utf8.count <= count ? text : String(text.prefix(count))
    }

    public static func products(_ products: [ProductLine]) -> ResultTable {
        ResultTable(columns: productColumns, rows: products.map { line in
            [Cell(line.rank.map(Int64.init)), .text(line.product), .integer(Int64(line.hearts)), .integer(Int64(line.lists)),
             .integer(Int64(line.suggestions)), .integer(Int64(line.posts)), line.price.map(amount) ?? .null]
        })
    }

    public static func places(_ places: [PlaceLine]) -> ResultTable {
        ResultTable(columns: placeColumns, rows: places.map { line in
            [.integer(Int64(line.rank)), .text(line.place), .integer(Int64(line.posts)), .integer(Int64(line.authors)),
             .integer(Int64(line.points))]
        })
    }

    public static func prices(_ prices: [PriceLine]) -> ResultTable {
        ResultTable(columns: priceColumns, rows: prices.map { line in
            [.text(line.group), .integer(Int64(line.posts)), amount(line.min), amount(line.median), amount(line.mean),
             amount(line.p90), amount(line.max)]
        })
    }

    public static func flaggers(_ flaggers: [FlaggerLine]) -> ResultTable {
        ResultTable(columns: flaggerColumns, rows: flaggers.map { line in
            [.text(line.user), .integer(Int64(line.flagged)), .integer(Int64(line.upheld)), .integer(Int64(line.dismissed)),
             Cell(line.accuracy)]
        })
    }

    /// A price or other amount: an integer when it is one (120, not 120.0), else the number.
    public static func amount(_ value: Double) -> Cell {
        value == value.rounded() && abs(value) < 1e15 ? .integer(Int64(value)) : .number(value)
    }

    /// The funnel step by step: devices, conversion from the step before, and from the first.
    public static func funnel(_ funnel: OnboardingFunnel) -> ResultTable {
        ResultTable(columns: ["step", "devices", "conversion", "overall"], rows: OnboardingFunnel.steps.indices.map {
            [.text(OnboardingFunnel.steps[$0]), .integer(Int64(funnel.reached[$0])),
             Cell(funnel.stepConversion($0)), Cell(funnel.overallConversion($0))]
        })
    }

    /// One row per first-open day: devices at each step.
    public static func funnelByDay(_ days: [(day: Int64, funnel: OnboardingFunnel)]) -> ResultTable {
        ResultTable(columns: ["cohort"] + OnboardingFunnel.columns, rows: days.map { day, funnel in
            [.text(Timestamp.dateString(ofDay: day))] + funnel.reached.map { .integer(Int64($0)) }
        })
    }

    /// One row per sign-up day: the cohort's size, and for each offset the users retained and the rate
    /// (empty while that day has not begun).
    public static func retention(_ cohorts: [RetentionCohort]) -> ResultTable {
        var columns = ["cohort", "users"]
        for offset in RetentionCohort.offsets { columns += ["day\(offset)_users", "day\(offset)"] }
        return ResultTable(columns: columns, rows: cohorts.map { cohort in
            var row: [Cell] = [.text(cohort.date), .integer(Int64(cohort.users))]
            for index in RetentionCohort.offsets.indices {
                row += [Cell(cohort.retained[index].map(Int64.init)), Cell(cohort.rate(index))]
            }
            return row
        })
    }

    /// One row per day: active users, sign-ups (by provider), applied actions and events.
    public static func engagement(_ days: [EngagementDay]) -> ResultTable {
        let columns = ["date", "dau", "wau", "mau", "devices", "signups"] + EventType.providers.map { "signups_\($0)" }
            + CommunityState.Action.allCases.map(\.rawValue) + ["events"]
        return ResultTable(columns: columns, rows: days.map { day in
            var row: [Cell] = [.text(day.date), .integer(Int64(day.dau)), .integer(Int64(day.wau)), .integer(Int64(day.mau)),
                               .integer(Int64(day.devices)), .integer(Int64(day.signups.values.reduce(0, +)))]
            row += EventType.providers.map { .integer(Int64(day.signups[$0] ?? 0)) }
            row += CommunityState.Action.allCases.map { .integer(Int64(day.actions[$0] ?? 0)) }
            return row + [.integer(Int64(day.events))]
        })
    }
}
