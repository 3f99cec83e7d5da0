import Foundation
import GTIOAnalytics
import GTIOCatalog
import GRDB
import GTIOIngest
import GTIOSimulation
import GTIOStore
import GTIOStoreSQLite
import GTIOTestSupport
import PropertyBased
import Testing
@testable import GTIOProjections

/// The answers read from the stored tables are exactly the answers of the fold they were written
/// from: every query, every view, logs made at random and a seeded demo community.
@Suite struct StoredReadModelsTests {
    /// Every answer `StoredReadModels` gives, as text.
    func stored(_ models: StoredReadModels, limits: [Int?] = [nil, 1, 3, 10]) throws -> String {
        var text = ""
        for tab in LooksTab.allCases {
            for limit in limits { text += "\(tab) \(limit ?? 0): \(try models.looks(tab, limit: limit).map(describe))\n" }
        }
        for limit in limits { text += "verdicts \(limit ?? 0): \(try models.verdicts(limit: limit).map(describe))\n" }
        for post in try posts(models) {
            text += "verdict \(post): \(try models.verdict(post: post).map(describe) ?? "-") rank \(try models.popularRank(of: post) ?? 0)\n"
        }
        for user in RandomLog.users + ["nobody"] {
            text += "\(user) \(try models.knows(user: user)): \(try models.followers(of: user).map { "\($0.user) \($0.name ?? "-")" }) "
            text += "\(try models.following(of: user).map { "\($0.user) \($0.name ?? "-")" }) "
            text += "\(try models.allSuggestions(for: user).map(describe))\n"
            for limit in limits.compactMap({ $0 }) {
                text += "  first \(limit): \(try models.followers(of: user, limit: limit).map(\.user)) \(try models.following(of: user, limit: limit).map(\.user))\n"
            }
            for page in 1...3 { text += "  page \(page): \(try models.suggestions(for: user, page: page, pageSize: 2).map(describe))\n" }
        }
        text += "queue \(try models.moderationQueue().map(describe))\n"
        for item in try models.moderationQueue().map(\.item) { text += "  \(item): \(try models.preview(of: item))\n" }
        // As `flags` shows them: each queue row carries its item's preview.
        for item in try models.moderationQueue() { text += "  carried \(item.item): \(item.previewed)\n" }
        // Read together, as `flags` reads them: also ids of nothing, and text that is no item.
        let previewed = try models.moderationQueue().map(\.item) + Self.notItems
        for (item, preview) in try models.previews(of: previewed).sorted(by: { $0.key < $1.key }) { text += "  previewed \(item): \(preview)\n" }
        text += "decisions \(try models.decisions().map(\.seq))\n"
        text += "anomalies \(try models.anomalies().map { "\($0.type) \($0.anomaly) \($0.count)" })\n"
        let days = models.today - 40...models.today
        // Past the last day too: the month after it, and beyond.
        for day in days.lowerBound...(days.upperBound + 32) {
            text += "\(day): \(describe(try models.engagement(on: day))) \(try models.anomalies(on: day).map(describe))\n"
        }
        let quickAdd = try models.quickAddShownAndAccepted(), quickAddDays = try models.quickAddShownAndAccepted(shownOn: days.upperBound - 5...days.upperBound)
        text += "quick-add \(quickAdd.shown) \(quickAdd.accepted) \(quickAddDays.shown) \(quickAddDays.accepted)\n"
        text += "funnel \(try models.onboardingFunnel().reached) \(try models.onboardingFunnel(firstOpenedOn: days).reached)\n"
        text += "funnel by day \(try models.onboardingFunnelByDay(models.today - 3...models.today).map { "\($0.day) \($0.funnel.reached)" })\n"
        text += "retention \(try models.retention().map(describe)) \(try models.retention(cohorts: days).map(describe))\n"
        return text
    }

    /// Items whose previews are empty: no such post or review, and no item at all.
    static let notItems = ["post:nobody-posted-this", "review:nobody-wrote-this", "nonsense"]

