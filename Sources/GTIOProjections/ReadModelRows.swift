import Algorithms
import GTIOCatalog
import GTIOStore

/// The row each read-model table holds for one key: appended to `row`, or false when the table
/// holds none (and nothing appended). Full rewrites, rewrites of changed rows and
/// `rebuild --check` all build rows here, so they cannot drift apart.
extension ReadModels {
    typealias Pair = CommunityState.BlockPair

    func userRow(_ user: String, into row: inout some RowSink) -> Bool {
        guard let key = state.userKeys.key(user), key < state.known.count, state.known[key] || state.names[key] != nil else { return false }
        userRow(user, key: key, into: &row)
        return true
    }

    /// The row of `user`, whose key is `key`: the follow graph's figures by key.
    func userRow(_ user: String, key: Int, into row: inout some RowSink) {
        let signup = state.signup(ofUser: key)
        row.append(user)
        row.append(name(of: user))
        row.append(state.follows.isPrivate(key))
        row.append(state.follows.followerCount(key))
        row.append(state.follows.followingCount(key))
        row.append(signup?.at)
        row.append(signup?.provider)
        row.append(state.productsHearted[key] ?? 0)
        row.append(state.listSizes[key] ?? 0)
    }

    func followRow(_ follower: String, _ target: String, _ edge: CommunityState.EdgeState, into row: inout some RowSink) {
        row.append(follower)
        row.append(target)
        row.append(edge.column)
        let followerName = name(of: follower)
        row.append(followerName)
        row.append(name(of: target))
        row.append(NameOrder.text(followerName ?? follower))
    }

    func blockRow(_ blocker: String, _ blocked: String, into row: inout some RowSink) {
        row.append(blocker)
        row.append(blocked)
    }

    /// `hidden`: whether the post is hidden (see `CommunityState.hiddenPosts`).
    func postRow(_ post: CommunityState.Post, hidden: Bool, into row: inout some RowSink) {
        row.append(post.id)
        row.append(post.author)
        row.append(post.kind)
        row.append(post.voting)
        row.append(post.created)
        row.append(post.life.column)
        row.append(post.heartCount)
        row.append(post.wearIt)
        row.append(post.changeIt)
        row.append(post.liveReviews)
        row.append(post.shares)
        row.append(hidden)
        row.append(points(post))
        row.append(post.description)
        row.append(post.createdSeq)
        row.append(post.product)
        row.append(post.price)
        row.append(post.place?.name)
        row.append(post.place?.latitude)
        row.append(post.place?.longitude)
        row.append(state.isPrivate(post.author))
    }

    /// A post's distinct brands, one row each.
    func brandRows(_ post: CommunityState.Post, into rows: inout some RowSink) {
        for brand in post.brands.distinctInCodePointOrder() {
            rows.append(post.id)
            rows.append(KeyText.of(brand))
            rows.append(brand)
        }
    }

