import GTIOCatalog
import GTIOStore

extension StoredReadModels {
    /// The item a bare id names, as `looks` and cards show posts and reviews (`p1` for
    /// `post:p1`); nil when no post or review has that id.
    public func item(namedByBareID id: String) throws -> ItemRef? {
        if try post(id) != nil { return ItemRef("post:" + id) }
        if try review(id) != nil { return ItemRef("review:" + id) }
        return nil
    }

    /// The item a bare id names in `store`'s tables, for a hint; nil when the tables lag (they
    /// are not folded for a hint) or cannot be read, or no post or review has that id.
    public static func item(namedByBareID id: String, in store: any EventStore) -> ItemRef? {
        (try? whenCurrent(store) { try $0.item(namedByBareID: id) }) ?? nil
    }

    /// The post a queue item's id names (`p1` for `post:p1`, as `flags` and `decisions` list
    /// items); nil when `id` names no post's item or no post has that id.
    public func post(namedByItemID id: String) throws -> String? {
        guard let item = ItemRef(id), item.kind == .post, try post(item.id) != nil else { return nil }
        return item.id
    }

    static let flagColumns = "item, flaggers, first_flagged, last_flagged, hidden, version, reasons, author, preview"

    /// An item of the queue from a row of `flagColumns`, read a column at a time.
    static func flaggedItem(_ row: any TableRow) -> FlaggedItem {
        FlaggedItem(item: row.value(0).string ?? "", flaggers: Int(row.int64(1) ?? 0), firstFlagged: row.int64(2) ?? 0,
                    lastFlagged: row.int64(3) ?? 0, hidden: (row.int64(4) ?? 0) != 0, version: row.int64(5) ?? 0,
                    reasons: row.value(6).string ?? "", author: row.value(7).string, preview: row.value(8).string)
    }

    /// How `moderationQueue` finds the items with an open flag of a reason; every way gives the
    /// same queue.
    enum ReasonLookup: Sendable {
        /// The reason's items through the index of open marks by reason, then sorted.
        case list
        /// The queue in its order, each item's marks probed, until the page is full.
        case probe
        /// `probe` for a page that it fills sooner than `list` reads the reason's items.
        case chosen
    }

    /// Open items: most distinct flaggers first, then the oldest open flag, then item; with a
    /// `filter`, only the items it keeps, in the same order; the first `limit` (nil or 0: all).
    /// The index on that order lets a page stop after its last item, whatever the queue's length.
    public func moderationQueue(_ filter: QueueFilter = QueueFilter(), limit: Int? = nil) throws -> [FlaggedItem] {
        try moderationQueue(filter, limit: limit, reasonLookup: .chosen)
    }

    /// `moderationQueue`, a reason's items found as `reasonLookup` says.
    func moderationQueue(_ filter: QueueFilter, limit: Int?, reasonLookup: ReasonLookup) throws -> [FlaggedItem] {
        try read { tables in
            var clauses: [String] = [], arguments: [StoreValue] = []
            if let author = filter.author {
                clauses.append("author = ?")
                arguments.append(.text(author))
            }
            if let reason = filter.reason {
                // The reason of each open flag, whole: the joined column cannot tell "a;b" from "a" and "b".
                let probing = switch reasonLookup {
                case .list: false
                case .probe: true
                case .chosen: try Self.probesSooner(reason, filter: filter, limit: limit, in: tables)
                }
                clauses.append(probing
                    ? "EXISTS (SELECT 1 FROM rm_flag_marks m WHERE m.item = rm_flags.item AND m.open = 1 AND \(TableLayout.matching("m.reason")))"
                    : "item IN (SELECT item FROM rm_flag_marks WHERE open = 1 AND \(TableLayout.matching("reason")))")
                arguments += [.text(reason), .text(reason)]
            }
            if let minimum = filter.minimumFlaggers {
                clauses.append("flaggers >= ?")
                arguments.append(.integer(Int64(minimum)))
            }
            if let kind = filter.kind {
                // "post:" up to "post;" (the byte after ':'): every post item and nothing else.
                clauses.append("item >= ? AND item < ?")
                arguments += [.text(kind.rawValue + ":"), .text(kind.rawValue + ";")]
            }
            if filter.hiddenOnly { clauses.append("hidden = 1") }
            if let time = filter.firstFlaggedBy {
                clauses.append("first_flagged <= ?")
                arguments.append(.integer(time))
            }
            let condition = clauses.isEmpty ? "" : " WHERE " + clauses.joined(separator: " AND ")
            var sql = "SELECT \(Self.flagColumns) FROM rm_flags\(condition) ORDER BY flaggers DESC, first_flagged, item"
            if let limit, limit > 0 {
                sql += " LIMIT ?"
                arguments.append(.integer(Int64(limit)))
            }
            var queue: [FlaggedItem] = []
            // The whole queue unless limited: a server's cursor sends it in as few pages as it can.
            let expected = limit.flatMap { $0 > 0 ? $0 : nil } ?? 4_096
            try tables.forEachRow(sql, arguments, expecting: expected, reading: { row in
                queue.append(Self.flaggedItem(row))
                return true
            })
            return queue
        }
    }

