import ArgumentParser

/// What the REPL knows of each command: for help, completion and "did you mean".
struct ConsoleCommandInfo: Sendable {
    /// The kind of id a command's first argument is, for completion from the store.
    enum Argument: Sendable { case user, post, item, product, tab, readModel, command, format, onOff, report, selector, property, none }

    var name: String
    var summary: String
    var usage: String
    var example: String
    var argument: Argument = .none
    /// The ArgumentParser command behind it; nil for the session's own commands.
    var type: (any ParsableCommand.Type)?
    /// Takes `--format` with the session's formats, and `--as-of` for the session's as-of moment.
    var takesFormat = false
    var takesAsOf = false

    /// The long options of the command, for completion.
    var flags: [String] {
        guard let type else { return [] }
        let help = type.helpMessage(columns: 200)
        var found: [String] = []
        var rest = Substring(help)
        while let range = rest.range(of: "--") {
            let word = rest[range.lowerBound...].prefix { $0 == "-" || $0.isLetter || $0.isNumber }
            if word.count > 2, !found.contains(String(word)), word != "--help" { found.append(String(word)) }
            rest = rest[range.upperBound...]
        }
        return found + ["--help"]
    }

    static let all: [ConsoleCommandInfo] = [
        .init(name: "looks", summary: "rank looks: popular, new, top, wear-it (9.1)", usage: "looks [popular|new|top|wear-it] [--limit N]",
              example: "looks popular --limit 10", argument: .tab, type: LooksCommand.self, takesFormat: true, takesAsOf: true),
        .init(name: "verdict", summary: "a post's vote verdict (3.2)", usage: "verdict POST", example: "verdict p2545f4914f6d",
              argument: .post, type: VerdictCommand.self, takesFormat: true, takesAsOf: true),
        .init(name: "verdicts", summary: "every live post's verdict", usage: "verdicts [--limit N]", example: "verdicts --limit 20",
              type: VerdictsCommand.self, takesFormat: true, takesAsOf: true),
        .init(name: "followers", summary: "a user's followers by name (6.5)", usage: "followers USER", example: "followers u5e1ea978",
              argument: .user, type: FollowersCommand.self, takesFormat: true, takesAsOf: true),
        .init(name: "following", summary: "whom a user follows (6.6)", usage: "following USER", example: "following u5e1ea978",
              argument: .user, type: FollowingCommand.self, takesFormat: true, takesAsOf: true),
        .init(name: "suggest", summary: "quick-add / suggested friends (1.8, 6.2)", usage: "suggest USER [--page N]",
              example: "suggest u5e1ea978 --page 2", argument: .user, type: SuggestCommand.self, takesFormat: true, takesAsOf: true),
        .init(name: "flags", summary: "the moderation queue", usage: "flags [--reason R] [--author U] [--min-flaggers N] [--limit N]",
              example: "flags --min-flaggers 2", type: FlagsCommand.self, takesFormat: true, takesAsOf: true),
        .init(name: "flaggers", summary: "who flags, and how often decisions upheld them", usage: "flaggers [--limit N]",
              example: "flaggers --limit 10", type: FlaggersCommand.self, takesFormat: true, takesAsOf: true),
        .init(name: "products", summary: "products by hearts, shopping lists, suggestions (4.x, 7.8)", usage: "products [--limit N]",
              example: "products --limit 10", type: ProductsCommand.self, takesFormat: true, takesAsOf: true),
        .init(name: "product", summary: "one product: hearts, lists, suggestions, posts, prices", usage: "product ID",
              example: "product prd186a1", argument: .product, type: ProductCommand.self, takesFormat: true, takesAsOf: true),
        .init(name: "places", summary: "places of looks (Geotag)", usage: "places [--near LAT,LON] [--km R] [--limit N]",
              example: "places --near 40.7,-74.0 --km 10", type: PlacesCommand.self, takesFormat: true, takesAsOf: true),
        .init(name: "prices", summary: "prices of product posts (Yellow House)", usage: "prices [--by brand|place]",
              example: "prices --by brand", type: PricesCommand.self, takesFormat: true, takesAsOf: true),
        .init(name: "resolve", summary: "decide flagged items: remove or dismiss", usage: "resolve ITEM… remove|dismiss --as MODERATOR [--expect N] [--note TEXT]",
              example: "resolve post:p2545f4914f6d dismiss --as mod-1 --expect 1234", argument: .item, type: ResolveCommand.self),
        .init(name: "item", summary: "an item in context: content, flags, decisions", usage: "item post:ID|review:ID",
              example: "item post:p2545f4914f6d", argument: .item, type: ItemCommand.self, takesFormat: true, takesAsOf: true),
        .init(name: "decisions", summary: "moderators' decisions", usage: "decisions [--moderator M] [--since TIME]",
              example: "decisions --moderator mod-1", type: DecisionsCommand.self, takesFormat: true, takesAsOf: true),
        .init(name: "stats", summary: "DAU, WAU, MAU, sign-ups, actions of a day", usage: "stats [--date YYYY-MM-DD]",
              example: "stats --date 2012-05-01", type: StatsCommand.self, takesFormat: true, takesAsOf: true),
        .init(name: "funnel", summary: "onboarding funnel, or actors through STEP STEP … in order",
              usage: "funnel [--from D] [--to D] [--by-day] | funnel STEP STEP… [--within 7d] [--by PROP] [--actor user|device]",
              example: "funnel post.created post.hearted --within 1d", argument: .selector, type: FunnelCommand.self,
              takesFormat: true, takesAsOf: true),
        .init(name: "retention", summary: "sign-up cohorts active again, or any start and return",
              usage: "retention [--from D] [--to D] | retention --start SELECTOR --return SELECTOR [--interval day|week] [--periods N]",
              example: "retention --start user.signed_up --return post.created --interval week", type: RetentionCommand.self,
              takesFormat: true, takesAsOf: true),
        .init(name: "trend", summary: "a number over time, split by a property", usage: "trend SELECTOR [--measure M] [--by PROP] [--interval day|week|month] [--top N]",
              example: "trend post.shared --by channel --interval week", argument: .selector, type: TrendCommand.self,
              takesFormat: true, takesAsOf: true),
        .init(name: "breakdown", summary: "one number per value of a property", usage: "breakdown SELECTOR --by PROP [--measure M] [--top N]",
              example: "breakdown post.flagged --by reason", argument: .selector, type: BreakdownCommand.self, takesFormat: true, takesAsOf: true),
        .init(name: "top", summary: "the biggest values of any property", usage: "top DIMENSION [--measure M] [--limit N]",
              example: "top brands", argument: .property, type: TopCommand.self, takesFormat: true, takesAsOf: true),
        .init(name: "insight", summary: "save an insight by name, run it again, list them", usage: "insight save NAME 'COMMAND' | run NAME | list | delete NAME",
              example: "insight save shares 'trend post.shared --by channel'", type: InsightCommand.self),
        .init(name: "paths", summary: "where people go between screens", usage: "paths [--start SELECTOR] [--depth N] [--top K] [--actor user|device]",
              example: "paths --depth 3", type: PathsCommand.self, takesFormat: true, takesAsOf: true),
        .init(name: "report", summary: "write the nightly report (HTML, Markdown, CSV)", usage: "report nightly [--date D] [--out DIR]",
              example: "report nightly --date 2012-05-01 --out Reports", argument: .report, type: NightlyReportCommand.self),
        .init(name: "post", summary: "one post on one screen", usage: "post POST", example: "post p2545f4914f6d",
              argument: .post, type: PostCommand.self, takesFormat: true, takesAsOf: true),
        .init(name: "user", summary: "one user on one screen", usage: "user USER", example: "user u5e1ea978",
              argument: .user, type: UserCommand.self, takesFormat: true, takesAsOf: true),
        .init(name: "anomalies", summary: "valid events the rules ignored", usage: "anomalies", example: "anomalies",
              type: AnomaliesCommand.self, takesFormat: true, takesAsOf: true),
        .init(name: "events", summary: "list or tail events, filtered", usage: "events [--type T] [--user U] [--post P] [--since T] [--tail N]",
              example: "events --type post.voted --tail 20", type: EventsCommand.self, takesFormat: true),
        .init(name: "event", summary: "one event in full", usage: "event SEQ", example: "event 42", type: EventCommand.self, takesFormat: true),
        .init(name: "status", summary: "the log and its read models at a glance", usage: "status", example: "status",
              type: StatusCommand.self),
        .init(name: "verify", summary: "check the log against its hash chain", usage: "verify", example: "verify",
              type: VerifyCommand.self),
        .init(name: "rebuild", summary: "recompute read models, or --check them", usage: "rebuild [NAME] [--check]",
              example: "rebuild --check", argument: .readModel, type: RebuildCommand.self),
        .init(name: "ingest", summary: "append JSON Lines events", usage: "ingest FILE…", example: "ingest Events/samples/examples.jsonl",
              type: IngestCommand.self),
        .init(name: "quarantine", summary: "rejected input lines", usage: "quarantine [list|show N|retry]", example: "quarantine",
              type: QuarantineCommand.self),
        .init(name: "catalog", summary: "the event types and their fields", usage: "catalog", example: "catalog",
              type: CatalogCommand.self, takesFormat: true),
        .init(name: "sql", summary: "a read-only SQL query on the store", usage: "sql SELECT …",
              example: "sql SELECT type, COUNT(*) FROM events GROUP BY type"),
        .init(name: "format", summary: "answers as table, csv, json or markdown", usage: "format table|csv|json|markdown",
              example: "format csv", argument: .format),
        .init(name: "timer", summary: "print each answer's time", usage: "timer on|off", example: "timer on", argument: .onOff),
        .init(name: "output", summary: "send all answers to a file (off, or no file: back to the screen)", usage: "output [FILE|off]",
              example: "output answers.csv"),
        .init(name: "once", summary: "send the next answer to a file", usage: "once FILE", example: "once looks.json"),
        .init(name: "asof", summary: "answer as of a moment until asof off (shown in the prompt)", usage: "asof TIME|off",
              example: "asof 2012-05-01T12:00:00Z"),
        .init(name: "help", summary: "list commands, or one command's usage and example", usage: "help [COMMAND]",
              example: "help looks", argument: .command),
        .init(name: "quit", summary: "leave (Ctrl-D too)", usage: "quit", example: "quit"),
    ]

    static func named(_ name: String) -> ConsoleCommandInfo? { all.first { $0.name == name || (name == "exit" && $0.name == "quit") } }

    /// The command name closest to `word` by edit distance, when close enough to be a typo.
    static func nearest(to word: String) -> String? {
        let scored = all.map { ($0.name, editDistance(word, $0.name)) }.min { $0.1 < $1.1 }
        // Up to one edit in three or four letters, two in five or more (a swapped pair is two).
        guard let (name, distance) = scored, distance <= max(1, min(word.count, name.count) / 2) else { return nil }
        return name
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
