import Foundation
import GTIOCatalog
import GTIOStore
import HeapModule

/// The read models as a store keeps them: every answer is read from the `rm_` tables, taking
/// the rows it needs and no more, so it costs the same at any length of the log. "Now" comes
/// from the tables (the largest `at` applied) or from the view an as-of query asked for.
public struct StoredReadModels: Sendable {
    /// Where the tables are: a store, or a scratch copy holding an as-of view.
    public let source: any TableSource
    /// UTC ms: the view's "now".
    public let now: Int64
    /// The last seq the tables applied.
    public let lastSeq: Int64
    /// The events the tables applied.
    public let eventCount: Int

    /// Where the tables stand: the last seq applied, the newest `at` among the events applied,
    /// and how many events they applied.
    typealias Position = (seq: Int64, newestAt: Int64?, events: Int)

    /// The tables of `source` as they stand, with their own "now" unless `now` is given.
    public init(source: any TableSource, now: Int64? = nil) throws {
        let position = try source.readTables { try Self.position(in: $0) }
        self.init(source: source, position: position, now: now)
    }

    /// The tables of `source` as they stand; nil when they were never written or hold another
    /// definition, so that a server answers "not ready" rather than from missing tables.
    public static func built(_ source: any TableSource) throws -> StoredReadModels? {
        try source.readTables { try position(in: $0) }.map { StoredReadModels(source: source, position: $0) }
    }

    private init(source: any TableSource, position: Position?, now: Int64? = nil) {
        self.source = source
        self.lastSeq = position?.seq ?? 0
        self.eventCount = position?.events ?? 0
        self.now = now ?? position?.newestAt ?? 0
    }

    /// Where a store's tables stand: nil when they were never written or hold another definition.
    static func position(in tables: any TableReading) throws -> Position? {
        try ReadModelSchema.storedMeta(tables, keys: positionKeys).flatMap(position(from:))
    }

    /// What `rm_meta` says of where the tables stand.
    private static let positionKeys = ["schema", "seq", "newest_at", "events"]

    private static func position(from meta: [String: Int64]) -> Position? {
        guard meta["schema"] == ReadModelSchema.version else { return nil }
        return (meta["seq"] ?? 0, meta["newest_at"], Int(meta["events"] ?? 0))
    }

    /// The tables of `store` when every read model stands at the end of its log; nil when they
    /// lag (never built, another definition, or events appended since) and need a catch-up.
    public static func current(_ store: any EventStore) throws -> StoredReadModels? {
        try applied(through: nil, in: store)
    }

    /// The tables of `store` when every read model has applied the log at least through `seq`
    /// (nil: the log's end in the same snapshot); nil when they have not, or hold another
    /// definition.
    public static func applied(through seq: Int64?, in store: any EventStore) throws -> StoredReadModels? {
        try store.readTables { tables in try position(in: tables, appliedThrough: seq) }
            .map { StoredReadModels(source: store, position: $0) }
    }

    /// Runs `body` on the tables of `store` when every read model stands at the end of its
    /// log, in the snapshot that found them so: the answer's reads see one moment, and on a
    /// server take one transaction. Nil, without running `body`, when the tables lag.
    /// The models `body` gets are only good inside it.
    public static func whenCurrent<T>(_ store: any EventStore, _ body: (StoredReadModels) throws -> T) throws -> T? {
        try store.readTables { tables -> T? in
            guard let position = try position(in: tables, appliedThrough: nil) else { return nil }
            return try body(StoredReadModels(source: LentTables(tables: tables), position: position))
        }
    }

