import GTIOStore
import GTIOStoreSQLite
import GTIOTestSupport
import Testing
@testable import GTIOProjections

/// `rebuild --check`'s comparison of live tables with a fold: every row missing, added or
/// changed is named, in key order, whatever the key's columns and bytes.
@Suite struct TableDifferencesTests {
    @Test func everyRowMissingAddedOrChangedIsNamedInKeyOrder() throws {
        let folder = TemporaryDirectory()
        let store = try SQLiteStore(path: folder.file("log.gtio"))
        _ = try store.append(EventBatch(source: "gen", events: RandomLog.events(seed: 31, count: 400).enumerated().map { ($0.offset, $0.element) }))
        let models = try LiveReadModels(store: store).catchUp()
        for name in ReadModelName.allCases {
            #expect(try store.readTables { try ReadModelTables.differences(name, models, in: $0) } == [], "\(name)")
        }
        let posts = ReadModelTables.layout("rm_posts"), hearts = ReadModelTables.layout("rm_hearts")
        let livePosts = try store.readTables { try $0.rows(posts.orderedSelectSQL) }
        let liveHearts = try store.readTables { try $0.rows(hearts.orderedSelectSQL) }
        try #require(livePosts.count >= 3 && liveHearts.count >= 3)
        let (gone, changed) = (livePosts[0], livePosts[livePosts.count / 2])
        let heart = liveHearts[liveHearts.count / 2]
        // Keys whose order by bytes differs from a reader's: "Z" before "a", a composed "é" after "f".
        let extra: [StoreValue] = [.text("Z-extra")] + changed.dropFirst()
        let accented: [StoreValue] = [.text("\u{E9}"), heart[1], heart[2]]
        try store.writeTables { tx in
            try tx.delete(from: posts, key: [gone[0]])
            try tx.delete(from: posts, key: [changed[0]])
            var edited = changed
            edited[6] = .integer((changed[6].int64 ?? 0) + 40)
            try tx.insert(edited, into: posts)
            try tx.insert(extra, into: posts)
            try tx.delete(from: hearts, key: [heart[0], heart[1]])
            try tx.insert(accented, into: hearts)
        }
        let found = try store.readTables { try ReadModelTables.differences(.posts, models, in: $0) }
        let expected = [
            "rm_posts (\(extra[0])): in the live table but not in the rebuild",
            "rm_posts (\(gone[0])): missing from the live table",
            "rm_posts (\(changed[0])): hearts is \((changed[6].int64 ?? 0) + 40) live, \(changed[6]) rebuilt",
            "rm_hearts (\(heart[0]), \(heart[1])): missing from the live table",
            "rm_hearts (\(accented[0]), \(accented[1])): in the live table but not in the rebuild",
        ]
        #expect(found == expected)
        // At most `limit`, the first in that order.
        #expect(try store.readTables { try ReadModelTables.differences(.posts, models, in: $0, limit: 2) } == Array(expected.prefix(2)))
    }
}