    /// The figures of `group`'s live product posts; no row when it has none.
    func priceGroupRow(_ group: PriceGroup, into row: inout some RowSink) -> Bool {
        guard let prices = state.priceGroups[group] else { return false }
        let line = PriceLine(group: group.group.text, points: prices.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        row.append(group.kind)
        row.append(KeyText.of(group.group.text))
        row.append(group.group.text)
        row.append(line.posts)
        row.append(line.min)
        row.append(line.median)
        row.append(line.mean)
        row.append(line.p90)
        row.append(line.max)
        return true
    }

    /// The tally of the looks at `place`; no row when none counts.
    func placeRow(_ place: ExactText, into row: inout some RowSink) -> Bool {
        guard let tally = state.placeTallies[place] else { return false }
        row.append(KeyText.of(place.text))
        row.append(place.text)
        row.append(tally.posts)
        row.append(tally.authors)
        row.append(tally.points)
        return true
    }

    /// How many live product posts have `point`'s price in its group; no row for none.
    func pricePointRow(_ point: PricePoint, into row: inout some RowSink) -> Bool {
        guard let posts = state.priceGroups[PriceGroup(point)]?[point.price] else { return false }
        row.append(point.kind)
        row.append(KeyText.of(point.group.text))
        row.append(point.price)
        row.append(point.group.text)
        row.append(posts)
        return true
    }

    /// A product's row: every product named so far has one, its figures zero or not.
    func productRow(_ product: String, _ tally: ProductTally, into row: inout some RowSink) {
        let (posts, price) = state.postsAndPrice(of: tally)
        row.append(product)
        row.append(tally.hearts)
        row.append(tally.lists)
        row.append(tally.suggestions)
        row.append(posts)
        row.append(price)
    }

    /// A product's suggestions by channel, one row each.
    func channelRows(_ product: String, _ tally: ProductTally, into rows: inout some RowSink) {
        for (channel, count) in tally.channels.sorted(by: { $0.key < $1.key }) {
            rows.append(product)
            rows.append(channel)
            rows.append(count)
        }
    }

    func flaggerRow(_ user: String, _ record: FlaggerRecord, into row: inout some RowSink) {
        row.append(user)
        row.append(record.flagged.count)
        row.append(record.upheld.count)
        row.append(record.dismissed.count)
        row.append(record.accuracy)
    }

    func heartRow(_ post: String, _ user: String, _ seq: Int64, into row: inout some RowSink) {
        row.append(post)
        row.append(user)
        row.append(seq)
    }

    func reviewRow(_ review: CommunityState.Review, into row: inout some RowSink) {
        row.append(review.id)
        row.append(review.post)
        row.append(review.author)
        row.append(review.at)
        row.append(review.removed)
        row.append(review.agreers.count)
        row.append(review.text)
        row.append(review.seq)
    }

    func verdictRow(_ post: CommunityState.Post, into row: inout some RowSink) -> Bool {
        guard let verdict = verdict(of: post) else { return false }
        row.append(verdict.post)
        row.append(verdict.wearIt)
        row.append(verdict.changeIt)
        row.append(verdict.share)
        row.append(verdict.wilson)
        row.append(verdict.label)
        row.append(verdict.votes)
        return true
    }

    func flagRow(_ item: String, into row: inout some RowSink) -> Bool {
        guard let entry = state.items[item], !entry.open.isEmpty, let first = state.firstFlagged(item) else { return false }
        row.append(item)
        row.append(entry.open.count)
        row.append(first.at)
        row.append(entry.open.count >= CommunityState.hiddenAt)
        row.append(entry.open.values.map(\.at).max() ?? first.at)
        row.append(entry.lastFlagSeq)
        row.append(reasons(of: entry))
        row.append(author(of: item))
        row.append(previewText(of: item))
        return true
    }

    /// The distinct reasons of an item's open flags, sorted by code point and joined with `;`
    /// (an empty reason is none).
    func reasons(of entry: CommunityState.FlagItem) -> String {
        entry.open.values.compactMap { $0.reason.flatMap { $0.isEmpty ? nil : $0 } }
            .distinctInCodePointOrder()
            .joined(separator: ";")
    }

    /// Who wrote a flagged post or review.
    func author(of item: String) -> String? {
        guard let ref = ItemRef(item) else { return nil }
        return ref.kind == .post ? state.post(id: ref.id)?.author : state.reviews[ref.id]?.author
    }

    /// A flagged post's description or review's text, nil for a post without one.
    func previewText(of item: String) -> String? {
        guard let ref = ItemRef(item) else { return nil }
        return ref.kind == .post ? state.post(id: ref.id)?.description : state.reviews[ref.id]?.text
    }

    /// Every flag applied to `item`, closed rounds included, in seq order; `open` marks the ones
    /// still counting.
    func flagMarkRows(_ item: String, into rows: inout some RowSink) {
        guard let entry = state.items[item] else { return }
        for flag in entry.history { flagMarkRow(item, flag, of: entry, into: &rows) }
    }

    private func flagMarkRow(
        _ item: String, _ flag: (user: String, mark: CommunityState.FlagMark, counted: Bool), of entry: CommunityState.FlagItem,
        into row: inout some RowSink
    ) {
        row.append(item)
        row.append(flag.mark.seq)
        row.append(flag.user)
        row.append(flag.mark.at)
        row.append(flag.mark.reason)
        row.append(flag.counted)
        row.append(entry.open[flag.user]?.seq == flag.mark.seq)
    }

    func decisionRow(_ index: Int, into row: inout some RowSink) -> Bool {
        guard index < state.decisions.count else { return false }
        let d = state.decisions[index]
        row.append(d.seq)
        row.append(d.at)
        row.append(d.item)
        row.append(d.action)
        row.append(d.moderator)
        row.append(d.note)
        row.append(d.flaggers)
        row.append(d.firstFlagged)
        row.append(max(0, d.at - d.firstFlagged))
        return true
    }

    /// The one row of `rm_desk`: the queue and every decision in numbers.
    func deskRow(_ desk: DeskTotals, into row: inout some RowSink) {
        row.append(DeskTotals.scope)
        row.append(desk.queue)
        row.append(desk.hidden)
        row.append(desk.decided.decisions)
        row.append(desk.decided.removed)
        row.append(desk.decided.dismissed)
        row.append(desk.medianWait)
        row.append(desk.p90Wait)
    }

    func moderatorRow(_ moderator: String, _ tally: DeskTotals.Tally, into row: inout some RowSink) {
        row.append(moderator)
        row.append(tally.decisions)
        row.append(tally.removed)
        row.append(tally.dismissed)
    }

    /// The `rm_days` row of `day`, a day of the log's span with events, or whose WAU and MAU
    /// count users active before it. Any other day's figures are all 0 and it has no row: one
    /// event dated centuries away must not fill the table with the days between.
    func dayRow(_ day: Int64, into row: inout some RowSink) -> Bool {
        guard let days = dayRange, days.contains(day) else { return false }
        let figures = engagement(on: day)
        guard figures.events > 0 || figures.mau > 0 else { return false }
        row.append(figures.date)
        row.append(figures.dau)
        row.append(figures.wau)
        row.append(figures.mau)
        row.append(figures.devices)
        row.append(figures.signups.values.reduce(0, +))
        for action in CommunityState.Action.allCases { row.append(figures.actions[action] ?? 0) }
        row.append(figures.events)
        row.append(figures.quickAddShown)
        row.append(figures.quickAddAccepted)
        return true
    }

    /// The sign-up cohort of `user` and whether they were active 1, 7 and 30 days after it
    /// (EVENTS.md, Engagement); no row for a user who never signed up.
    func cohortRow(_ user: String, into row: inout some RowSink) -> Bool {
        guard let key = state.userKeys.key(user), key < state.firstSignUps.count, !state.firstSignUps[key].isNone else { return false }
        cohortRow(user, key: key, into: &row)
        return true
    }

    /// The cohort row of `user`, whose key is `key` and who signed up.
    func cohortRow(_ user: String, key: Int, into row: inout some RowSink) {
        let day = state.firstSignUps[key].day
        row.append(user)
        row.append(Timestamp.dateString(ofDay: day))
        for offset in Self.retentionOffsets { row.append(state.userActivity.contains(key, on: day + offset)) }
    }

    /// The devices first opened on `day` at each step they reached; no row for a day without one.
    func funnelDayRow(_ day: Int64, into row: inout some RowSink) -> Bool {
        guard let tally = state.onboardingByDay[day] else { return false }
        row.append(Timestamp.dateString(ofDay: day))
        for count in tally.reached { row.append(count) }
        return true
    }

    /// The users who first signed up on `day` and those active again 1, 7 and 30 days later; no
    /// row for a day without sign-ups.
    func cohortDayRow(_ day: Int64, into row: inout some RowSink) -> Bool {
        guard let cohort = state.cohortsByDay[day] else { return false }
        row.append(Timestamp.dateString(ofDay: day))
        row.append(cohort.users)
        for count in cohort.retained { row.append(count) }
        return true
    }

    /// A device's first open and the furthest onboarding step it reached (`CommunityState.onboardingStep`).
    func deviceRow(_ device: String, _ step: (opened: Int64, step: Int), into row: inout some RowSink) {
        row.append(device)
        row.append(step.opened)
        row.append(Timestamp.dateString(ofDay: Timestamp(milliseconds: step.opened).day))
        row.append(step.step)
    }

    /// A day's sign-ups by provider, one row each.
    func signupRows(_ day: Int64, into rows: inout some RowSink) {
        for (provider, count) in (state.signupsByDay[day] ?? [:]).sorted(by: { $0.key < $1.key }) {
            rows.append(Timestamp.dateString(ofDay: day))
            rows.append(provider)
            rows.append(count)
        }
    }

    /// The events the rules ignored on `day`, by type and reason.
    func anomalyRows(on day: Int64, into rows: inout some RowSink) {
        for anomaly in anomalies(on: day) {
            rows.append(Timestamp.dateString(ofDay: day))
            rows.append(anomaly.type.rawValue)
            rows.append(anomaly.anomaly.rawValue)
            rows.append(anomaly.count)
        }
    }

    /// The WAU and MAU of the days after the log's last one that users active before it still
    /// count in (29 at most): they have no `rm_days` row, and `stats --date` may ask for them.
    func daysAfterRows(into rows: inout some RowSink) {
        guard let last = dayRange?.upperBound else { return }
        for day in (last + 1)..<(last + ActiveWindows.month) {
            let windows = state.activeWindows.figures(on: day)
            guard windows.mau > 0 else { break }  // a day outside everyone's month; so are the later ones
            rows.append(Timestamp.dateString(ofDay: day))
            rows.append(windows.wau)
            rows.append(windows.mau)
        }
    }

    func anomalyRows(into rows: inout some RowSink) {
        for anomaly in anomalies() {
            rows.append(anomaly.type.rawValue)
            rows.append(anomaly.anomaly.rawValue)
            rows.append(anomaly.count)
        }
    }

    /// The keys of every user any table row mentions: known ones, and any other with a name.
    var allUserKeys: [Int] {
        state.known.indices.filter { state.known[$0] || state.names[$0] != nil }
    }
    /// The log's first to last UTC day with events, nil for an empty log.
    var dayRange: ClosedRange<Int64>? { state.dayRange }

    /// The days that may have an `rm_days` row, ascending: those with events and the month
    /// after each (a MAU counts 30 days), within the log's span.
    var daysWithRows: [Int64] {
        guard let range = dayRange else { return [] }
        var days: [Int64] = []
        for day in state.eventsByDay.keys.sorted() {
            let first = max(day, (days.last ?? .min) + 1), last = min(day + ActiveWindows.month - 1, range.upperBound)
            if first <= last { days.append(contentsOf: first...last) }
        }
        return days
    }

    // MARK: Rows by key, as values

    func userRow(_ user: String) -> [StoreValue]? { valueRow { userRow(user, into: &$0) } }

    func followRow(_ pair: Pair) -> [StoreValue]? {
        guard let edge = state.edge(from: pair.first, to: pair.second) else { return nil }
        return valueRow { followRow(pair.first, pair.second, edge, into: &$0); return true }
    }

    func blockRow(_ pair: Pair) -> [StoreValue]? {
        guard state.blocks(pair.first, pair.second) else { return nil }
        return valueRow { blockRow(pair.first, pair.second, into: &$0); return true }
    }

    func postRow(_ id: String) -> [StoreValue]? {
        guard let post = state.post(id: id) else { return nil }
        return valueRow { postRow(post, hidden: state.isHidden("post:" + id), into: &$0); return true }
    }

    /// `pair` is (post, user).
    func heartRow(_ pair: Pair) -> [StoreValue]? {
        guard let user = state.userKeys.key(pair.second), let seq = state.post(id: pair.first)?.hearters[IDKey(user)] else { return nil }
        return valueRow { heartRow(pair.first, pair.second, seq, into: &$0); return true }
    }

    func reviewRow(_ id: String) -> [StoreValue]? {
        guard let review = state.reviews[id] else { return nil }
        return valueRow { reviewRow(review, into: &$0); return true }
    }

    func verdictRow(_ post: String) -> [StoreValue]? {
        guard let found = state.post(id: post) else { return nil }
        return valueRow { verdictRow(found, into: &$0) }
    }

    func flagRow(_ item: String) -> [StoreValue]? { valueRow { flagRow(item, into: &$0) } }

    func brandRows(_ post: String) -> [[StoreValue]] {
        var rows = PackedRows(width: 3)
        if let found = state.post(id: post) { brandRows(found, into: &rows) }
        return rows.rows
    }

    func pricePointRow(_ point: PricePoint) -> [StoreValue]? { valueRow { pricePointRow(point, into: &$0) } }
    func placeRow(_ place: ExactText) -> [StoreValue]? { valueRow { placeRow(place, into: &$0) } }
    func priceGroupRow(_ group: PriceGroup) -> [StoreValue]? { valueRow { priceGroupRow(group, into: &$0) } }

    func productRow(_ product: String) -> [StoreValue]? {
        guard let key = state.keys.key(product), let tally = state.products[key] else { return nil }
        return valueRow { productRow(product, tally, into: &$0); return true }
    }

    func channelRows(_ product: String) -> [[StoreValue]] {
        var rows = PackedRows(width: 3)
        if let key = state.keys.key(product), let tally = state.products[key] { channelRows(product, tally, into: &rows) }
        return rows.rows
    }

    func flaggerRow(_ user: String) -> [StoreValue]? {
        guard let record = state.flaggers[user] else { return nil }
        return valueRow { flaggerRow(user, record, into: &$0); return true }
    }
    func cohortRow(_ user: String) -> [StoreValue]? { valueRow { cohortRow(user, into: &$0) } }
    func funnelDayRow(_ day: Int64) -> [StoreValue]? { valueRow { funnelDayRow(day, into: &$0) } }
    func cohortDayRow(_ day: Int64) -> [StoreValue]? { valueRow { cohortDayRow(day, into: &$0) } }

    func deviceRow(_ device: String) -> [StoreValue]? {
        guard let step = deviceStep(device) else { return nil }
        return valueRow { deviceRow(device, step, into: &$0); return true }
    }
    func decisionRow(_ index: Int) -> [StoreValue]? { valueRow { decisionRow(index, into: &$0) } }
    func deskRow(_ desk: DeskTotals) -> [StoreValue]? { valueRow { deskRow(desk, into: &$0); return true } }

    func moderatorRow(_ moderator: String, in desk: DeskTotals) -> [StoreValue]? {
        guard let tally = desk.byModerator[moderator] else { return nil }
        return valueRow { moderatorRow(moderator, tally, into: &$0); return true }
    }
    func dayRow(_ day: Int64) -> [StoreValue]? { valueRow { dayRow(day, into: &$0) } }

    func signupRows(_ day: Int64) -> [[StoreValue]] {
        var rows = PackedRows(width: 3)
        signupRows(day, into: &rows)
        return rows.rows
    }

    func flagMarkRows(_ item: String) -> [[StoreValue]] {
        var rows = PackedRows(width: 7)
        flagMarkRows(item, into: &rows)
        return rows.rows
    }

    /// The row of one flag of an item, nil when the item has no flag of that seq.
    func flagMarkRow(_ key: FlagMarkKey) -> [StoreValue]? {
        let item = key.item.text
        guard let entry = state.items[item] else { return nil }
        // The history is in seq order, as the flags were applied: the flag is found by halving.
        let index = entry.history.partitioningIndex { $0.mark.seq >= key.seq }
        guard index < entry.history.count, entry.history[index].mark.seq == key.seq else { return nil }
        return valueRow { flagMarkRow(item, entry.history[index], of: entry, into: &$0); return true }
    }

    func anomalyRows(on day: Int64) -> [[StoreValue]] {
        var rows = PackedRows(width: 4)
        anomalyRows(on: day, into: &rows)
        return rows.rows
    }

    func daysAfterRows() -> [[StoreValue]] {
        var rows = PackedRows(width: 3)
        daysAfterRows(into: &rows)
        return rows.rows
    }

    func anomalyRows() -> [[StoreValue]] {
        var rows = PackedRows(width: 3)
        anomalyRows(into: &rows)
        return rows.rows
    }

    /// The values one of the builders above appends; nil when it appends no row.
    private func valueRow(_ build: (inout ValueRow) -> Bool) -> [StoreValue]? {
        var row = ValueRow()
        return build(&row) ? row.values : nil
    }
}

extension CommunityState.Life {
    /// The post's `state` in `rm_posts`.
    var column: String {
        switch self {
        case .live: "live"
        case .deleted: "deleted"
        case .removed: "removed"
        }
    }
}

extension CommunityState.EdgeState {
    /// The edge's `state` in `rm_follows`.
    var column: String { self == .following ? "following" : "requested" }
}
