import Foundation
import GRDB
import GTIOCatalog
import GTIOStore

/// The read models as SQL tables (documented in docs/READ_MODELS.md): written from a folded
/// state together with their checkpoints in one transaction, so readers see the old or the new
/// model, never half of one; and compared row by row with a fresh fold for `rebuild --check`.
public enum ReadModelTables {
    static let tables: [ReadModelName: [ReadModelTable]] = [
        .followGraph: [
            ReadModelTable(name: "rm_users", columns: [
                ("user", "TEXT"), ("name", "TEXT"), ("private", "INTEGER"), ("followers", "INTEGER"),
                ("following", "INTEGER"), ("signed_up", "INTEGER"), ("provider", "TEXT"),
            ], keyCount: 1),
            ReadModelTable(name: "rm_follows", columns: [("follower", "TEXT"), ("target", "TEXT"), ("state", "TEXT")], keyCount: 2),
            ReadModelTable(name: "rm_blocks", columns: [("blocker", "TEXT"), ("blocked", "TEXT")], keyCount: 2),
        ],
        .posts: [
            ReadModelTable(name: "rm_posts", columns: [
                ("post", "TEXT"), ("author", "TEXT"), ("kind", "TEXT"), ("voting", "INTEGER"), ("created", "INTEGER"),
                ("state", "TEXT"), ("hearts", "INTEGER"), ("wear_it", "INTEGER"), ("change_it", "INTEGER"),
                ("reviews", "INTEGER"), ("shares", "INTEGER"), ("hidden", "INTEGER"), ("description", "TEXT"),
            ], keyCount: 1),
            ReadModelTable(name: "rm_hearts", columns: [("post", "TEXT"), ("user", "TEXT"), ("seq", "INTEGER")], keyCount: 2),
            ReadModelTable(name: "rm_reviews", columns: [
                ("review", "TEXT"), ("post", "TEXT"), ("author", "TEXT"), ("at", "INTEGER"), ("removed", "INTEGER"),
                ("agrees", "INTEGER"), ("text", "TEXT"),
            ], keyCount: 1),
        ],
        .verdicts: [
            ReadModelTable(name: "rm_verdicts", columns: [
                ("post", "TEXT"), ("wear_it", "INTEGER"), ("change_it", "INTEGER"), ("share", "REAL"),
                ("wilson", "REAL"), ("verdict", "TEXT"),
            ], keyCount: 1),
        ],
        .moderation: [
            ReadModelTable(name: "rm_flags", columns: [
                ("item", "TEXT"), ("flaggers", "INTEGER"), ("first_flagged", "INTEGER"), ("hidden", "INTEGER"),
                ("last_flagged", "INTEGER"), ("version", "INTEGER"),
            ], keyCount: 1),
            ReadModelTable(name: "rm_decisions", columns: [
                ("seq", "INTEGER"), ("at", "INTEGER"), ("item", "TEXT"), ("action", "TEXT"), ("moderator", "TEXT"),
                ("note", "TEXT"), ("flaggers", "INTEGER"), ("first_flagged", "INTEGER"),
            ], keyCount: 1),
        ],
        .engagement: [
            ReadModelTable(name: "rm_days", columns: [
                ("date", "TEXT"), ("dau", "INTEGER"), ("wau", "INTEGER"), ("mau", "INTEGER"), ("devices", "INTEGER"),
                ("signups", "INTEGER"), ("posts", "INTEGER"), ("hearts", "INTEGER"), ("votes", "INTEGER"),
                ("reviews", "INTEGER"), ("flags", "INTEGER"), ("shares", "INTEGER"), ("invites", "INTEGER"),
                ("suggestions", "INTEGER"), ("events", "INTEGER"),
            ], keyCount: 1),
            ReadModelTable(name: "rm_signups", columns: [("date", "TEXT"), ("provider", "TEXT"), ("count", "INTEGER")], keyCount: 2),
        ],
        .anomalies: [
            ReadModelTable(name: "rm_anomalies", columns: [("type", "TEXT"), ("reason", "TEXT"), ("count", "INTEGER")], keyCount: 2),
        ],
    ]

