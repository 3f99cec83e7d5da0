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
            ], keyCount: 1, indexes: [["followers DESC", "user"]]),
            ReadModelTable(name: "rm_follows", columns: [("follower", "TEXT"), ("target", "TEXT"), ("state", "TEXT")], keyCount: 2,
                           indexes: [["target"]]),
            ReadModelTable(name: "rm_blocks", columns: [("blocker", "TEXT"), ("blocked", "TEXT")], keyCount: 2,
                           indexes: [["blocked"]]),
        ],
        .posts: [
            ReadModelTable(name: "rm_posts", columns: [
                ("post", "TEXT"), ("author", "TEXT"), ("kind", "TEXT"), ("voting", "INTEGER"), ("created", "INTEGER"),
                ("state", "TEXT"), ("hearts", "INTEGER"), ("wear_it", "INTEGER"), ("change_it", "INTEGER"),
                ("reviews", "INTEGER"), ("shares", "INTEGER"), ("hidden", "INTEGER"), ("points", "INTEGER"),
                ("description", "TEXT"),
            ], keyCount: 1, indexes: [["author"], ["created", "post"], ["points", "post"]]),
            ReadModelTable(name: "rm_hearts", columns: [("post", "TEXT"), ("user", "TEXT"), ("seq", "INTEGER")], keyCount: 2),
            ReadModelTable(name: "rm_reviews", columns: [
                ("review", "TEXT"), ("post", "TEXT"), ("author", "TEXT"), ("at", "INTEGER"), ("removed", "INTEGER"),
                ("agrees", "INTEGER"), ("text", "TEXT"), ("seq", "INTEGER"),
            ], keyCount: 1, indexes: [["post"], ["author"]]),
        ],
        .verdicts: [
            ReadModelTable(name: "rm_verdicts", columns: [
                ("post", "TEXT"), ("wear_it", "INTEGER"), ("change_it", "INTEGER"), ("share", "REAL"),
                ("wilson", "REAL"), ("verdict", "TEXT"),
            ], keyCount: 1, indexes: [["wilson"]]),
        ],
        .moderation: [
            ReadModelTable(name: "rm_flags", columns: [
                ("item", "TEXT"), ("flaggers", "INTEGER"), ("first_flagged", "INTEGER"), ("hidden", "INTEGER"),
                ("last_flagged", "INTEGER"), ("version", "INTEGER"),
            ], keyCount: 1),
            ReadModelTable(name: "rm_decisions", columns: [
                ("seq", "INTEGER"), ("at", "INTEGER"), ("item", "TEXT"), ("action", "TEXT"), ("moderator", "TEXT"),
                ("note", "TEXT"), ("flaggers", "INTEGER"), ("first_flagged", "INTEGER"), ("waited", "INTEGER"),
            ], keyCount: 1, indexes: [["item"], ["waited"]]),
            ReadModelTable(name: "rm_flag_marks", columns: [
                ("item", "TEXT"), ("seq", "INTEGER"), ("user", "TEXT"), ("at", "INTEGER"), ("reason", "TEXT"), ("counted", "INTEGER"),
                ("open", "INTEGER"),
            ], keyCount: 2),
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
        let packed = packedRows(of: model, models)
        return Dictionary(uniqueKeysWithValues: tables[model]!.map { table in
            let rows = packed[table.name]?.rows ?? []
            return (table.name, rows.sorted { a, b in
                for index in 0..<table.keyCount where a[index] != b[index] { return DatabaseValue.less(a[index], b[index]) }
                return false
            })
        })
    }

    /// Rewrites only the rows `changes` touched, for every model, and moves every checkpoint to
    /// the models' seq, in the caller's transaction. Every checkpoint must be where the change
    /// set began. Returns the rows rewritten.
    @discardableResult
    public static func writeChanges(_ changes: ChangeSet, _ models: ReadModels, in db: Database) throws -> Int {
        var written = 0
        func rewrite(_ table: String, keys: [[DatabaseValue]], rows: [[DatabaseValue]?]) throws {
            let definition = tables.values.flatMap { $0 }.first { $0.name == table }!
            let keyColumns = definition.columns.prefix(definition.keyCount).map { "\($0.name) = ?" }.joined(separator: " AND ")
            let delete = try db.cachedStatement(sql: "DELETE FROM \(table) WHERE \(keyColumns)")
            let insert = try db.cachedStatement(sql: definition.insertSQL)
            for (key, row) in zip(keys, rows) {
                try delete.execute(arguments: StatementArguments(key))
                if let row {
                    try insert.execute(arguments: StatementArguments(row))
                    written += 1
                }
            }
        }
        let users = Array(changes.users), follows = Array(changes.follows), blocks = Array(changes.blocks)
        let posts = Array(changes.posts), hearts = Array(changes.hearts), reviews = Array(changes.reviews)
        let items = Array(changes.items)
        try rewrite("rm_users", keys: users.map { [$0.databaseValue] }, rows: users.map(models.userRow))
        try rewrite("rm_follows", keys: follows.map { [$0.first.databaseValue, $0.second.databaseValue] }, rows: follows.map(models.followRow))
        try rewrite("rm_blocks", keys: blocks.map { [$0.first.databaseValue, $0.second.databaseValue] }, rows: blocks.map(models.blockRow))
        try rewrite("rm_posts", keys: posts.map { [$0.databaseValue] }, rows: posts.map(models.postRow))
        try rewrite("rm_hearts", keys: hearts.map { [$0.first.databaseValue, $0.second.databaseValue] }, rows: hearts.map(models.heartRow))
        try rewrite("rm_reviews", keys: reviews.map { [$0.databaseValue] }, rows: reviews.map(models.reviewRow))
        try rewrite("rm_verdicts", keys: posts.map { [$0.databaseValue] }, rows: posts.map(models.verdictRow))
        try rewrite("rm_flags", keys: items.map { [$0.databaseValue] }, rows: items.map(models.flagRow))
        for item in items {
            try db.execute(sql: "DELETE FROM rm_flag_marks WHERE item = ?", arguments: [item])
            for row in models.flagMarkRows(item) {
                try db.execute(sql: tables[.moderation]!.first { $0.name == "rm_flag_marks" }!.insertSQL, arguments: StatementArguments(row))
                written += 1
            }
        }
        let decisions = Array(changes.firstNewDecision..<models.state.decisions.count)
        try rewrite("rm_decisions", keys: decisions.map { [models.state.decisions[$0].seq.databaseValue] },
                    rows: decisions.map(models.decisionRow))
        if let earliest = changes.earliestDay {
            let days = models.allDays.filter { $0 >= earliest }
            let single = days.count <= 3
            try rewrite("rm_days", keys: days.map { [Timestamp.dateString(ofDay: $0).databaseValue] },
                        rows: days.map { models.dayRow($0, single: single) })
            for day in days {
                try db.execute(sql: "DELETE FROM rm_signups WHERE date = ?", arguments: [Timestamp.dateString(ofDay: day)])
                for row in models.signupRows(day) {
                    try db.execute(sql: "INSERT INTO rm_signups (date, provider, count) VALUES (?, ?, ?)", arguments: StatementArguments(row))
                    written += 1
                }
            }
        }
        if changes.anomalies {
            try db.execute(sql: "DELETE FROM rm_anomalies")
            for row in models.anomalyRows() {
                try db.execute(sql: "INSERT INTO rm_anomalies (type, reason, count) VALUES (?, ?, ?)", arguments: StatementArguments(row))
                written += 1
            }
        }
        for model in ReadModelName.allCases {
            try EventStore.setCheckpoint(db, name: model.checkpointName, seq: models.state.lastSeq)
        }
        try ReadModelSchema.writePosition(models.state, in: db)
        return written
    }

    /// Where the live tables of `model` differ from these read models, row by row (at most `limit`).
    public static func differences(_ model: ReadModelName, _ models: ReadModels, in db: Database, limit: Int = 50) throws
        -> [String]
    {
        let expected = rows(of: model, models)
        var found: [String] = []
        for table in tables[model]! {
            // A table never written holds no rows (and a check must not create it: it may run read-only).
            let exists = try db.tableExists(table.name)
            let live = exists ? try Row.fetchAll(db, sql: table.orderedSelectSQL).map { row in Array(row.databaseValues) } : []
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
