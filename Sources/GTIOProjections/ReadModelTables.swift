import Foundation
import GTIOCatalog
import GTIOStore

/// The read models as SQL tables (documented in docs/READ_MODELS.md): written from a folded
/// state together with their checkpoints in one transaction, so readers see the old or the new
/// model, never half of one; and compared row by row with a fresh fold for `rebuild --check`.
public enum ReadModelTables {
    static let tables: [ReadModelName: [TableLayout]] = [
        .followGraph: [
            TableLayout(name: "rm_users", columns: [
                ("user", .text), ("name", .text), ("private", .integer), ("followers", .integer),
                ("following", .integer), ("signed_up", .integer), ("provider", .text),
                ("products_hearted", .integer), ("shopping_list", .integer),
            ], keyCount: 1, indexes: [["followers DESC", "user"]]),
            // Each end's display name (as in `rm_users`) rides with the edge, so that a list of
            // followers or followed is read from this table alone, not a random page of
            // `rm_users` per name. `follower_order` is the follower's name as lists sort it
            // (`NameOrder.text`). By target with the edge's state, that order, follower and (on
            // SQLite) name: `followers U` reads the index alone, in the list's order (`follower`
            // is named for PostgreSQL, as in `rm_posts`; its index holds the order's first
            // characters and it sorts the list itself); `following U` reads the table by its key.
            TableLayout(name: "rm_follows", columns: [
                ("follower", .text), ("target", .text), ("state", .text), ("follower_name", .text), ("target_name", .text),
                ("follower_order", .text),
            ], keyCount: 2, indexes: [
                .init(["target", "state", "follower_order", "follower"], carrying: ["follower_name"], bounded: ["follower_order"]),
            ]),
            TableLayout(name: "rm_blocks", columns: [("blocker", .text), ("blocked", .text)], keyCount: 2,
                           indexes: [["blocked"]]),
        ],
        .posts: [
            TableLayout(name: "rm_posts", columns: [
                ("post", .text), ("author", .text), ("kind", .text), ("voting", .integer), ("created", .integer),
                ("state", .text), ("hearts", .integer), ("wear_it", .integer), ("change_it", .integer),
                ("reviews", .integer), ("shares", .integer), ("hidden", .integer), ("points", .integer),
                ("description", .text), ("seq", .integer), ("product", .text), ("price", .real), ("place", .text),
                ("lat", .real), ("lon", .real), ("author_private", .integer),
            ], keyCount: 1, indexes: [
                // Covers the walks of `looks new` and `looks popular`, newest first, and which
                // posts they may rank: a page is read without a visit to its posts' rows. `post`
                // is named for PostgreSQL, whose indexes do not carry the key as SQLite's do.
                ["author"], ["created", "state", "hidden", "author_private", "points", "author", "hearts", "wear_it", "change_it", "reviews", "post"],
                ["points", "post"],
                // The posts of each hour of `created` by points: `popular`'s walk by hours reads
                // only those of an hour that may still enter the page (`StoredReadModels`).
                .init([StoredReadModels.hourOfCreated, "points"], label: "hour_points"),
                // Most posts have no product and no place, and nothing looks for those through
                // these two: left out, the indexes cost a rebuild and each new post less.
                .init(["product"], where: "product IS NOT NULL"),
                // Covers `places --near` on SQLite: its posts are read without a visit to their rows.
                .init(["place", "state", "hidden", "author_private", "created", "author", "points", "lat", "lon"], where: "place IS NOT NULL",
                      bounded: ["place"]),
            ]),
            // Free text is keyed by `KeyText` (its own text unless it is long), with the text beside.
            TableLayout(name: "rm_post_brands", columns: [("post", .text), ("brand_key", .text), ("brand", .text)], keyCount: 2,
                        indexes: [.init(["brand"], bounded: ["brand"])]),
            // The looks at each place that Popular looks may rank (`places`): a row per place.
            TableLayout(name: "rm_places", columns: [
                ("place_key", .text), ("place", .text), ("posts", .integer), ("authors", .integer), ("points", .integer),
            ], keyCount: 1),
            TableLayout(name: "rm_hearts", columns: [("post", .text), ("user", .text), ("seq", .integer)], keyCount: 2),
            TableLayout(name: "rm_reviews", columns: [
                ("review", .text), ("post", .text), ("author", .text), ("at", .integer), ("removed", .integer),
                ("agrees", .integer), ("text", .text), ("seq", .integer),
            ], keyCount: 1, indexes: [["post"], ["author"]]),
        ],
        .verdicts: [
            TableLayout(name: "rm_verdicts", columns: [
                ("post", .text), ("wear_it", .integer), ("change_it", .integer), ("share", .real),
                ("wilson", .real), ("verdict", .text), ("votes", .integer),
            ], keyCount: 1, indexes: [["wilson DESC", "votes DESC", "post"]]),
        ],
        .moderation: [
            TableLayout(name: "rm_flags", columns: [
                ("item", .text), ("flaggers", .integer), ("first_flagged", .integer), ("hidden", .integer),
                ("last_flagged", .integer), ("version", .integer), ("reasons", .text), ("author", .text),
                // The post's description or the review's text, as created (neither changes):
                // the queue's previews come from its own rows, not a random page of
                // `rm_posts` or `rm_reviews` for each item.
                ("preview", .text),
                // The queue's order, carrying the rest: the whole queue is read from the index
                // alone, where a look-up of each row in the table took a third of it at 20 M events.
            ], keyCount: 1, indexes: [
                .init(["flaggers DESC", "first_flagged", "item"], carrying: ["hidden", "last_flagged", "version", "reasons", "author", "preview"]),
            ]),
            TableLayout(name: "rm_flaggers", columns: [
                ("user", .text), ("flagged", .integer), ("upheld", .integer), ("dismissed", .integer), ("accuracy", .real),
            ], keyCount: 1, indexes: [["flagged DESC", "user"]]),
            TableLayout(name: "rm_decisions", columns: [
                ("seq", .integer), ("at", .integer), ("item", .text), ("action", .text), ("moderator", .text),
                ("note", .text), ("flaggers", .integer), ("first_flagged", .integer), ("waited", .integer),
            ], keyCount: 1, indexes: [["item"], ["waited"]]),
            TableLayout(name: "rm_flag_marks", columns: [
                ("item", .text), ("seq", .integer), ("user", .text), ("at", .integer), ("reason", .text), ("counted", .integer),
                ("open", .integer),
            ], keyCount: 2, indexes: [
                // The items with an open flag of a reason: `flags --reason`.
                .init(["reason", "item"], where: "open = 1", bounded: ["reason"]),
            ]),
            TableLayout(name: "rm_desk", columns: [
                ("scope", .text), ("queue", .integer), ("queue_hidden", .integer), ("decisions", .integer),
                ("removed", .integer), ("dismissed", .integer), ("median_wait", .integer), ("p90_wait", .integer),
            ], keyCount: 1),
            TableLayout(name: "rm_moderators", columns: [
                ("moderator", .text), ("decisions", .integer), ("removed", .integer), ("dismissed", .integer),
            ], keyCount: 1),
        ],
        .products: [
            TableLayout(name: "rm_products", columns: [
                ("product", .text), ("hearts", .integer), ("lists", .integer), ("suggestions", .integer), ("posts", .integer),
                ("price", .real),
            ], keyCount: 1, indexes: [["hearts DESC", "lists DESC", "suggestions DESC", "product"]]),
            // The prices of live product posts by group, a row per distinct price (`prices`).
            TableLayout(name: "rm_price_points", columns: [
                ("kind", .text), ("name_key", .text), ("price", .real), ("name", .text), ("posts", .integer),
            ], keyCount: 3),
            // Each group's figures, from its price points (`prices`): a row per group.
            TableLayout(name: "rm_price_groups", columns: [
                ("kind", .text), ("name_key", .text), ("name", .text), ("posts", .integer), ("min", .real), ("median", .real),
                ("mean", .real), ("p90", .real), ("max", .real),
            ], keyCount: 2),
            TableLayout(name: "rm_product_channels", columns: [("product", .text), ("channel", .text), ("count", .integer)],
                        keyCount: 2),
        ],
        .engagement: [
            TableLayout(name: "rm_days", columns: [
                ("date", .text), ("dau", .integer), ("wau", .integer), ("mau", .integer), ("devices", .integer),
                ("signups", .integer), ("posts", .integer), ("hearts", .integer), ("votes", .integer),
                ("reviews", .integer), ("flags", .integer), ("shares", .integer), ("invites", .integer),
                ("suggestions", .integer), ("events", .integer), ("quickadd_shown", .integer), ("quickadd_accepted", .integer),
            ], keyCount: 1),
            // The days after the last, which only their WAU and MAU tell apart from days before the log.
            TableLayout(name: "rm_days_after", columns: [("date", .text), ("wau", .integer), ("mau", .integer)], keyCount: 1),
            TableLayout(name: "rm_signups", columns: [("date", .text), ("provider", .text), ("count", .integer)], keyCount: 2),
            TableLayout(name: "rm_anomaly_days", columns: [("date", .text), ("type", .text), ("reason", .text), ("count", .integer)],
                        keyCount: 3),
            // Both indexes cover their table's day-by-day sums (`retention`, `funnel`), so that
            // these read the index in date order and never a row.
            TableLayout(name: "rm_cohorts", columns: [
                ("user", .text), ("date", .text), ("active_d1", .integer), ("active_d7", .integer), ("active_d30", .integer),
            ], keyCount: 1, indexes: [["date", "active_d1", "active_d7", "active_d30"]]),
            TableLayout(name: "rm_devices", columns: [("device", .text), ("first_opened", .integer), ("date", .text), ("step", .integer)],
                        keyCount: 1, indexes: [["date", "step"]]),
            // Their sums by day, which `funnel` and `retention` read: a row a day asked.
            TableLayout(name: "rm_funnel_days", columns: [
                ("date", .text), ("opened", .integer), ("signed_up", .integer), ("profile_completed", .integer),
                ("quickadd_followed", .integer),
            ], keyCount: 1),
            TableLayout(name: "rm_cohort_days", columns: [
                ("date", .text), ("users", .integer), ("active_d1", .integer), ("active_d7", .integer), ("active_d30", .integer),
            ], keyCount: 1),
        ],
        .anomalies: [
            TableLayout(name: "rm_anomalies", columns: [("type", .text), ("reason", .text), ("count", .integer)], keyCount: 2),
        ],
    ]

