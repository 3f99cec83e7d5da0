import Foundation
import GTIOStore
import GTIOTestSupport
import Testing

/// A PostgreSQL load of the rows a table holds already (what a rebuild mostly writes) leaves
/// those rows as they are, rather than a dead copy of each for autovacuum to clear.
@Suite(.enabled(if: StoreBackend.postgresServer != nil, "GTIO_TEST_POSTGRES names no server"))
struct PostgresLoadTests {
    let folder = TemporaryDirectory()

    static let scores = TableLayout(
        name: "rm_test_scores", columns: [("user", .text), ("day", .integer), ("score", .real)], keyCount: 2)

    /// Each row's user, score, row version (`xmin`: the transaction that wrote it) and lock
    /// (`xmax`: the last transaction that locked or deleted it, 0 for none), by user.
    private func versions(in store: any EventStore) throws -> [String: (score: Double?, version: String, locker: String)] {
        let rows = try store.readTables { try $0.rows("SELECT user, score, xmin::text, xmax::text FROM rm_test_scores") }
        return Dictionary(uniqueKeysWithValues: rows.map { ($0[0].string ?? "", ($0[1].double, $0[2].string ?? "", $0[3].string ?? "")) })
    }

    @Test func aLoadRewritesOnlyTheRowsThatChanged() throws {
        let store = try StoreBackend.postgres.open(in: folder)
        try store.writeTables { tx in
            try tx.create(Self.scores)
            try tx.load(.scores([("a", 1, 1), ("b", 1, 2), ("c", 1, 3)]), into: Self.scores)
        }
        let before = try versions(in: store)

        // b as it was, c changed, a gone, d new.
        try store.writeTables { tx in try tx.load(.scores([("b", 1, 2), ("c", 1, 30), ("d", 1, 4)]), into: Self.scores) }
        let after = try versions(in: store)
        #expect(after.keys.sorted() == ["b", "c", "d"])
        #expect(after["b"]?.version == before["b"]?.version)
        // Not even locked: an upsert that met it would have locked it before leaving it alone.
        #expect(after["b"]?.locker == "0")
        #expect(after["c"]?.score == 30)
        #expect(after["c"]?.version != before["c"]?.version)
        #expect(after["d"]?.score == 4)
    }

    /// A catch-up's rewrite of rows already as given leaves them untouched too.
    @Test func aRewriteOfRowsAsTheyAreLeavesThemUnlocked() throws {
        let store = try StoreBackend.postgres.open(in: folder)
        try store.writeTables { tx in
            try tx.create(Self.scores)
            try tx.load(.scores([("a", 1, 1), ("b", 1, 2)]), into: Self.scores)
        }
        try store.writeTables { tx in
            try tx.rewrite(Self.scores, keys: [["a", .integer(1)], ["b", .integer(1)]], rows: [["a", .integer(1), .real(1)], ["b", .integer(1), .real(5)]])
        }
        let after = try versions(in: store)
        #expect(after["a"]?.locker == "0")
        #expect(after["b"]?.score == 5)
    }

    @Test func aTableGivenRowsAfterTheFirstLoadOfATransactionIsLoadedAsOneThatHoldsRows() throws {
        let store = try StoreBackend.postgres.open(in: folder)
        let other = TableLayout(name: "rm_test_other", columns: Self.scores.columns, keyCount: 2)
        try store.writeTables { tx in
            try tx.create(Self.scores)
            try tx.load(.scores([("a", 1, 1)]), into: Self.scores)
            try tx.create(other)
            try tx.insert(["b", .integer(1), .real(2)], into: other)
            try tx.load(.scores([("b", 1, 20), ("c", 1, 3)]), into: other)
        }
        let rows = try store.readTables { try $0.rows("SELECT user, score FROM rm_test_other ORDER BY user") }
        #expect(rows == [["b", .real(20)], ["c", .real(3)]])
    }
}
