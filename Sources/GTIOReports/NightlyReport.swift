import GTIOAnalytics
import GTIOCatalog
import GTIOProjections
import GTIOStore
import GTIOTables

/// Everything the nightly report shows for one UTC day, computed once from the log as of the
/// end of that day: the files are only different renderings of this value.
public struct NightlyReport: Sendable {
    /// Days in the trend charts and the CSV files of days (the day and the 29 before it).
    public static let trendDays: Int64 = 30
    public static let topLooks = 10
    /// Rows of the products and places sections.
    public static let topProducts = 10
    public static let topPlaces = 10

    public var day: Int64
    /// The end of the log when the report was computed, and the events of it in view (`at` ≤ cutoff).
    public var logSeq: Int64
    public var eventsInView: Int
    public var firstDay: Int64
    public var lastDay: Int64
    public var headline: [HeadlineFigure]
    /// Engagement of each day of the trend window, oldest first.
    public var trend: [EngagementDay]
    public var looks: [Look]
    /// The vote verdicts of the looks that have votes, by post.
    public var lookVerdicts: IDMap<VoteVerdict>
    public var verdicts: [VoteVerdict]
    public var funnel: OnboardingFunnel
    public var funnelByDay: [(day: Int64, funnel: OnboardingFunnel)]
    public var retention: [RetentionCohort]
    public var quickAddToday: QuickAddAcceptance
    public var quickAddTrend: QuickAddAcceptance
    public var moderationToday: ModerationFigures
    public var moderationTrend: ModerationFigures
    public var queue: ResultTable
    /// Products and places at the end of the day, suggestions by channel so far, and the prices
    /// of the live product posts created on the day (in seq order).
    public var products: [ProductLine]
    public var suggestionChannels: [(channel: String, count: Int)]
    public var places: [PlaceLine]
    public var dayPrices: [Double]
    /// Every saved insight's answer for the day, by name; set by whoever can run them.
    public var savedInsights: [SavedInsightAnswer] = []
    public var anomalies: [AnomalyCount]
    /// Input still waiting in quarantine, and how many entries that is.
    public var quarantine: [QuarantineEntry]
    public var quarantined: Int

    public var date: String { Timestamp.dateString(ofDay: day) }
    /// The days of the trends: the last 30, or fewer when the log begins later.
    public var trendRange: ClosedRange<Int64> { max(firstDay, day - Self.trendDays + 1)...day }
    /// The trend days in words: "2012-04-02 to 2012-05-01".
    public var trendLabel: String { Timestamp.dateString(ofDay: trendRange.lowerBound) + " to " + date }
    /// The last millisecond of the day: the report's "now".
    public var cutoff: Timestamp { Timestamp.endOfDay(day) }
    public var today: EngagementDay { trend[trend.count - 1] }
    /// Whether any event of the log happened on the day.
    public var dayHasEvents: Bool { today.events > 0 }

    /// The last full UTC day of the log: the day before its newest event's day.
    public static func defaultDay(of status: StoreStatus) throws -> Int64 {
        guard let first = status.firstAt, let last = status.lastAt else { throw ReportError.emptyLog }
        guard last.day - 1 >= first.day else { throw ReportError.noFullDay(newest: last.description) }
        return last.day - 1
    }

    /// Computes the report of `day` (nil: the default day) from `store`; a day outside the log's
    /// first to last day is refused.
    public static func compute(store: any EventStore, day: Int64?) throws -> NightlyReport {
        // One status read: finding the first and last `at` scans the log.
        let status = try store.status()
        let day = try day ?? defaultDay(of: status)
        guard let firstAt = status.firstAt, let lastAt = status.lastAt else { throw ReportError.emptyLog }
        guard (firstAt.day...lastAt.day).contains(day) else {
            throw ReportError.dateOutsideLog(Timestamp.dateString(ofDay: day), first: firstAt.dateString, last: lastAt.dateString)
        }
        // The day's view, folded into tables of its own and answered by the console's queries.
        let models = try ReadModelEngine(store: store).scratch(
            .asOf(Timestamp.endOfDay(day)), throughSeq: status.lastSeq, tables: tablesRead)
        return try make(models, day: day, logSeq: status.lastSeq, firstDay: firstAt.day, lastDay: lastAt.day,
                        quarantine: try store.quarantineEntries(), quarantined: Int(status.quarantined))
    }

