import Foundation
import GRDB
import GTIOStore

/// Full rewrites of read-model tables, as a rebuild does them.
extension ReadModelTables {
    /// Replaces `model`'s tables with these read models' rows and sets its checkpoint, in the
    /// caller's transaction. Returns the number of rows written.
    @discardableResult
    public static func write(_ model: ReadModelName, _ models: ReadModels, in db: Database) throws -> Int {
        try createTables(db)
        return try insert(model, packedRows(of: model, models), seq: models.state.lastSeq, in: db)
    }

    /// The same for several models, in the caller's transaction: a second thread builds the
    /// next model's rows while this one inserts. Returns the rows written per model.
    public static func write(_ names: [ReadModelName], _ models: ReadModels, in db: Database) throws -> [ReadModelName: Int] {
        try createTables(db)
        let built = BatchChannel<(ReadModelName, [String: PackedRows])>(capacity: 1)
        let finished = DispatchSemaphore(value: 0)
        let builder = Thread {
            defer {
                built.close()
                finished.signal()
            }
            // The small models first, so that building the two big ones' rows overlaps inserting
            // the model before each; all go in one transaction, so the order is not seen.
            let big: [ReadModelName] = [.followGraph, .posts]
            for name in names.filter({ !big.contains($0) }) + big.filter(names.contains) {
                guard built.send((name, packedRows(of: name, models))) else { return }
            }
        }
        builder.start()
        defer { finished.wait() }
        var written: [ReadModelName: Int] = [:]
        do {
            while let (name, rows) = built.receive() {
                written[name] = try insert(name, rows, seq: models.state.lastSeq, in: db)
            }
        } catch {
            built.cancel()
            throw error
        }
        return written
    }

    /// `model`'s rows by table, packed, each table's in the order of its first key, so that
    /// SQLite fills its B-tree a page after another rather than all over it: the tables of the
    /// 1 M-event demo log took 0.66–0.93 s in hash order and 0.45 s so. Keys are ordered by
    /// `String`'s `<`, which may differ from SQLite's for non-ASCII ids: that costs speed, never rows.
    static func packedRows(of model: ReadModelName, _ models: ReadModels) -> [String: PackedRows] {
        let state = models.state, keys = state.keys
        switch model {
        case .followGraph:
            var users = packed("rm_users", capacity: state.keys.count)
            for user in models.allUsers.sorted() { _ = models.userRow(user, into: &users) }
            let graph = state.follows
            var follows = packed("rm_follows", capacity: graph.outgoing.reduce(0) { $0 + $1.count })
            for follower in graph.outgoing.indices.filter({ !graph.outgoing[$0].isEmpty }).sorted(by: { keys[$0] < keys[$1] }) {
                let id = keys[follower]
                for (target, edge) in graph.outgoing[follower] { models.followRow(id, keys[target], edge, into: &follows) }
            }
            var blocks = packed("rm_blocks", capacity: graph.blockPairs.count)
            for pair in graph.blockPairs.sorted(by: { keys[$0.first] < keys[$1.first] }) {
                models.blockRow(keys[pair.first], keys[pair.second], into: &blocks)
            }
            return ["rm_users": users, "rm_follows": follows, "rm_blocks": blocks]
        case .posts:
            let all = state.posts.values
            var posts = packed("rm_posts", capacity: all.count)
            var hearts = packed("rm_hearts", capacity: all.reduce(0) { $0 + $1.heartCount })
            for post in postsByID(state) {
                models.postRow(post, into: &posts)
                for (user, seq) in post.hearters { models.heartRow(post.id, keys[user], seq, into: &hearts) }
            }
            var reviews = packed("rm_reviews", capacity: state.reviews.count)
            for id in state.reviews.keys.sorted() { models.reviewRow(state.reviews[id]!, into: &reviews) }
            return ["rm_posts": posts, "rm_hearts": hearts, "rm_reviews": reviews]
        case .verdicts:
            var verdicts = packed("rm_verdicts", capacity: state.posts.count)
            for post in postsByID(state) { _ = models.verdictRow(post, into: &verdicts) }
            return ["rm_verdicts": verdicts]
        case .moderation:
            var flags = packed("rm_flags", capacity: state.items.count)
            for item in state.items.keys.sorted() { _ = models.flagRow(item, into: &flags) }
            var decisions = packed("rm_decisions", capacity: state.decisions.count)
            for index in state.decisions.indices { _ = models.decisionRow(index, into: &decisions) }
            return ["rm_flags": flags, "rm_decisions": decisions]
        case .engagement:
            var days = packed("rm_days", capacity: state.eventsByDay.count)
            var signups = packed("rm_signups")
            for day in models.allDays {
                _ = models.dayRow(day, into: &days)
                models.signupRows(day, into: &signups)
            }
            return ["rm_days": days, "rm_signups": signups]
        case .anomalies:
            var anomalies = packed("rm_anomalies")
            models.anomalyRows(into: &anomalies)
            return ["rm_anomalies": anomalies]
        }
    }

    /// No rows yet for `table`, room for `capacity`.
    private static func packed(_ table: String, capacity: Int = 0) -> PackedRows {
        PackedRows(width: tables.values.joined().first { $0.name == table }!.columns.count, capacity: capacity)
    }

    private static func postsByID(_ state: CommunityState) -> some Sequence<CommunityState.Post> {
        let posts = state.posts.values
        return posts.indices.sorted { posts[$0].id < posts[$1].id }.lazy.map { posts[$0] }
    }

    /// Empties `model`'s tables, inserts `rows` and sets its checkpoint to `seq`.
    private static func insert(_ model: ReadModelName, _ rows: [String: PackedRows], seq: Int64, in db: Database) throws -> Int {
        var written = 0
        for table in tables[model]! {
            try db.execute(sql: "DELETE FROM \(table.name)")
            guard let packed = rows[table.name] else { continue }
            try BulkInsert(into: table.name, columns: table.columns.map(\.name), in: db).insert(packed)
            written += packed.count
        }
        try EventStore.setCheckpoint(db, name: model.checkpointName, seq: seq)
        return written
    }
}