    /// The rows `model`'s tables hold for these read models, keyed by table name, in key order.
    static func rows(of model: ReadModelName, _ models: ReadModels) -> [String: [[DatabaseValue]]] {
        let state = models.state
        func sortedByKey(_ rows: [[DatabaseValue]], keyCount: Int) -> [[DatabaseValue]] {
            rows.sorted { a, b in
                for index in 0..<keyCount where a[index] != b[index] { return DatabaseValue.less(a[index], b[index]) }
                return false
            }
        }
        switch model {
        case .followGraph:
            var users = state.knownUsers
            users.formUnion(state.names.keys)
            let userRows = users.map { user -> [DatabaseValue] in
                let signup = state.signups[user]
                return [user.databaseValue, models.name(of: user).databaseValue, state.privateUsers.contains(user).databaseValue,
                        models.followerCount(user).databaseValue, models.followingCount(user).databaseValue,
                        signup?.at.databaseValue ?? .null, signup?.provider.databaseValue ?? .null]
            }
            let follows = state.outgoing.flatMap { follower, targets in
                targets.map { [follower.databaseValue, $0.key.databaseValue, ($0.value == .following ? "following" : "requested").databaseValue] }
            }
            let blocks = state.blocks.map { [$0.first.databaseValue, $0.second.databaseValue] }
            return ["rm_users": sortedByKey(userRows, keyCount: 1), "rm_follows": sortedByKey(follows, keyCount: 2),
                    "rm_blocks": sortedByKey(blocks, keyCount: 2)]
        case .posts:
            let posts = state.posts.values.map { post -> [DatabaseValue] in
                let life = switch post.life { case .live: "live"; case .deleted: "deleted"; case .removed: "removed" }
                return [post.id.databaseValue, post.author.databaseValue, post.kind.databaseValue, post.voting.databaseValue,
                        post.created.databaseValue, life.databaseValue, post.hearts.count.databaseValue,
                        post.wearIt.databaseValue, post.changeIt.databaseValue, post.liveReviews.databaseValue,
                        post.shares.databaseValue, state.isHidden("post:" + post.id).databaseValue,
                        post.description.databaseValue]
            }
            let hearts = state.posts.values.flatMap { post in
                post.hearts.map { [post.id.databaseValue, $0.key.databaseValue, $0.value.databaseValue] }
            }
            let reviews = state.reviews.values.map { review -> [DatabaseValue] in
                [review.id.databaseValue, review.post.databaseValue, review.author.databaseValue, review.at.databaseValue,
                 review.removed.databaseValue, review.agreers.count.databaseValue, review.text.databaseValue]
            }
            return ["rm_posts": sortedByKey(posts, keyCount: 1), "rm_hearts": sortedByKey(hearts, keyCount: 2),
                    "rm_reviews": sortedByKey(reviews, keyCount: 1)]
        case .verdicts:
            let rows = models.verdicts().map { verdict -> [DatabaseValue] in
                [verdict.post.databaseValue, verdict.wearIt.databaseValue, verdict.changeIt.databaseValue,
                 verdict.share.databaseValue, verdict.wilson.databaseValue, verdict.label.databaseValue]
            }
            return ["rm_verdicts": sortedByKey(rows, keyCount: 1)]
        case .moderation:
            let flags = models.moderationQueue().map { item -> [DatabaseValue] in
                [item.item.databaseValue, item.flaggers.databaseValue, item.firstFlagged.databaseValue,
                 item.hidden.databaseValue, item.lastFlagged.databaseValue, item.version.databaseValue]
            }
            let decisions = state.decisions.map { d -> [DatabaseValue] in
                [d.seq.databaseValue, d.at.databaseValue, d.item.databaseValue, d.action.databaseValue,
                 d.moderator.databaseValue, d.note.databaseValue, d.flaggers.databaseValue, d.firstFlagged.databaseValue]
            }
            return ["rm_flags": sortedByKey(flags, keyCount: 1), "rm_decisions": decisions]
        case .engagement:
            let days = Set(state.eventsByDay.keys).sorted()
            let dayRows = days.map { day -> [DatabaseValue] in
                let figures = models.engagement(on: day)
                var row: [DatabaseValue] = [figures.date.databaseValue, figures.dau.databaseValue, figures.wau.databaseValue,
                                            figures.mau.databaseValue, figures.devices.databaseValue,
                                            figures.signups.values.reduce(0, +).databaseValue]
                row += CommunityState.Action.allCases.map { (figures.actions[$0] ?? 0).databaseValue }
                row.append(figures.events.databaseValue)
                return row
            }
            let signups = state.signupsByDay.flatMap { day, providers in
                providers.map { [Timestamp(milliseconds: day * Timestamp.millisecondsPerDay).dateString.databaseValue,
                                 $0.key.databaseValue, $0.value.databaseValue] }
            }
            return ["rm_days": dayRows, "rm_signups": sortedByKey(signups, keyCount: 2)]
        case .anomalies:
            let rows = models.anomalies().map { [$0.type.rawValue.databaseValue, $0.anomaly.rawValue.databaseValue, $0.count.databaseValue] }
            return ["rm_anomalies": sortedByKey(rows, keyCount: 2)]
        }
    }