    /// The tables `make` reads, by the queries it asks: the day's view is written with these
    /// alone. The follow graph, the users, the hearts and the flaggers (~4.5 M of ~9 M rows at
    /// 20 M events) are not read; a query that came to read one would fail on the missing table.
    static let tablesRead: TableChoice = .engagement + .looks + .verdicts + .queue + .onboarding + .cohorts
        + .products + .places + .anomalies

    /// The report from read models as of the end of `day`.
    static func make(_ models: StoredReadModels, day: Int64, logSeq: Int64, firstDay: Int64, lastDay: Int64,
                     quarantine: [QuarantineEntry], quarantined: Int) throws -> NightlyReport {
        let trendRange = max(firstDay, day - trendDays + 1)...day
        let trend = try trendRange.map { try models.engagement(on: $0) }
        let (now, before, weekBefore) = (try models.engagement(on: day), try models.engagement(on: day - 1), try models.engagement(on: day - 7))
        let metrics: [(String, (EngagementDay) -> Int)] = [
            ("DAU", \.dau), ("WAU", \.wau), ("MAU", \.mau), ("Sign-ups", { $0.signups.values.reduce(0, +) }),
            ("Posts", { $0.actions[.posts] ?? 0 }), ("Hearts", { $0.actions[.hearts] ?? 0 }),
            ("Votes", { $0.actions[.votes] ?? 0 }), ("Reviews", { $0.actions[.reviews] ?? 0 }),
            ("Flags", { $0.actions[.flags] ?? 0 }),
        ]
        let headline = metrics.map { name, value in
            HeadlineFigure(name: name, value: value(now), dayBefore: day - 1 >= firstDay ? value(before) : nil,
                           weekBefore: day - 7 >= firstDay ? value(weekBefore) : nil)
        }
        let looks = try models.looks(.popular, limit: topLooks)
        let queue = try models.moderationQueue()
        var lookVerdicts: IDMap<VoteVerdict> = [:]
        for look in looks { lookVerdicts[look.post] = try models.verdict(post: look.post) }
        return NightlyReport(
            day: day, logSeq: logSeq, eventsInView: models.eventCount, firstDay: firstDay, lastDay: lastDay,
            headline: headline, trend: trend, looks: looks, lookVerdicts: lookVerdicts, verdicts: try models.verdicts(),
            funnel: try models.onboardingFunnel(firstOpenedOn: trendRange), funnelByDay: try models.onboardingFunnelByDay(trendRange),
            retention: try models.retention(cohorts: (day - trendDays)...(day - 1)),
            quickAddToday: QuickAddAcceptance(shown: now.quickAddShown, accepted: now.quickAddAccepted),
            quickAddTrend: try models.quickAddAcceptance(shownOn: trendRange),
            moderationToday: try models.moderationFigures(decidedOn: day...day, queue: queue),
            moderationTrend: try models.moderationFigures(decidedOn: trendRange, queue: queue),
            queue: AnswerTable.flags(queue),
            products: try models.products(limit: topProducts), suggestionChannels: try models.suggestionsByChannel(),
            places: try models.places(limit: topPlaces),
            dayPrices: try models.productPrices(created: day * Timestamp.millisecondsPerDay...Timestamp.endOfDay(day).milliseconds),
            anomalies: try models.anomalies(on: day), quarantine: quarantine, quarantined: quarantined)
    }

    /// The day's prices as one group, nil when no priced product post was created on it.
    public var priceSummary: PriceLine? { dayPrices.isEmpty ? nil : PriceLine(group: date, prices: dayPrices) }

    /// The vote verdict of one of the looks, when it has votes.
    public func verdict(of post: String) -> VoteVerdict? { lookVerdicts[post] }
}