    /// Where the tables stand when every read model has applied the log through `seq` (nil:
    /// its end in the same snapshot); nil when they have not, or hold another definition.
    static func position(in tables: any TableReading, appliedThrough seq: Int64?) throws -> Position? {
        guard try tables.hasTable(ReadModelSchema.meta.name) else { return nil }
        // `rm_meta`, the checkpoints and the log's end in one statement, told apart by the
        // first column: on a server each statement is a round trip.
        let (metaSQL, metaArguments) = ReadModelSchema.metaQuery(keys: positionKeys)
        let names = ReadModelName.allCases.map { StoreValue.text($0.checkpointName) }
        var sql = """
            SELECT 0, key, value FROM (\(metaSQL)) AS meta
            UNION ALL SELECT 1, name, seq FROM checkpoints WHERE name IN (\(names.map { _ in "?" }.joined(separator: ",")))
            """
        if seq == nil { sql += " UNION ALL SELECT 2, '', IFNULL(MAX(seq), 0) FROM events" }
        var metaRows: [[StoreValue]] = [], checkpoints: [Int64] = [], target = seq ?? 0
        for row in try tables.rows(sql, metaArguments + names) {
            switch row[0].int64 {
            case 0: metaRows.append(Array(row.dropFirst()))
            case 1: checkpoints.append(row[2].int64 ?? 0)
            default: target = row[2].int64 ?? 0
            }
        }
        guard let position = position(from: ReadModelSchema.metaValues(metaRows)) else { return nil }
        let caughtUp = position.seq >= target && checkpoints.count == names.count && checkpoints.allSatisfy { $0 >= target }
        return caughtUp ? position : nil
    }

    /// A `WHERE` clause (or nothing) keeping the rows whose `column`, a `YYYY-MM-DD` date, lies
    /// in `days`; a bound beyond the calendar (an open end of a range) is left out.
    public static func dateFilter(_ column: String, _ days: ClosedRange<Int64>?) -> (sql: String, arguments: [StoreValue]) {
        guard let days else { return ("", []) }
        let calendar: ClosedRange<Int64> = -719_162...2_932_896  // 0001-01-01 ... 9999-12-31
        var clauses: [String] = [], arguments: [StoreValue] = []
        if calendar.contains(days.lowerBound) {
            clauses.append("\(column) >= ?")
            arguments.append(.text(Timestamp.dateString(ofDay: days.lowerBound)))
        }
        if calendar.contains(days.upperBound) {
            clauses.append("\(column) <= ?")
            arguments.append(.text(Timestamp.dateString(ofDay: days.upperBound)))
        }
        return (clauses.isEmpty ? "" : " WHERE " + clauses.joined(separator: " AND "), arguments)
    }

    /// Runs `body` on one snapshot of the tables: for answers built on them elsewhere.
    public func read<T>(_ body: (any TableReading) throws -> T) throws -> T { try source.readTables(body) }

    // MARK: Popular looks (9.1)

    /// Live posts, not hidden, whose author is not private, created by now: what rankings consider.
    static let eligible = """
        p.state = 'live' AND p.hidden = 0 AND p.author_private = 0 AND p.created <= ?
        """
    /// `eligible` for walks by points: `+` keeps SQLite from reading the range of `created`
    /// through the index that starts with it, which it would then sort whole, so that it walks
    /// the index on `points` in order (PostgreSQL reads `+` as the number itself).
    static let eligibleByPoints = eligible.replacingOccurrences(of: "p.created <= ?", with: "+p.created <= ?")
    static let lookColumns = "p.post, p.author, p.created, p.points, p.hearts, p.wear_it + p.change_it, p.reviews"
    static let hourMilliseconds: Int64 = 3_600_000
    /// The hour of a post's `created` as `rm_posts`' index by hour and points holds it; a query
    /// that writes it so (`p.` before the column aside) can use the index.
    static let hourOfCreated = "(created / \(hourMilliseconds))"
    static let hourOfPost = hourOfCreated.replacingOccurrences(of: "created", with: "p.created")
    /// The hours one statement of the walk by hours reads.
    static let hoursPerStatement = 8
    /// The most hours the walk by hours goes back: further back, posts' ages are alike
    /// enough that a walk by points ends sooner.
    static let hoursWalkedAtMost: Int64 = 168

    /// The order in which a page of `popular` reads the posts; every way gives the same page.
    enum PopularWalk: Sendable {
        case newestFirst
        case byPoints
        /// An hour of posts at a time, newest first, each hour's by points down to those that
        /// may still enter the page, from the page's last score among the posts with the most
        /// points; an empty page when that walk declines (no limit, or too many hours), so that
        /// tests see it was taken.
        case byHours
        /// Newest first; after `reads` posts without an end in sight, by hours when they are
        /// few enough, else by points when that order is bound to end sooner.
        case chosen(reads: Int)