    /// The same answers from the fold, as text in the same form.
    func folded(_ models: ReadModels, limits: [Int?] = [nil, 1, 3, 10]) -> String {
        var text = ""
        for tab in LooksTab.allCases {
            for limit in limits { text += "\(tab) \(limit ?? 0): \(models.looks(tab, limit: limit).map(describe))\n" }
        }
        for limit in limits { text += "verdicts \(limit ?? 0): \(models.verdicts().prefix(limit ?? .max).map(describe))\n" }
        for post in models.state.posts.values.map(\.id).sorted() {
            let rank = models.looks(.popular, limit: nil).first { $0.post == post }?.rank
            text += "verdict \(post): \(models.verdict(post: post).map(describe) ?? "-") rank \(rank ?? 0)\n"
        }
        for user in RandomLog.users + ["nobody"] {
            text += "\(user) \(models.knows(user: user)): \(models.followers(of: user).map { "\($0) \(models.name(of: $0) ?? "-")" }) "
            text += "\(models.following(of: user).map { "\($0) \(models.name(of: $0) ?? "-")" }) "
            text += "\(models.allSuggestions(for: user).map(describe))\n"
            for limit in limits.compactMap({ $0 }) {
                text += "  first \(limit): \(models.followers(of: user).prefix(limit)) \(models.following(of: user).prefix(limit))\n"
            }
            for page in 1...3 { text += "  page \(page): \(models.suggestions(for: user, page: page, pageSize: 2).map(describe))\n" }
        }
        text += "queue \(models.moderationQueue().map(describe))\n"
        for item in models.moderationQueue().map(\.item) { text += "  \(item): \(models.state.preview(of: item))\n" }
        for item in models.moderationQueue().map(\.item) { text += "  carried \(item): \(models.state.preview(of: item))\n" }
        for item in Set(models.moderationQueue().map(\.item) + Self.notItems).sorted() {
            text += "  previewed \(item): \(models.state.preview(of: item))\n"
        }
        text += "decisions \(models.state.decisions.map(\.seq))\n"
        text += "anomalies \(models.anomalies().map { "\($0.type) \($0.anomaly) \($0.count)" })\n"
        let days = models.today - 40...models.today
        for day in days.lowerBound...(days.upperBound + 32) {
            text += "\(day): \(describe(models.engagement(on: day))) \(models.anomalies(on: day).map(describe))\n"
        }
        // Figures only the tables answer: from tables written whole from this fold (a rebuild).
        let rebuilt = try! models.stored()
        let quickAdd = try! rebuilt.quickAddAcceptance()
        let quickAddDays = try! rebuilt.quickAddAcceptance(shownOn: days.upperBound - 5...days.upperBound)
        text += "quick-add \(quickAdd.shown) \(quickAdd.accepted) \(quickAddDays.shown) \(quickAddDays.accepted)\n"
        text += "funnel \(try! rebuilt.onboardingFunnel().reached) \(try! rebuilt.onboardingFunnel(firstOpenedOn: days).reached)\n"
        text += "funnel by day \(try! rebuilt.onboardingFunnelByDay(models.today - 3...models.today).map { "\($0.day) \($0.funnel.reached)" })\n"
        text += "retention \(try! rebuilt.retention().map(describe)) \(try! rebuilt.retention(cohorts: days).map(describe))\n"
        return text
    }

    func posts(_ models: StoredReadModels) throws -> [String] {
        try models.source.readTables { try $0.rows("SELECT post FROM rm_posts ORDER BY post").compactMap { $0[0].string } }
    }

    func describe(_ look: Look) -> String { "\(look.rank) \(look.post) \(look.points) \(look.score)" }
    func describe(_ verdict: VoteVerdict) -> String { "\(verdict.post) \(verdict.wearIt)/\(verdict.changeIt)" }
    func describe(_ suggestion: FriendSuggestion) -> String { "\(suggestion.rank) \(suggestion.user) \(suggestion.mutual) \(suggestion.followers)" }
    func describe(_ item: FlaggedItem) -> String { "\(item.item) \(item.flaggers) \(item.firstFlagged) \(item.lastFlagged) \(item.hidden) \(item.version)" }
    func describe(_ anomaly: AnomalyCount) -> String { "\(anomaly.type) \(anomaly.anomaly) \(anomaly.count)" }
    func describe(_ cohort: RetentionCohort) -> String { "\(cohort.date) \(cohort.users) \(cohort.retained)" }
    func describe(_ day: EngagementDay) -> String {
        "\(day.dau) \(day.wau) \(day.mau) \(day.devices) \(day.events) \(day.signups.sorted { $0.key < $1.key }) "
            + "\(CommunityState.Action.allCases.map { day.actions[$0] ?? 0 })"
    }