    /// Whether a page of `limit` items with an open flag of `reason` is found sooner by walking
    /// the queue in its order and probing each item's marks than by reading all the reason's
    /// items: when the reason is the only filter and its open marks are many enough that the
    /// walk, meeting them about evenly, fills the page before it reads as many items as they are
    /// (`limit` × queue < marks²). The marks are counted through their index, only that far.
    private static func probesSooner(_ reason: String, filter: QueueFilter, limit: Int?, in tables: any TableReading) throws -> Bool {
        guard let limit, limit > 0, filter == QueueFilter(reason: reason) else { return false }
        let queue = try tables.row("SELECT queue FROM rm_desk WHERE scope = ?", [.text(DeskTotals.scope)])?[0].int ?? 0
        let (walk, overflow) = limit.multipliedReportingOverflow(by: queue)
        guard !overflow else { return false }
        let enough = Int(Double(walk).squareRoot()) + 1
        let counted = "SELECT COUNT(*) FROM (SELECT 1 FROM rm_flag_marks WHERE open = 1 AND \(TableLayout.matching("reason")) LIMIT \(enough)) AS marks"
        let marks = try tables.row(counted, [.text(reason), .text(reason)])?[0].int ?? 0
        return marks >= enough
    }

    /// Every flagger: most items flagged first, then user.
    public func flaggers(limit: Int? = nil) throws -> [FlaggerLine] {
        let count = limit.flatMap { $0 > 0 ? $0 : nil }
        return try read { tables in
            var lines: [FlaggerLine] = []
            try tables.forEachRow("SELECT user, flagged, upheld, dismissed, accuracy FROM rm_flaggers ORDER BY flagged DESC, user", []) { row in
                lines.append(Self.flaggerLine(row))
                return count.map { lines.count < $0 } ?? true
            }
            return lines
        }
    }

    /// One user's record as a flagger, nil when they never flagged anything the rules applied.
    public func flagger(_ user: String) throws -> FlaggerLine? {
        try read { tables in
            try tables.row("SELECT user, flagged, upheld, dismissed, accuracy FROM rm_flaggers WHERE user = ?", [.text(user)])
                .map(Self.flaggerLine)
        }
    }

    private static func flaggerLine(_ row: [StoreValue]) -> FlaggerLine {
        FlaggerLine(user: row[0].string ?? "", flagged: row[1].int, upheld: row[2].int, dismissed: row[3].int, accuracy: row[4].double)
    }

    /// How many items the queue holds, and how many of them are hidden.
    public func queueSize() throws -> (items: Int, hidden: Int) {
        try read { tables in
            let row = try tables.row("SELECT queue, queue_hidden FROM rm_desk WHERE scope = ?", [.text(DeskTotals.scope)])
            return (row?[0].int ?? 0, row?[1].int ?? 0)
        }
    }

    /// The decisions in numbers: how many (removed, dismissed), how long their items had waited
    /// (ms, at the rounded positions p × (n − 1) of the sorted waits for p = 0.5 and 0.9), and
    /// how many each moderator took, by moderator id (by code points, as ids sort everywhere).
    public func decisionFigures(decidedOn days: ClosedRange<Int64>? = nil) throws
        -> (count: Int, removed: Int, dismissed: Int, medianWait: Int64?, p90Wait: Int64?, byModerator: [(String, Int)])
    {
        guard let days else {
            // Over every decision: the totals the writers keep.
            return try read { tables in
                let desk = try tables.row(
                    "SELECT decisions, removed, dismissed, median_wait, p90_wait FROM rm_desk WHERE scope = ?", [.text(DeskTotals.scope)])
                let byModerator = try tables.rows("SELECT moderator, decisions FROM rm_moderators")
                    .map { ($0[0].string ?? "", $0[1].int) }.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
                return (desk?[0].int ?? 0, desk?[1].int ?? 0, desk?[2].int ?? 0, desk?[3].int64, desk?[4].int64, byModerator)
            }
        }
        let filter = " WHERE at >= ? AND at < ?"
        let clamp = { (day: Int64) in max(-1 << 40, min(1 << 40, day)) * Timestamp.millisecondsPerDay }
        let arguments: [StoreValue] = [.integer(clamp(days.lowerBound)), .integer(clamp(days.upperBound) + Timestamp.millisecondsPerDay)]
        return try read { tables in
            let counts = try tables.row("""
                SELECT COUNT(*), COUNT(CASE WHEN action = 'remove' THEN 1 END), COUNT(CASE WHEN action = 'dismiss' THEN 1 END) FROM rm_decisions\(filter)
                """, arguments)
            let count = counts?[0].int ?? 0
            func wait(_ p: Double) throws -> Int64? {
                guard let position = DeskTotals.waitPosition(p, of: count) else { return nil }
                return try tables.row(
                    "SELECT waited FROM rm_decisions\(filter) ORDER BY waited LIMIT 1 OFFSET ?", arguments + [.integer(Int64(position))])?[0].int64
            }
            let byModerator = try tables.rows("SELECT moderator, COUNT(*) FROM rm_decisions\(filter) GROUP BY moderator", arguments)
                .map { ($0[0].string ?? "", $0[1].int) }.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
            return (count, counts?[1].int ?? 0, counts?[2].int ?? 0, try wait(0.5), try wait(0.9), byModerator)
        }
    }