    /// The rows `model`'s tables hold for these read models, keyed by table name, in key order.
    static func rows(of model: ReadModelName, _ models: ReadModels) -> [String: [[StoreValue]]] {
        let packed = packedRows(of: model, models)
        return Dictionary(uniqueKeysWithValues: tables[model]!.map { table in
            let rows = packed[table.name]?.rows ?? []
            // By the keys' bytes, as SQL orders them (`!=` would take canonically equivalent
            // text for the same, and order twin ids by the next column).
            return (table.name, rows.sorted { a, b in
                for index in 0..<table.keyCount where !same(a[index], b[index]) { return StoreValue.less(a[index], b[index]) }
                return false
            })
        })
    }

    /// Where the live tables of `model` differ from these read models, row by row (at most `limit`).
    ///
    /// Both sides come in key order (the live rows as SQL orders them, by bytes), so they are
    /// walked side by side: at 20 M events the tables hold ~9 M rows, which keyed as text in two
    /// dictionaries cost most of a `rebuild --check` and gigabytes.
    public static func differences(_ model: ReadModelName, _ models: ReadModels, in tables: any TableReading, limit: Int = 50) throws
        -> [String]
    {
        let expected = rows(of: model, models)
        var found: [String] = []
        for table in Self.tables[model]! {
            let wanted = expected[table.name] ?? []
            /// The row's key as the findings show it.
            func key(_ row: [StoreValue]) -> String { row.prefix(table.keyCount).map(\.description).joined(separator: ", ") }
            /// Whether `a`'s key comes before `b`'s in the table's order.
            func precedes(_ a: [StoreValue], _ b: [StoreValue]) -> Bool {
                for index in 0..<table.keyCount where !same(a[index], b[index]) { return StoreValue.less(a[index], b[index]) }
                return false
            }
            var next = 0
            // A table never written holds no rows (and a check must not create it: it may run read-only).
            if try tables.hasTable(table.name) {
                try tables.forEachRow(table.orderedSelectSQL, []) { live in
                    while next < wanted.count, precedes(wanted[next], live) {
                        found.append("\(table.name) (\(key(wanted[next]))): missing from the live table")
                        next += 1
                    }
                    if next < wanted.count, !precedes(live, wanted[next]) {
                        for (index, column) in table.columns.enumerated() where !same(live[index], wanted[next][index]) {
                            found.append("\(table.name) (\(key(live))): \(column.name) is \(live[index]) live, \(wanted[next][index]) rebuilt")
                        }
                        next += 1
                    } else {
                        found.append("\(table.name) (\(key(live))): in the live table but not in the rebuild")
                    }
                    return found.count < limit
                }
            }
            while next < wanted.count, found.count < limit {
                found.append("\(table.name) (\(key(wanted[next]))): missing from the live table")
                next += 1
            }
            if found.count >= limit { break }
        }
        return Array(found.prefix(limit))
    }

