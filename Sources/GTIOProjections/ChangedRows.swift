import GTIOCatalog
import GTIOStore

/// The table rows a run of applied events changed, built from the read models before the write
/// transaction that stores them: the tables have one writer at a time, and other catch-ups (and
/// a decision waiting for the tables to stand at the log's end) wait for as long as one holds
/// it, so nothing but the writes happens inside.
struct ChangedRows: Sendable {
    private enum Step: Sendable {
        /// Each key left with its row, or none (`TableWriting.rewrite`).
        case rewrite(TableLayout, keys: [[StoreValue]], rows: [[StoreValue]?])
        /// The rows of several parents replaced (`TableWriting.replace`).
        case replace(TableLayout, column: String, values: [StoreValue], rows: [[StoreValue]])
        /// The whole table written anew.
        case reload(TableLayout, rows: [[StoreValue]])
    }

    private var steps: [Step] = []
    /// Where the tables stand once written: the last seq applied, its "now", events applied.
    private let seq: Int64, newestAt: Int64?, events: Int

    /// The rows of every model that `changes` touched, as `models` has them.
    init(_ changes: ChangeSet, _ models: ReadModels) {
        let state = models.state
        seq = state.lastSeq
        newestAt = state.newestAt
        events = state.eventCount
        let users = Array(changes.users), follows = Array(changes.follows), blocks = Array(changes.blocks)
        let posts = Array(changes.posts), hearts = Array(changes.hearts), reviews = Array(changes.reviews)
        let items = Array(changes.items), devices = Array(changes.devices)
        let products = Array(changes.products), flaggers = Array(changes.flaggers)
        rewrite("rm_users", keys: users.map { [$0.storeValue] }, rows: users.map(models.userRow))
        rewrite("rm_follows", keys: follows.map { [$0.first.storeValue, $0.second.storeValue] }, rows: follows.map(models.followRow))
        rewrite("rm_blocks", keys: blocks.map { [$0.first.storeValue, $0.second.storeValue] }, rows: blocks.map(models.blockRow))
        rewrite("rm_posts", keys: posts.map { [$0.storeValue] }, rows: posts.map(models.postRow))
        rewrite("rm_hearts", keys: hearts.map { [$0.first.storeValue, $0.second.storeValue] }, rows: hearts.map(models.heartRow))
        rewrite("rm_reviews", keys: reviews.map { [$0.storeValue] }, rows: reviews.map(models.reviewRow))
        let places = Array(changes.places)
        rewrite("rm_places", keys: places.map { [KeyText.of($0.text).storeValue] }, rows: places.map(models.placeRow))
        let newPosts = Array(changes.newPosts)
        replace("rm_post_brands", where: "post", in: newPosts.map(StoreValue.text), with: newPosts.flatMap(models.brandRows))
        rewrite("rm_products", keys: products.map { [$0.storeValue] }, rows: products.map(models.productRow))
        replace("rm_product_channels", where: "product", in: products.map(StoreValue.text), with: products.flatMap(models.channelRows))
        let prices = Array(changes.pricePoints)
        rewrite("rm_price_points", keys: prices.map { [$0.kind.storeValue, KeyText.of($0.group.text).storeValue, .real($0.price)] },
                rows: prices.map(models.pricePointRow))
        let groups = Array(Set(prices.map(PriceGroup.init)))
        rewrite("rm_price_groups", keys: groups.map { [$0.kind.storeValue, KeyText.of($0.group.text).storeValue] }, rows: groups.map(models.priceGroupRow))
        rewrite("rm_flaggers", keys: flaggers.map { [$0.storeValue] }, rows: flaggers.map(models.flaggerRow))
        rewrite("rm_verdicts", keys: posts.map { [$0.storeValue] }, rows: posts.map(models.verdictRow))
        let cohorts = Array(changes.users.union(changes.cohorts))
        rewrite("rm_cohorts", keys: cohorts.map { [$0.storeValue] }, rows: cohorts.map(models.cohortRow))
        rewrite("rm_devices", keys: devices.map { [$0.storeValue] }, rows: devices.map(models.deviceRow))
        let funnelDays = changes.onboardingDays.sorted(), cohortDays = changes.cohortDays.sorted()
        rewrite("rm_funnel_days", keys: funnelDays.map { [Timestamp.dateString(ofDay: $0).storeValue] }, rows: funnelDays.map(models.funnelDayRow))
        rewrite("rm_cohort_days", keys: cohortDays.map { [Timestamp.dateString(ofDay: $0).storeValue] }, rows: cohortDays.map(models.cohortDayRow))
        rewrite("rm_flags", keys: items.map { [$0.storeValue] }, rows: items.map(models.flagRow))
        // An item's flags are rewritten one by one when few of them changed (a flag on an item
        // flagged thousands of times), and replaced whole when most did (a decision closes every
        // open one): row for row, a keyed rewrite costs more than a replace.
        var whole: [String] = [], marks: [FlagMarkKey] = []
        for (item, changed) in Dictionary(grouping: changes.flagMarks, by: \.item) {
            if changed.count * 2 > state.items[item.text]?.history.count ?? 0 { whole.append(item.text) } else { marks += changed }
        }
        replace("rm_flag_marks", where: "item", in: whole.map(StoreValue.text), with: whole.flatMap(models.flagMarkRows))
        rewrite("rm_flag_marks", keys: marks.map { [$0.item.text.storeValue, $0.seq.storeValue] }, rows: marks.map(models.flagMarkRow))
        let decisions = Array(changes.firstNewDecision..<state.decisions.count)
        rewrite("rm_decisions", keys: decisions.map { [state.decisions[$0].seq.storeValue] }, rows: decisions.map(models.decisionRow))
        if !items.isEmpty || !decisions.isEmpty {
            let desk = state.desk
            rewrite("rm_desk", keys: [[DeskTotals.scope.storeValue]], rows: [models.deskRow(desk)])
            let moderators = Array(IDSet(decisions.map { state.decisions[$0].moderator }))
            rewrite("rm_moderators", keys: moderators.map { [$0.storeValue] }, rows: moderators.map { models.moderatorRow($0, in: desk) })
        }
        if let range = models.dayRange {
            let days = changes.dayRows(within: range)
            rewrite("rm_days", keys: days.map { [Timestamp.dateString(ofDay: $0).storeValue] }, rows: days.map(models.dayRow))
            // Sign-ups and anomalies count on their own day only.
            let changed = changes.days.sorted()
            let dates = changed.map { StoreValue.text(Timestamp.dateString(ofDay: $0)) }
            replace("rm_signups", where: "date", in: dates, with: changed.flatMap(models.signupRows))
            replace("rm_anomaly_days", where: "date", in: dates, with: changed.flatMap { models.anomalyRows(on: $0) })
            if !days.isEmpty { steps.append(.reload(ReadModelTables.layout("rm_days_after"), rows: models.daysAfterRows())) }
        }
        if changes.anomalies { steps.append(.reload(ReadModelTables.layout("rm_anomalies"), rows: models.anomalyRows())) }
    }

