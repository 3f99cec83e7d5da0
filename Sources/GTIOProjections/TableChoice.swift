/// Which of the read models' tables a write fills: all of them, or only those an answer reads.
///
/// A view written for one answer (an `--as-of` query, the nightly report) need not hold every
/// table: at 20 M events the follow graph and the hearts alone are ~4 M rows that `looks` or the
/// report never reads. A
/// table left out is not created either, so a query that reads it fails loudly ("no such
/// table") rather than answering from an empty table.
public struct TableChoice: Sendable {
    private let names: Set<String>?

    /// Every table.
    public static let all = TableChoice(names: nil)

    /// Only the tables named (each one of `ReadModelTables`'), with the read models' own
    /// bookkeeping (`rm_meta`, checkpoints).
    public static func only(_ names: Set<String>) -> TableChoice {
        let known = Set(ReadModelTables.tables.values.joined().map(\.name))
        precondition(names.isSubset(of: known), "not read-model tables: \(names.subtracting(known).sorted())")
        return TableChoice(names: names)
    }

    /// Whether the table `name` is written.
    func contains(_ name: String) -> Bool { names?.contains(name) ?? true }

    /// Whether any table of `model` is written.
    func includes(_ model: ReadModelName) -> Bool { ReadModelTables.tables[model]!.contains { contains($0.name) } }

    /// The tables of both.
    public static func + (lhs: TableChoice, rhs: TableChoice) -> TableChoice {
        guard let left = lhs.names, let right = rhs.names else { return .all }
        return TableChoice(names: left.union(right))
    }
}

/// The tables each of `StoredReadModels`' answers reads, for a view written for one answer
/// (`--as-of`, `--at-seq`, the server's `as_of`, the report), declared in the queries' module.
/// `ViewTablesTests` and the read API's test answer each query for the log's last seq from such
/// a view and from the store's tables: a table missing here fails them.
extension TableChoice {
    /// `looks` (the `wear-it` tab ranks by `rm_verdicts`).
    public static let looks = only(["rm_posts", "rm_verdicts"])
    /// `verdicts`, `verdict(post:)` and `post(_:)`.
    public static let verdicts = only(["rm_posts", "rm_verdicts"])
    /// `knows(user:)`, `followers(of:)`, `following(of:)`.
    public static let follows = only(["rm_users", "rm_follows"])
    /// `suggestions(for:)`: the follow graph, blocks, and who has live posts.
    public static let suggestions = only(["rm_users", "rm_follows", "rm_blocks", "rm_posts"])
    /// `moderationQueue` (its reason filter reads the flag marks, and the desk's length of the
    /// queue to choose how; each item carries its preview).
    public static let queue = only(["rm_flags", "rm_flag_marks", "rm_desk"])
    /// `flaggers`.
    public static let flaggers = only(["rm_flaggers"])
    /// `products`.
    public static let products = only(["rm_products", "rm_product_channels"])
    /// `places`.
    public static let places = only(["rm_posts", "rm_post_brands", "rm_places"])
    /// `prices`.
    public static let prices = only(["rm_price_groups"])
    /// `anomalies(on:)`.
    public static let anomalies = only(["rm_anomalies", "rm_anomaly_days"])
    /// `engagement(on:)`, `queueSize()`, `decisionFigures`: a day's `stats`.
    public static let engagement = only(["rm_days", "rm_days_after", "rm_signups", "rm_desk", "rm_decisions", "rm_moderators"])
    /// The onboarding funnel, and `loggedDays()` for its note on days outside the log.
    public static let onboarding = only(["rm_funnel_days", "rm_days"])
    /// Retention by sign-up cohort, and `loggedDays()` likewise.
    public static let cohorts = only(["rm_cohort_days", "rm_days"])
}