        /// For a page of `limit` looks: more posts than a page of the live 1 M-event demo log
        /// reads newest first (587 for 10); past them, the walk by hours reads fewer than going
        /// on would (docs/PERFORMANCE.md). A page past 2^40 reads as far as one of 2^40 (every
        /// post), and its count cannot overflow.
        static func usual(limit: Int?) -> PopularWalk { chosen(reads: 500 + 20 * min(max(limit ?? 0, 0), 1 << 40)) }
    }

    /// The ranked looks of `tab`; `limit` nil or 0 for all; with `place`, only looks taken
    /// there. Each tab walks the index of its order and stops once no later post can enter the
    /// first `limit`.
    public func looks(_ tab: LooksTab, limit: Int? = 20, place: String? = nil) throws -> [Look] {
        try looks(tab, limit: limit, place: place, popularWalk: .usual(limit: limit))
    }

    /// `looks`, with `popular`'s walk as given.
    func looks(_ tab: LooksTab, limit: Int?, place: String?, popularWalk: PopularWalk) throws -> [Look] {
        let count = limit.flatMap { $0 > 0 ? $0 : nil }
        let placeFilter = place == nil ? "" : " AND " + TableLayout.matching("p.place")
        let arguments: [StoreValue] = [.integer(now)] + (place.map { [.text($0), .text($0)] } ?? [])
        return try read { tables in
            var candidates: [Look] = []
            /// Keeps `row` as a candidate, its `value` among the best `count` so far in `kth`.
            func keep(_ row: some TableRow, _ value: Double, in kth: inout Heap<Double>, count: Int) {
                candidates.append(self.look(row, tab))
                if kth.count < count {
                    kth.insert(value)
                } else if let least = kth.min, value > least {
                    kth.replaceMin(with: value)
                }
            }
            /// Adds each row as a candidate until the walk may stop; false when it read
            /// `atMost` rows first.
            @discardableResult
            func walk(_ order: String, join: String = "", extra: String = "", eligible: String = Self.eligible, key: (Look) -> Double,
                      atMost: Int = .max, expecting: Int? = nil, bound: ((Look, Double) -> Bool)? = nil) throws -> Bool {
                var kth = Heap<Double>()  // the best `count` keys so far: a page of any size costs log(count) a row
                var read = 0, cut = false
                let columns = Self.lookColumns + (tab == .wearIt ? ", v.wilson" : "")
                let sql = "SELECT \(columns) FROM rm_posts p \(join) WHERE \(eligible)\(placeFilter) \(extra) ORDER BY \(order)"
                let visit: (any TableRow) throws -> Bool = { row in
                    guard read < atMost else {
                        cut = true
                        return false
                    }
                    read += 1
                    guard let count else {
                        candidates.append(self.look(row, tab))
                        return true
                    }
                    // Decided by numbers alone: the strings are read for the rows kept.
                    let scored = self.look(row, tab, named: false)
                    let value = key(scored)
                    if kth.count == count, let least = kth.min {
                        // Sorted descending by the walk's own order: nothing later can beat the kth.
                        if let bound { if bound(scored, least) { return false } }
                        else if value < least { return false }
                        // Below the kth so far, it cannot make the page (the kth only rises): a
                        // walk by a bound reads thousands of such posts, which need not be sorted.
                        if value < least { return true }
                    }
                    keep(row, value, in: &kth, count: count)
                    return true
                }
                try tables.forEachRow(sql, arguments, expecting: expecting, reading: visit)
                return !cut
            }
            switch tab {
            case .top: try walk("p.points DESC", key: { Double($0.points) })
            case .new: try walk("p.created DESC", key: { Double($0.created) })
            case .wearIt:
                try walk("v.wilson DESC", join: "JOIN rm_verdicts v ON v.post = p.post",
                         extra: "AND v.wear_it + v.change_it >= 5", key: \.score)
            case .popular:
                // Newest first: a post's score is at most the most points any eligible post has
                // over its age, and that bound only falls as the walk gets older. It reads
                // hundreds of posts (538 for a page of 5 on the 1 M-event demo log).
                let most = try Self.mostPoints(in: tables)
                func newestFirst(atMost reads: Int = .max) throws -> Bool {
                    try walk("p.created DESC", key: \.score, atMost: reads, expecting: 1_024) { look, kth in
                        most / Self.decay(look.created, now: now) < kth
                    }
                }
                // By points: a post's score is at most its points over the newest post's decay,
                // and that bound falls with the points.
                func byPoints(least: Double) throws {
                    try walk("p.points DESC", eligible: Self.eligibleByPoints, key: \.score) { look, kth in Double(look.points) / least < kth }
                }
                func newestCreated() throws -> Int64? { try Self.newestCreated(now: now, placeFilter: placeFilter, arguments, in: tables) }
                func newestDecay() throws -> Double { Self.decay(try newestCreated() ?? now, now: now) }
                /// The `count`th best score of the posts read so far and of the `count` with the
                /// most points: the page's last score can only be as high or higher.
                func floor(_ count: Int) throws -> Double {
                    var scores = Dictionary(candidates.map { ($0.post, $0.score) }, uniquingKeysWith: { first, _ in first })
                    let top = "SELECT \(Self.lookColumns) FROM rm_posts p WHERE \(Self.eligibleByPoints)\(placeFilter) ORDER BY p.points DESC LIMIT \(count)"
                    for row in try tables.rows(top, arguments) {
                        let look = self.look(row, .popular)
                        scores[look.post] = look.score
                    }
                    let best = scores.values.sorted(by: >)
                    return best.count >= count ? best[count - 1] : 0
                }
                /// The walk by hours from the page's last score `floor` (0: none known), false
                /// when it would go back more than `hoursWalkedAtMost` hours.
                ///
                /// No post of an hour scores more than the most points over the decay of the
                /// hour's last moment, and within the hour, a post needs that moment's decay
                /// times the page's last score in points: each hour's posts are read through the
                /// index by hour and points from there, a few hours a statement, with the page's
                /// last score so far, which only rises; the walk ends at the first hour whose
                /// bound is below it.
                func byHours(from floor: Double, newest: Int64) throws -> Bool {
                    guard let count, floor > 0 else { return false }
                    let hour = Self.hourMilliseconds
                    // The age at which the most points fall below the floor: the walk ends by then.
                    let hours = pow(most / floor, 1 / 1.8) - 2
                    let oldest = now - Int64(min(max(hours, 0) * Double(hour), 9e15))
                    var next = newest / hour
                    guard next - oldest / hour < Self.hoursWalkedAtMost else { return false }
                    let sql = """
                        SELECT \(Self.lookColumns) FROM rm_posts p WHERE \(Self.eligibleByPoints)\(placeFilter) \
                        AND \(Self.hourOfPost) = ? AND p.points >= ?
                        """
                    var kth = Heap<Double>()
                    var ended = false
                    while !ended {
                        let least = kth.count == count ? max(floor, kth.min ?? floor) : floor
                        var parts: [String] = [], values: [StoreValue] = []
                        while parts.count < Self.hoursPerStatement {
                            // Integer division truncates: hour 0 holds the hour either side of 0.
                            let last = next >= 0 ? (next + 1) * hour - 1 : next * hour
                            let decay = Self.decay(min(now, last), now: now)
                            if most / decay < least {
                                ended = true
                                break
                            }
                            // A point fewer than the bound: the scores are compared as computed.
                            let points = max(0, Int64(min((least * decay).rounded(.down), 9e18)) - 1)
                            parts.append(sql)
                            values += arguments + [.integer(next), .integer(points)]
                            next -= 1
                        }
                        if parts.isEmpty { break }
                        try tables.forEachRow(parts.joined(separator: " UNION ALL "), values, expecting: nil) { row in
                            let score = self.look(row, .popular, named: false).score
                            // Below the page's last score so far, it cannot make the page.
                            if score < floor { return true }
                            if kth.count == count, let least = kth.min, score < least { return true }
                            keep(row, score, in: &kth, count: count)
                            return true
                        }
                    }
                    return true
                }
                switch popularWalk {
                case .newestFirst: _ = try newestFirst()
                case .byPoints: try byPoints(least: try newestDecay())
                case .byHours:
                    guard let count, let newest = try newestCreated(), try byHours(from: try floor(count), newest: newest) else {
                        return []
                    }
                case .chosen(let reads):
                    guard let count else {
                        _ = try newestFirst()
                        break
                    }
                    if try newestFirst(atMost: reads) { break }
                    // The newest-first bound falls slowly: many posts of the last hours (the
                    // most points over their age stay above the page's scores), or now far past
                    // the posts (a log gone quiet, an old log with a decision of today), whose
                    // ages are then alike. The page's last score can only rise from the
                    // `count`th best of any posts read, here the newest and the most pointed:
                    // from it, the walk by hours when it goes back a week at most, else
                    // whichever walk reaches that score's bound sooner.
                    let floor = try floor(count)
                    candidates.removeAll()
                    guard let newest = try newestCreated() else { break }
                    if try byHours(from: floor, newest: newest) { break }
                    let least = Self.decay(newest, now: now)
                    if try Self.pointsReachSooner(floor, most: most, least: least, now: now, counting: 4 * reads, in: tables) {
                        try byPoints(least: least)
                    } else {
                        _ = try newestFirst()
                    }
                }
            }
            candidates.sort { a, b in Self.ranksBefore(a, b, tab) }
            if let count, candidates.count > count { candidates.removeSubrange(count...) }
            for index in candidates.indices { candidates[index].rank = index + 1 }
            return candidates
        }
    }