    /// Values equal as SQL stores them (a Bool is stored as an integer; text by its bytes).
    static func same(_ a: StoreValue, _ b: StoreValue) -> Bool {
        if case .text(let x) = a, case .text(let y) = b { return x.isExactly(y) }
        if a == b { return true }
        switch (a, b) {
        case (.real(let x), .real(let y)): return abs(x - y) <= 1e-12 * max(1, abs(x))
        case (.integer(let x), .real(let y)), (.real(let y), .integer(let x)): return Double(x) == y
        default: return false
        }
    }

    /// The table named `name`.
    static func layout(_ name: String) -> TableLayout {
        tables.values.joined().first { $0.name == name }!
    }
}

extension StoreValue {
    /// NULL < numbers < text, as SQL orders them.
    static func less(_ a: StoreValue, _ b: StoreValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return false
        case (.null, _): return true
        case (_, .null): return false
        case (.integer(let x), .integer(let y)): return x < y
        case (.real(let x), .real(let y)): return x < y
        case (.integer(let x), .real(let y)): return Double(x) < y
        case (.real(let x), .integer(let y)): return x < Double(y)
        case (.text(let x), .text(let y)): return x.utf8.lexicographicallyPrecedes(y.utf8)
        case (.text, _): return false
        case (_, .text): return true
        default: return false
        }
    }
}

extension String {
    var storeValue: StoreValue { .text(self) }
}

extension Int64 {
    var storeValue: StoreValue { .integer(self) }
}