    private mutating func rewrite(_ table: String, keys: [[StoreValue]], rows: [[StoreValue]?]) {
        guard !keys.isEmpty else { return }
        steps.append(.rewrite(ReadModelTables.layout(table), keys: keys, rows: rows))
    }

    /// Every row of `table` whose `column` is one of `values` replaced with `rows`.
    private mutating func replace(_ table: String, where column: String, in values: [StoreValue], with rows: [[StoreValue]]) {
        guard !values.isEmpty || !rows.isEmpty else { return }
        steps.append(.replace(ReadModelTables.layout(table), column: column, values: values, rows: rows))
    }

    /// Writes the rows and moves every checkpoint to the seq of the read models they came from,
    /// in the caller's transaction. Every checkpoint must stand where the change set began.
    /// Returns the rows written; `betweenTables` runs before each table's rows.
    @discardableResult
    func write(in tx: any TableWriting, betweenTables: () -> Void = {}) throws -> Int {
        var written = 0
        for step in steps {
            betweenTables()
            switch step {
            case .rewrite(let table, let keys, let rows):
                try tx.rewrite(table, keys: keys, rows: rows)
                written += rows.count { $0 != nil }
            case .replace(let table, let column, let values, let rows):
                try tx.replace(table, where: column, in: values, with: rows)
                written += rows.count
            case .reload(let table, let rows):
                try tx.deleteAll(from: table.name)
                try tx.replace(table, where: table.keyColumns[0], in: [], with: rows)  // inserts only
                written += rows.count
            }
        }
        for model in ReadModelName.allCases { try tx.setCheckpoint(model.checkpointName, seq: seq) }
        try ReadModelSchema.writePosition(seq: seq, newestAt: newestAt, events: events, in: tx)
        return written
    }
}