    @Test func aStoreCaughtUpInBatchesAnswersLikeItsFold() async throws {
        await propertyCheck(count: 20, input: Gen.uint64(in: 1...UInt64.max)) { seed in
            let folder = TemporaryDirectory()
            let events = RandomLog.events(seed: seed, count: 300)
            let store = try! SQLiteStore(path: folder.file("log.gtio"))
            let live = try! LiveReadModels(store: store)
            try! RandomLog.append(events, to: store, seed: seed) { _ = try live.catchUp() }
            let models = try! StoredReadModels.current(store)
            #expect(models != nil, "seed \(seed): the tables stand at the end of the log")
            let expected = LogView.latest.readModels(from: RandomLog.records(seed: seed, count: 300))
            #expect(try! stored(models!) == folded(expected), "seed \(seed)")
        }
    }

    /// An answer asked through `whenCurrent` reads the moment that found the tables current,
    /// whatever another writer commits meanwhile; with the tables behind the log it runs nothing.
    @Test(arguments: StoreBackend.all)
    func anAnswerReadsTheSnapshotThatFoundTheTablesCurrent(_ backend: StoreBackend) throws {
        let folder = TemporaryDirectory()
        let events = RandomLog.events(seed: 5, count: 250)
        func batch(_ range: Range<Int>) -> EventBatch {
            EventBatch(source: "gen", events: events[range].enumerated().map { ($0.offset, $0.element) })
        }
        let store = try backend.open(in: folder), other = try backend.open(in: folder)
        _ = try store.append(batch(0..<100))
        _ = try LiveReadModels(store: store).catchUp()
        let seen = try StoredReadModels.whenCurrent(store) { models -> [Int64?] in
            _ = try other.append(batch(100..<200))
            _ = try LiveReadModels(store: other).catchUp()
            let stored = try models.read { try $0.row("SELECT value FROM rm_meta WHERE key = 'seq'") }?[0].int64
            let end = try models.read { try $0.row("SELECT MAX(seq) FROM events") }?[0].int64
            return [models.lastSeq, stored, end]
        }
        #expect(seen == [100, 100, 100])
        #expect(try StoredReadModels.whenCurrent(store) { $0.lastSeq } == 200)
        _ = try other.append(batch(200..<250))
        #expect(try StoredReadModels.whenCurrent(store) { _ -> Int64 in
            Issue.record("the tables lag the log: nothing should have been asked of them")
            return 0
        } == nil)
    }

    /// Days without any event between two that have some still get rows (their WAU and MAU
    /// count the days before), also when a catch-up jumps over them.
    @Test func quietDaysInTheMiddleOfTheLogAnswerFromTheTables() throws {
        let folder = TemporaryDirectory()
        var events = RandomLog.events(seed: 11, count: 300)
        for index in 150..<300 { events[index].at = Timestamp(milliseconds: events[index].at.milliseconds + 4 * Timestamp.millisecondsPerDay) }
        let store = try SQLiteStore(path: folder.file("log.gtio"))
        let live = try LiveReadModels(store: store)
        for range in [0..<150, 150..<300] {
            _ = try store.append(EventBatch(source: "gen", events: events[range].enumerated().map { ($0.offset, $0.element) }))
            _ = try live.catchUp()
        }
        let models = try #require(try StoredReadModels.current(store))
        let records = events.enumerated().map { LogRecord(seq: Int64($0.offset + 1), $0.element) }
        let expected = LogView.latest.readModels(from: records)
        let quiet = Timestamp(milliseconds: events[149].at.milliseconds).day + 1
        #expect(expected.state.eventsByDay[quiet] == nil, "a day without events")
        #expect(try models.engagement(on: quiet).mau == expected.engagement(on: quiet).mau)
        #expect(try models.engagement(on: quiet).mau > 0)
        #expect(try stored(models) == folded(expected))
    }

    /// The whole moderation queue is read from its index alone on SQLite: the index carries
    /// every column the queue shows, so no item's row is looked up in the table.
    @Test func theQueueIsReadFromItsIndexAlone() throws {
        let folder = TemporaryDirectory()
        let store = try SQLiteStore(path: folder.file("log.gtio"))
        _ = try store.append(EventBatch(source: "gen", events: RandomLog.events(seed: 13, count: 300).enumerated().map { ($0.offset, $0.element) }))
        _ = try LiveReadModels(store: store).catchUp()
        let sql = "SELECT \(StoredReadModels.flagColumns) FROM rm_flags ORDER BY flaggers DESC, first_flagged, item"
        let plan = try store.pool.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql).map { $0["detail"] as String }
        }
        #expect(plan == ["SCAN rm_flags USING COVERING INDEX rm_flags_flaggers_first_flagged_item"])
        #expect(try StoredReadModels.current(store)?.moderationQueue().isEmpty == false)
    }

    @Test func anAsOfViewInScratchTablesAnswersLikeItsFold() async throws {
        await propertyCheck(count: 20, input: Gen.uint64(in: 1...UInt64.max), Gen.int(in: 0...299)) { seed, index in
            let folder = TemporaryDirectory()
            let events = RandomLog.events(seed: seed, count: 300)
            let store = try! SQLiteStore(path: folder.file("log.gtio"))
            _ = try! store.append(EventBatch(source: "gen", events: events.enumerated().map { ($0.offset, $0.element) }))
            let records = RandomLog.records(seed: seed, count: 300)
            for view in [LogView.asOf(Timestamp(milliseconds: records[index].at)), .atSeq(Int64(index))] {
                let scratch = try! ReadModelEngine(store: store).scratch(view)
                #expect(try! stored(scratch) == folded(view.readModels(from: records)), "seed \(seed), \(view)")
            }
        }
    }

    /// A view written with some tables answers from them as the whole view does, and a query
    /// of a table left out fails on it rather than answering from nothing.
    @Test func aViewOfSomeTablesAnswersFromThemAndRefusesTheOthers() throws {
        let folder = TemporaryDirectory()
        let store = try SQLiteStore(path: folder.file("log.gtio"))
        _ = try store.append(EventBatch(source: "gen", events: RandomLog.events(seed: 12, count: 300).enumerated().map { ($0.offset, $0.element) }))
        let engine = ReadModelEngine(store: store)
        let whole = try engine.scratch(.atSeq(250))
        let some = try engine.scratch(.atSeq(250), tables: .only(["rm_posts", "rm_verdicts"]))
        #expect(try some.looks(.popular, limit: nil).map(describe) == whole.looks(.popular, limit: nil).map(describe))
        #expect(try some.verdicts().map(describe) == whole.verdicts().map(describe))
        #expect(try whole.followers(of: RandomLog.users[0]).count + whole.following(of: RandomLog.users[0]).count > 0)
        let refused = #expect(throws: (any Error).self) { try some.followers(of: RandomLog.users[0]) }
        #expect("\(refused.map { "\($0)" } ?? "")".contains("no such table: rm_follows"))
        #expect(try some.source.readTables { try $0.tableNames(prefix: "rm_") }.sorted() == ["rm_fold_state", "rm_meta", "rm_posts", "rm_verdicts"])
    }

    /// Rankings stop walking once no later post can enter the page: checked on a community with
    /// thousands of posts, at every limit up to 60 and a few far beyond, on each backend (the
    /// walks' statements are their own on each).
    @Test(arguments: StoreBackend.all) func rankingsThatStopEarlyGiveEveryPrefixOfTheFullRanking(_ backend: StoreBackend) throws {
        let folder = TemporaryDirectory()
        let models = try Self.demoModels(backend, seed: 7, events: 60_000, in: folder)
        // Every small limit and a post in a hundred on SQLite; on PostgreSQL, whose statements
        // are the same at every limit and post, and whose rows cost more to take in, fewer.
        let onSQLite = backend.name == StoreBackend.sqlite.name
        let small = onSQLite ? Array(1...60) : [1, 2, 3, 7, 10, 31, 60]
        for tab in LooksTab.allCases {
            let all = try models.looks(tab, limit: nil)
            #expect(all.count > (tab == .wearIt ? 10 : 200), "\(tab): \(all.count) ranked")
            for limit in small + [500, all.count, all.count + 10] {
                #expect(try models.looks(tab, limit: limit) == Array(all.prefix(limit)), "\(tab) \(limit)")
            }
        }
        // Now a year past the posts (a decision of today on an old log): their ages are alike,
        // so popular's newest-first walk gives way to the order of points, whenever it is cut.
        let later = try StoredReadModels(source: models.source, now: models.now + 365 * Timestamp.millisecondsPerDay)
        let ranked = try later.looks(.popular, limit: nil)
        #expect(ranked.count > 200)
        let walks: [StoredReadModels.PopularWalk] = onSQLite
            ? [.newestFirst, .byPoints, .chosen(reads: 0), .chosen(reads: 1), .chosen(reads: 10), .usual(limit: 20)]
            : [.newestFirst, .byPoints, .chosen(reads: 1), .usual(limit: 20)]
        for walk in walks {
            for limit in small.filter({ $0 <= 30 }) + [500, ranked.count, ranked.count + 10] {
                #expect(try later.looks(.popular, limit: limit, place: nil, popularWalk: walk) == Array(ranked.prefix(limit)),
                        "a year later, \(walk), limit \(limit)")
            }
            let current = try models.looks(.popular, limit: nil)
            for limit in [1, 5, 20, 100] {
                #expect(try models.looks(.popular, limit: limit, place: nil, popularWalk: walk) == Array(current.prefix(limit)),
                        "\(walk), limit \(limit)")
            }
        }
        // Now a few hours to a few days past the newest post (hearts and votes still coming):
        // the newest-first bound falls slowly over the last hours' posts, and the walk by hours
        // reads each hour's from the page's last score it can reach. It declines (an empty page
        // here) when it would go back more than a week: a large page, or a place's few posts.
        var byHours = (taken: 0, declined: 0)
        for hours in [0, 3, 30, 100] {
            let view = try StoredReadModels(source: models.source, now: models.now + Int64(hours) * 3_600_000)
            let all = try view.looks(.popular, limit: nil)
            for walk: StoredReadModels.PopularWalk in onSQLite ? [.byHours, .chosen(reads: 1), .chosen(reads: 10), .usual(limit: 10)] : [.byHours, .usual(limit: 10)] {
                for limit in onSQLite ? [1, 2, 5, 10, 20, 60, 200] : [1, 5, 20, 200] {
                    let page = try view.looks(.popular, limit: limit, place: nil, popularWalk: walk)
                    if case .byHours = walk, page.isEmpty {
                        byHours.declined += 1
                        continue
                    }
                    if case .byHours = walk { byHours.taken += 1 }
                    #expect(page == Array(all.prefix(limit)), "\(hours) hours later, \(walk), limit \(limit): \(page.count) looks")
                }
            }
            // At one place: each hour's posts there only.
            let place = try #require(try view.read { try $0.row("SELECT place FROM rm_posts WHERE place IS NOT NULL GROUP BY place ORDER BY COUNT(*) DESC, place LIMIT 1", []) }?[0].string)
            let there = try view.looks(.popular, limit: nil, place: place)
            #expect(there.count > 20)
            for limit in [1, 5, 20] {
                let page = try view.looks(.popular, limit: limit, place: place, popularWalk: .byHours)
                if page.isEmpty {
                    byHours.declined += 1
                    continue
                }
                byHours.taken += 1
                #expect(page == Array(there.prefix(limit)), "\(hours) hours later at \(place), limit \(limit)")
            }
        }
        #expect(byHours.taken == (onSQLite ? 33 : 21) && byHours.declined == 7, "\(byHours)")
        // More than a week back, the walk by hours gives way (an empty page says so here).
        #expect(try later.looks(.popular, limit: 10, place: nil, popularWalk: .byHours) == [])
        // A post's place in popular, counted by either walk, is its place in the whole ranking.
        for (view, all) in [(later, ranked), (models, try models.looks(.popular, limit: nil))] {
            let sample = stride(from: 0, to: all.count, by: onSQLite ? 97 : 797).map { all[$0] } + all.suffix(2)
            for look in sample {
                for walk: StoredReadModels.PopularWalk in [.newestFirst, .byPoints, .chosen(reads: 50), .usual(limit: nil)] {
                    #expect(try view.popularRank(of: look.post, walk: walk) == look.rank, "\(look.post) by \(walk)")
                }
            }
        }
        let user = try #require(try models.ids(.user, prefix: "u", limit: 1).first)
        let everyone = try models.allSuggestions(for: user)
        for size in [1, 7, 10, 100] {
            #expect(try models.suggestions(for: user, page: 2, pageSize: size) == Array(everyone.dropFirst(size).prefix(size)))
        }
    }

    /// 12,000 letters and digits drawn from `random`, so that no compression fits them in an
    /// index entry.
    static func longText(_ random: inout SeededGenerator) -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        return String((0..<12_000).map { _ in letters[Int(random.next() % 36)] })
    }

    /// An event's JSON line, `second` seconds into 2012-06-01.
    static func line(_ id: String, _ type: String, _ second: Int, _ user: String, _ data: String) -> String {
        #"{"id":"\#(id)","type":"\#(type)","at":"2012-06-01T00:00:\#(String(format: "%02d", second))Z","user":"\#(user)","data":\#(data)}"#
    }

    /// The tables of a `backend` store in `folder` holding a seeded demo community of `events`
    /// events and then `lines`, caught up.
    static func demoModels(
        _ backend: StoreBackend, seed: UInt64, events: Int, then lines: [String] = [], in folder: TemporaryDirectory
    ) throws -> StoredReadModels {
        var bytes: [UInt8] = []
        try DemoCommunity(seed: seed, eventCount: events).write { bytes += $0 }
        bytes += Array(lines.map { $0 + "\n" }.joined().utf8)
        let path = folder.file("demo.jsonl")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let store = try backend.open(in: folder)
        _ = try Ingestor().ingest([IngestSource(argument: path)], into: store)
        _ = try LiveReadModels(store: store).catchUp()
        return try #require(try StoredReadModels.current(store))
    }

    /// The store's tables once `lines` are ingested and caught up (a file of them in `folder`).
    static func ingest(_ lines: [String], into store: any EventStore, in folder: TemporaryDirectory) throws -> StoredReadModels {
        let path = folder.file("lines-\(UUID().uuidString).jsonl")
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        _ = try Ingestor().ingest([IngestSource(argument: path)], into: store)
        _ = try LiveReadModels(store: store).catchUp()
        return try #require(try StoredReadModels.current(store))
    }

    /// A display name of 12,000 characters rides with its edges into the tables on every
    /// backend (a PostgreSQL index entry holds ~2.7 KB: one that carried the name failed every
    /// write of `rm_follows`), and a later, shorter name replaces it on each edge.
    @Test(arguments: StoreBackend.all) func aLongDisplayNameIsListedWithItsEdges(_ backend: StoreBackend) throws {
        let folder = TemporaryDirectory()
        var random = SeededGenerator(seed: 12)
        let long = Self.longText(&random)
        let store = try backend.open(in: folder)
        var models = try Self.ingest([
            Self.line("e1", "user.signed_up", 0, "ua", #"{"provider":"google","name":"\#(long)"}"#),
            Self.line("e2", "user.signed_up", 1, "ub", #"{"provider":"google","name":"Bob"}"#),
            Self.line("e3", "user.followed", 2, "ua", #"{"target":"ub"}"#),
            Self.line("e4", "user.followed", 3, "ub", #"{"target":"ua"}"#),
        ], into: store, in: folder)
        #expect(try models.followers(of: "ub").map { "\($0.user) \($0.name ?? "-")" } == ["ua \(long)"])
        #expect(try models.following(of: "ub").map { "\($0.user) \($0.name ?? "-")" } == ["ua \(long)"])
        // Renamed after the edges were written: caught up incrementally, each edge says so.
        models = try Self.ingest([Self.line("e5", "user.profile_updated", 4, "ua", #"{"name":"Ann"}"#)], into: store, in: folder)
        #expect(try models.followers(of: "ub").map { "\($0.user) \($0.name ?? "-")" } == ["ua Ann"])
        #expect(try models.following(of: "ub").map { "\($0.user) \($0.name ?? "-")" } == ["ua Ann"])
        #expect(try models.followers(of: "ua").map { "\($0.user) \($0.name ?? "-")" } == ["ub Bob"])
    }

    /// An author who goes private takes every post of theirs out of the rankings, and brings
    /// them all back by going public: each of their posts' rows is rewritten, caught up
    /// incrementally, not only the latest.
    @Test(arguments: StoreBackend.all) func anAuthorGoingPrivateTakesEveryPostOfTheirsOutOfTheRankings(_ backend: StoreBackend) throws {
        let folder = TemporaryDirectory()
        let store = try backend.open(in: folder)
        func post(_ id: String, _ second: Int, by user: String) -> String {
            Self.line("c-\(id)", "post.created", second, user, #"{"post":"\#(id)","kind":"outfit","voting":true}"#)
        }
        var models = try Self.ingest([
            Self.line("e1", "user.signed_up", 0, "ua", #"{"provider":"google","name":"Ann"}"#),
            Self.line("e2", "user.signed_up", 1, "ub", #"{"provider":"google","name":"Bob"}"#),
            post("p1", 2, by: "ua"), post("q1", 3, by: "ub"), post("p2", 4, by: "ua"), post("p3", 5, by: "ua"),
        ], into: store, in: folder)
        #expect(try models.looks(.new, limit: nil).map(\.post) == ["p3", "p2", "q1", "p1"])
        models = try Self.ingest([Self.line("e3", "user.privacy_changed", 6, "ua", #"{"private":true}"#)], into: store, in: folder)
        #expect(try models.looks(.new, limit: nil).map(\.post) == ["q1"])
        #expect(try models.looks(.popular, limit: nil).map(\.post) == ["q1"])
        models = try Self.ingest([Self.line("e4", "user.privacy_changed", 7, "ua", #"{"private":false}"#)], into: store, in: folder)
        #expect(try models.looks(.new, limit: nil).map(\.post) == ["p3", "p2", "q1", "p1"])
    }

    /// A place, a brand and a flag's reason of 12,000 characters are answered whole on every
    /// backend (PostgreSQL keeps ~2.7 KB in an index entry: they are keyed by `KeyText` and
    /// indexed by their first characters there), and a short text spelled as a long one's key
    /// stays a text of its own.
    @Test(arguments: StoreBackend.all) func longFreeTextIsAnsweredWholeOnEveryBackend(_ backend: StoreBackend) throws {
        let folder = TemporaryDirectory()
        var random = SeededGenerator(seed: 13)
        let (place, brand, reason) = (Self.longText(&random), Self.longText(&random), Self.longText(&random))
        let lookalike = KeyText.of(place)
        #expect(lookalike.unicodeScalars.count == 202 && lookalike != place)
        let store = try backend.open(in: folder)
        let models = try Self.ingest([
            Self.line("e1", "user.signed_up", 0, "ua", #"{"provider":"google","name":"Ann"}"#),
            Self.line("e2", "user.signed_up", 1, "ub", #"{"provider":"google","name":"Bob"}"#),
            Self.line("e3", "post.created", 2, "ub",
                      #"{"post":"p1","kind":"product","voting":true,"price":10,"brands":["\#(brand)","Acme"],"location":{"name":"\#(place)"}}"#),
            Self.line("e4", "post.created", 3, "ub",
                      #"{"post":"p2","kind":"product","voting":true,"price":20,"brands":["\#(KeyText.of(brand))"],"location":{"name":"\#(lookalike)"}}"#),
            Self.line("e5", "post.flagged", 4, "ua", #"{"post":"p1","reason":"\#(reason)"}"#),
            Self.line("e6", "post.hearted", 5, "ua", #"{"post":"p1"}"#),
        ], into: store, in: folder)
        #expect(try models.looks(.popular, limit: nil, place: place).map(\.post) == ["p1"])
        #expect(try models.looks(.popular, limit: nil, place: lookalike).map(\.post) == ["p2"])
        #expect(Set(try models.places(limit: nil).map { "\($0.place) \($0.posts)" }) == ["\(place) 1", "\(lookalike) 1"])
        #expect(Set(try models.prices(by: .brand).map { "\($0.group) \($0.posts)" }) == ["\(brand) 1", "Acme 1", "\(KeyText.of(brand)) 1"])
        #expect(Set(try models.prices(by: .place).map { "\($0.group) \($0.posts)" }) == ["\(place) 1", "\(lookalike) 1"])
        #expect(try models.postCard("p1")?.brands.sorted() == ["Acme", brand].sorted())
        for lookup: StoredReadModels.ReasonLookup in [.list, .probe, .chosen] {
            #expect(try models.moderationQueue(QueueFilter(reason: reason), limit: 5, reasonLookup: lookup).map(\.item) == ["post:p1"])
            #expect(try models.moderationQueue(QueueFilter(reason: String(reason.prefix(200))), limit: 5, reasonLookup: lookup).isEmpty)
        }
        // A rebuild writes what the catch-up wrote.
        let engine = ReadModelEngine(store: store)
        #expect(try engine.check(ReadModelName.allCases).values.allSatisfy(\.isEmpty))
    }

    /// The queue of one reason is the same whether its items are listed through the index of
    /// open marks or found by walking the queue and probing each item, at any page size.
    @Test(arguments: StoreBackend.all) func aReasonsQueueIsTheSameByEitherLookup(_ backend: StoreBackend) throws {
        let folder = TemporaryDirectory()
        let models = try Self.demoModels(backend, seed: 11, events: 30_000, in: folder)
        let reasons = try models.read { try $0.rows("SELECT DISTINCT reason FROM rm_flag_marks WHERE open = 1 AND reason IS NOT NULL", []) }
            .compactMap { $0[0].string }.sorted()
        #expect(reasons.count >= 4, "\(reasons)")
        let queue = try models.moderationQueue()
        for reason in reasons + ["no such reason"] {
            let whole = try models.moderationQueue(QueueFilter(reason: reason), limit: nil, reasonLookup: .list)
            // Every item of the queue with an open flag of the reason, in the queue's order.
            let marked = Set(try models.read {
                try $0.rows("SELECT item FROM rm_flag_marks WHERE open = 1 AND reason = ?", [.text(reason)])
            }.compactMap { $0[0].string })
            #expect(whole.map(\.item) == queue.map(\.item).filter(marked.contains), "\(reason)")
            for lookup: StoredReadModels.ReasonLookup in [.list, .probe, .chosen] {
                for limit in [1, 3, 20, whole.count + 1] {
                    #expect(try models.moderationQueue(QueueFilter(reason: reason), limit: limit, reasonLookup: lookup)
                            == Array(whole.prefix(limit)), "\(reason), \(lookup), \(limit)")
                }
                #expect(try models.moderationQueue(QueueFilter(reason: reason, minimumFlaggers: 2), limit: 5, reasonLookup: lookup)
                        == Array(whole.filter { $0.flaggers >= 2 }.prefix(5)), "\(reason), \(lookup), two flaggers")
            }
        }
    }

    /// Each list a card shows, cut at any length, is the whole list's first (or, for a history,
    /// latest) entries, counted whole: on a seeded demo community, for the subjects with the
    /// longest lists, on each backend.
    @Test(arguments: StoreBackend.all) func aCardsListsCutAtAnyLengthAreTheWholeListsEnds(_ backend: StoreBackend) throws {
        // The demo shows each product in one post: four more show one, the third without a price.
        let shown = (1...4).map { k in
            Self.line("shown\(k)", "post.created", k, "shop", #"{"post":"shown\#(k)","kind":"product","voting":true,"product":"prX"\#(k == 3 ? "" : ",\"price\":\(k)")}"#)
        }
        let folder = TemporaryDirectory()
        let models = try Self.demoModels(backend, seed: 12, events: 30_000, then: shown, in: folder)
        func longest(_ sql: String) throws -> [String] { try models.read { try $0.rows(sql, []) }.compactMap { $0[0].string } }
        /// Checks `excerpt(k)` against the whole list at lengths around its ends; the longest list's length.
        func check<Entry>(_ subjects: [String], fromEnd: Bool = false, _ excerpt: (String, Int?) throws -> Excerpt<Entry>) throws -> Int {
            var longestList = 0
            for subject in subjects {
                let whole = try excerpt(subject, nil)
                #expect(whole.total == whole.entries.count, "\(subject)")
                longestList = max(longestList, whole.total)
                for count in Set([0, 1, 2, whole.total - 1, whole.total, whole.total + 1]) where count >= 0 {
                    let cut = try excerpt(subject, count)
                    let expected = fromEnd ? whole.entries.suffix(count) : whole.entries.prefix(count)
                    #expect(cut.entries.map { "\($0)" } == expected.map { "\($0)" }, "\(subject), \(count)")
                    #expect(cut.total == whole.total, "\(subject), \(count)")
                }
            }
            return longestList
        }
        let hearted = try longest("SELECT post FROM rm_hearts GROUP BY post ORDER BY COUNT(*) DESC, post LIMIT 3")
        #expect(try check(hearted) { try #require(try models.postCard($0, hearters: $1)).hearters } >= 5)
        let reviewed = try longest("SELECT post FROM rm_reviews GROUP BY post ORDER BY COUNT(*) DESC, post LIMIT 3")
        #expect(try check(reviewed) { try models.reviews(of: $0, first: $1) } >= 3)
        let flagged = try longest("SELECT item FROM rm_flag_marks GROUP BY item ORDER BY COUNT(*) DESC, item LIMIT 3")
        #expect(try check(flagged, fromEnd: true) { try models.flagHistory($0, latest: $1) } >= 3)
        let decided = try longest("SELECT item FROM rm_decisions GROUP BY item ORDER BY COUNT(*) DESC, item LIMIT 3")
        #expect(try check(decided, fromEnd: true) { try models.decisions(on: $0, latest: $1) } >= 1)
        let requested = try longest("SELECT target FROM rm_follows WHERE state = 'requested' GROUP BY target ORDER BY COUNT(*) DESC, target LIMIT 3")
        #expect(try check(requested) { try models.pendingRequests(to: $0, first: $1) } >= 2)
        let authors = try longest("SELECT author FROM rm_posts WHERE state = 'live' GROUP BY author ORDER BY COUNT(*) DESC, author LIMIT 3")
        #expect(try check(authors) { try models.livePosts(of: $0, newest: $1) } >= 5)
        let products = try longest("SELECT product FROM rm_posts WHERE product IS NOT NULL GROUP BY product ORDER BY COUNT(*) DESC, product LIMIT 3")
        #expect(try check(products) { try #require(try models.productCard($0, posts: $1)).posts } >= 3)
        #expect(try check(products, fromEnd: true) { try #require(try models.productCard($0, posts: $1)).prices } >= 3)
    }
}