    /// The place of `post` in `looks(.popular, limit: nil)`, nil when it is not ranked there:
    /// the posts that rank before it, counted without building the ranking.
    ///
    /// Only posts newer than a horizon can score as much as it, and only posts with its score
    /// times the newest post's decay in points or more: the walk goes through whichever of
    /// those two the index shows to be shorter, newest first (through the index that covers
    /// `looks`, as a page does) or by points. A recent or much-hearted post's rank reads a few
    /// posts; an old one's most of the index when now is near the log's end.
    public func popularRank(of post: String) throws -> Int? {
        try popularRank(of: post, walk: .chosen(reads: 20_000))
    }

    /// `popularRank(of:)` by the walk given; `.chosen(reads:)` counts each walk's posts up to
    /// `reads` before it reads any (a walk newest first reads the whole log's posts when now
    /// is far past them).
    func popularRank(of post: String, walk: PopularWalk) throws -> Int? {
        try read { tables in
            let sql = "SELECT \(Self.lookColumns) FROM rm_posts p WHERE p.post = ? AND \(Self.eligible)"
            guard let row = try tables.row(sql, [.text(post), .integer(now)]) else { return nil }
            let target = look(row, .popular)
            let least = try Self.newestDecay(now: now, in: tables), floor = target.score * least
            let most = try Self.mostPoints(in: tables)
            let byPoints: Bool
            switch walk {
            // A rank counts every post that scores more, not a page: it has no walk by hours.
            case .newestFirst, .byHours: byPoints = false
            case .byPoints: byPoints = true
            case .chosen(let reads):
                byPoints = try Self.pointsReachSooner(target.score, most: most, least: least, now: now, counting: reads, in: tables)
            }
            var before = 0
            let walk = byPoints
                ? "SELECT p.post, p.created, p.points FROM rm_posts p WHERE \(Self.eligibleByPoints) ORDER BY p.points DESC"
                : "SELECT p.post, p.created, p.points FROM rm_posts p WHERE \(Self.eligible) ORDER BY p.created DESC"
            try tables.forEachRow(walk, [.integer(now)], expecting: nil) { row in
                let created = row.int64(1) ?? 0, points = Double(row.int64(2) ?? 0)
                let decay = Self.decay(created, now: now)
                // No post this old or older, or with these points or fewer, can score as much.
                if byPoints ? points < floor : most / decay < target.score { return false }
                let score = points / decay
                // The post's id only decides a tie of score and age.
                let tied = score == target.score && created == target.created
                let other = Look(rank: 0, post: tied ? row.value(0).string ?? "" : "", author: "", points: 0, hearts: 0, votes: 0,
                                 reviews: 0, score: score, created: created)
                if Self.ranksBefore(other, target, .popular) { before += 1 }
                return true
            }
            return before + 1
        }
    }