    /// The author and content of a flaggable item (`post:<id>` or `review:<id>`), for moderators.
    public func preview(of item: String) throws -> (author: String?, text: String) {
        try previews(of: [item])[item] ?? (nil, "")
    }

    /// The previews of `items`, read in one snapshot and a statement per kind and chunk of ids:
    /// a lookup per item would cost a queue of thousands as many round trips to a server.
    public func previews(of items: [String]) throws -> IDMap<(author: String?, text: String)> {
        var found: IDMap<(author: String?, text: String)> = [:]
        var ids: [ItemRef.Kind: [String]] = [:]
        for item in items {
            guard let ref = ItemRef(item) else {
                found[item] = (nil, "")
                continue
            }
            ids[ref.kind, default: []].append(ref.id)
        }
        try read { tables in
            for (kind, unordered) in ids {
                // In key order, so that each chunk reads a narrow run of the table's pages rather
                // than a page per id across the whole table (the queue's order is by flaggers).
                let kindIDs = unordered.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
                let (table, key, text) = switch kind {
                case .post: ("rm_posts", "post", "description")
                case .review: ("rm_reviews", "review", "text")
                }
                var start = kindIDs.startIndex
                while start < kindIDs.endIndex {
                    let chunk = kindIDs[start..<min(start + Self.previewChunk, kindIDs.endIndex)]
                    start = chunk.endIndex
                    let marks = chunk.map { _ in "?" }.joined(separator: ",")
                    for row in try tables.rows(
                        "SELECT \(key), author, \(text) FROM \(table) WHERE \(key) IN (\(marks))", chunk.map(StoreValue.text)) {
                        found["\(kind.rawValue):" + (row[0].string ?? "")] = (row[1].string, kind.previewText(row[2].string))
                    }
                }
            }
        }
        for item in items where found[item] == nil { found[item] = (nil, "") }
        return found
    }

    /// Ids bound in one preview statement: far below SQLite's limit of bound values.
    private static let previewChunk = 500

    /// The decisions `moderator` took (nil: anyone's) at or after `since` (ms), in seq order;
    /// with `newest`, only the last that many of them, read from the newest back. Without
    /// arguments, every decision in the log.
    public func decisions(by moderator: String? = nil, since: Int64? = nil, newest: Int? = nil) throws -> [CommunityState.Decision] {
        var conditions = ["TRUE"], arguments: [StoreValue] = []
        if let moderator {
            conditions.append("moderator = ?")
            arguments.append(.text(moderator))
        }
        if let since {
            conditions.append("at >= ?")
            arguments.append(.integer(since))
        }
        return try decisions(where: conditions.joined(separator: " AND "), arguments, newest: newest)
    }

    /// The decisions `condition` keeps, in seq order; with `newest`, only the last that many.
    func decisions(where condition: String, _ arguments: [StoreValue], newest: Int? = nil) throws -> [CommunityState.Decision] {
        let page = newest.map { " DESC LIMIT \(max(0, $0))" } ?? ""
        let found = try read { tables in
            try tables.rows("SELECT \(Self.decisionColumns) FROM rm_decisions WHERE \(condition) ORDER BY seq\(page)", arguments)
                .map(Self.decision)
        }
        return newest == nil ? found : found.reversed()
    }

    static let decisionColumns = "seq, at, item, action, moderator, note, flaggers, first_flagged"

    /// A decision from the columns `decisionColumns` names.
    static func decision(_ row: [StoreValue]) -> CommunityState.Decision {
        CommunityState.Decision(
            seq: row[0].int64 ?? 0, at: row[1].int64 ?? 0, item: row[2].string ?? "", action: row[3].string ?? "",
            moderator: row[4].string ?? "", note: row[5].string, flaggers: row[6].int, firstFlagged: row[7].int64 ?? 0)
    }
}