    /// Creates the tables that are missing.
    public static func createTables(_ db: Database) throws {
        for table in tables.values.flatMap({ $0 }) { try db.execute(sql: table.createSQL) }
    }

    /// Replaces `model`'s tables with these read models' rows and sets its checkpoint, in the
    /// caller's transaction. Returns the number of rows written.
    @discardableResult
    public static func write(_ model: ReadModelName, _ models: ReadModels, in db: Database) throws -> Int {
        try createTables(db)
        let rows = rows(of: model, models)
        var written = 0
        for table in tables[model]! {
            try db.execute(sql: "DELETE FROM \(table.name)")
            let insert = try db.cachedStatement(sql: table.insertSQL)
            for row in rows[table.name] ?? [] {
                try insert.execute(arguments: StatementArguments(row))
                written += 1
            }
        }
        try EventStore.setCheckpoint(db, name: model.checkpointName, seq: models.state.lastSeq)
        return written
    }

    /// Where the live tables of `model` differ from these read models, row by row (at most `limit`).
    public static func differences(_ model: ReadModelName, _ models: ReadModels, in db: Database, limit: Int = 50) throws
        -> [String]
    {
        try createTables(db)
        let expected = rows(of: model, models)
        var found: [String] = []
        for table in tables[model]! {
            let live = try Row.fetchAll(db, sql: table.orderedSelectSQL).map { row in Array(row.databaseValues) }
            let wanted = expected[table.name] ?? []
            let key: ([DatabaseValue]) -> String = { row in
                row.prefix(table.keyCount).map(\.description).joined(separator: ", ")
            }
            let liveByKey = Dictionary(live.map { (key($0), $0) }, uniquingKeysWith: { first, _ in first })
            let wantedByKey = Dictionary(wanted.map { (key($0), $0) }, uniquingKeysWith: { first, _ in first })
            for (rowKey, row) in wantedByKey.sorted(by: { $0.key < $1.key }) {
                guard let liveRow = liveByKey[rowKey] else {
                    found.append("\(table.name) (\(rowKey)): missing from the live table")
                    continue
                }
                for (index, column) in table.columns.enumerated() where !same(liveRow[index], row[index]) {
                    found.append("\(table.name) (\(rowKey)): \(column.name) is \(liveRow[index]) live, \(row[index]) rebuilt")
                }
            }
            for rowKey in liveByKey.keys.sorted() where wantedByKey[rowKey] == nil {
                found.append("\(table.name) (\(rowKey)): in the live table but not in the rebuild")
            }
            if found.count >= limit { break }
        }
        return Array(found.prefix(limit))
    }

    /// Values equal as SQLite stores them (a Bool is stored as an integer).
    static func same(_ a: DatabaseValue, _ b: DatabaseValue) -> Bool {
        if a == b { return true }
        switch (a.storage, b.storage) {
        case (.double(let x), .double(let y)): return abs(x - y) <= 1e-12 * max(1, abs(x))
        case (.int64(let x), .double(let y)), (.double(let y), .int64(let x)): return Double(x) == y
        default: return false
        }
    }
}

extension DatabaseValue {
    /// NULL < numbers < text, as SQLite orders them.
    static func less(_ a: DatabaseValue, _ b: DatabaseValue) -> Bool {
        switch (a.storage, b.storage) {
        case (.null, .null): return false
        case (.null, _): return true
        case (_, .null): return false
        case (.int64(let x), .int64(let y)): return x < y
        case (.double(let x), .double(let y)): return x < y
        case (.int64(let x), .double(let y)): return Double(x) < y
        case (.double(let x), .int64(let y)): return x < Double(y)
        case (.string(let x), .string(let y)): return x.utf8.lexicographicallyPrecedes(y.utf8)
        case (.string, _): return false
        case (_, .string): return true
        default: return false
        }
    }
}