    /// Whether a walk by points reads fewer posts than a walk newest first before neither can
    /// find a post scoring `score` or more: by points down to `score` times `least` (the
    /// newest post's decay), newest first down to the age where `most` points fall below it.
    /// Each is counted through its index, up to `counting` posts (the newest-first walk wins
    /// a tie: it reads the index that covers every look).
    private static func pointsReachSooner(_ score: Double, most: Double, least: Double, now: Int64, counting: Int,
                                          in tables: any TableReading) throws -> Bool {
        guard score > 0 else { return false }
        // The fewest whole points that reach the bound, as an integer: PostgreSQL refuses a real
        // parameter beside an integer column.
        let points = Int64(min(max((score * least).rounded(.up), 0), 9e18))
        let byPoints = "SELECT COUNT(*) FROM (SELECT 1 FROM rm_posts p WHERE p.points >= ? LIMIT \(counting)) AS reads"
        let pointsReads = try tables.row(byPoints, [.integer(points)])?[0].int ?? counting
        guard pointsReads < counting else { return false }
        // decay(age) = (hours + 2)^1.8 passes most / score at this many hours.
        let hours = pow(most / score, 1 / 1.8) - 2
        let oldest = now - Int64(min(max(hours, 0) * 3_600_000, 9e15))
        let newestFirst = "SELECT COUNT(*) FROM (SELECT 1 FROM rm_posts p WHERE p.created >= ? AND p.created <= ? LIMIT \(counting)) AS reads"
        let newestReads = try tables.row(newestFirst, [.integer(oldest), .integer(now)])?[0].int ?? counting
        return pointsReads < newestReads
    }

    /// The decay of the newest post a ranking considers: no other post's is less, which bounds
    /// the walks by points.
    private static func newestDecay(now: Int64, in tables: any TableReading) throws -> Double {
        decay(try newestCreated(now: now, in: tables) ?? now, now: now)
    }

    /// When the newest post a ranking considers (at `placeFilter` when given) was created, nil
    /// when it considers none.
    private static func newestCreated(now: Int64, placeFilter: String = "", _ arguments: [StoreValue]? = nil,
                                      in tables: any TableReading) throws -> Int64? {
        let sql = "SELECT MAX(p.created) FROM rm_posts p WHERE \(eligible)\(placeFilter)"
        return try tables.row(sql, arguments ?? [.integer(now)])?[0].int64
    }

    /// The most points of a live, unhidden post: over a post's decay, the most it can score in
    /// `popular`, which bounds the newest-first walks.
    private static func mostPoints(in tables: any TableReading) throws -> Double {
        try tables.row("SELECT MAX(p.points) FROM rm_posts p WHERE p.state = 'live' AND p.hidden = 0")?[0].double ?? 0
    }

    /// A candidate look from `lookColumns`, scored for `tab`.
    private func look(_ row: [StoreValue], _ tab: LooksTab) -> Look { look(ValuesRow(row), tab) }

    /// A candidate look from a row of `lookColumns`, scored for `tab`; without its post and
    /// author unless `named`, for a walk deciding whether to keep it.
    private func look(_ row: some TableRow, _ tab: LooksTab, named: Bool = true) -> Look {
        let points = Int(row.int64(3) ?? 0), created = row.int64(2) ?? 0
        let score: Double
        switch tab {
        case .popular: score = Double(points) / Self.decay(created, now: now)
        case .new: score = Self.ageHours(created, now: now)
        case .top: score = Double(points)
        case .wearIt: score = row.double(7) ?? 0
        }
        guard named else {
            return Look(rank: 0, post: "", author: "", points: points, hearts: 0, votes: 0, reviews: 0, score: score, created: created)
        }
        return Look(rank: 0, post: row.value(0).string ?? "", author: row.value(1).string ?? "", points: points,
                    hearts: Int(row.int64(4) ?? 0), votes: Int(row.int64(5) ?? 0), reviews: Int(row.int64(6) ?? 0),
                    score: score, created: created)
    }

    /// What a post's points are divided by in `popular`: (age in hours + 2)^1.8.
    static func decay(_ created: Int64, now: Int64) -> Double { pow(ageHours(created, now: now) + 2, 1.8) }

    /// Hours from `created` to `now`, never negative.
    static func ageHours(_ created: Int64, now: Int64) -> Double { Double(max(0, now - created)) / 3_600_000 }

    /// A tab's order: its score descending (`new`: created), then newer first, then post id.
    static func ranksBefore(_ a: Look, _ b: Look, _ tab: LooksTab) -> Bool {
        if tab == .new {
            if a.created != b.created { return a.created > b.created }
        } else if a.score != b.score {
            return a.score > b.score
        }
        if a.created != b.created { return a.created > b.created }
        return a.post.utf8.lexicographicallyPrecedes(b.post.utf8)
    }
}
