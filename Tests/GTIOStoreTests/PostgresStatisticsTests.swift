import Foundation
import GTIOStore
import GTIOTestSupport
import Testing

/// The PostgreSQL store gives the planner the size of a table that a write transaction filled
/// or rewrote, and of the log once appends have outgrown its statistics, rather than leave it
/// to autovacuum a minute or more later.
@Suite(.enabled(if: StoreBackend.postgresServer != nil, "GTIO_TEST_POSTGRES names no server"))
struct PostgresStatisticsTests {
    let folder = TemporaryDirectory()

    static let scores = TableLayout(
        name: "rm_test_scores", columns: [("user", .text), ("day", .integer), ("score", .real)], keyCount: 2)

    /// The rows the planner believes `table` has: -1 until the table is first analyzed.
    private func believedRows(_ table: String, in store: any EventStore) throws -> Int64? {
        try store.readTables { tables in
            try tables.row("SELECT reltuples::bigint FROM pg_class WHERE relname = ?", [.text(table)])?[0].int64
        }
    }

    private func rows(_ users: Range<Int>, day: Int64) -> (keys: [[StoreValue]], rows: [[StoreValue]?]) {
        let keys = users.map { [StoreValue.text("u\($0)"), .integer(day)] }
        return (keys, keys.map { $0 + [.real(Double(day))] })
    }

    /// The same rows as `rows(_:day:)`, packed as a rebuild loads them.
    private func packed(_ users: Range<Int>, day: Int64) -> PackedRows {
        .scores(users.map { (user: "u\($0)", day: day, score: Double(day)) })
    }

    /// A new store whose scores table was created and given `count` rows in one transaction.
    private func storeWithScores(_ count: Int) throws -> any EventStore {
        let store = try StoreBackend.postgres.open(in: folder)
        let filled = rows(0..<count, day: 1)
        try store.writeTables { tx in
            try tx.create(Self.scores)
            try tx.rewrite(Self.scores, keys: filled.keys, rows: filled.rows)
        }
        return store
    }

    @Test func aTableFilledInOneTransactionIsAnalyzedOnceItCommits() throws {
        let store = try storeWithScores(1_500)
        #expect(try believedRows("rm_test_scores", in: store) == 1_500)

        // A few rows more are a small change: the statistics stay as they were.
        let few = rows(1_500..<1_600, day: 1)
        try store.writeTables { tx in try tx.rewrite(Self.scores, keys: few.keys, rows: few.rows) }
        #expect(try believedRows("rm_test_scores", in: store) == 1_500)

        // A load that triples the table is not.
        try store.writeTables { tx in try tx.load(packed(0..<4_500, day: 2), into: Self.scores) }
        #expect(try believedRows("rm_test_scores", in: store) == 4_500)
    }

    /// How many times `table` was analyzed other than by autovacuum.
    private func analyses(_ table: String, in store: any EventStore) throws -> Int64? {
        try store.readTables { tables in
            try tables.row("SELECT analyze_count FROM pg_stat_user_tables WHERE relname = ?", [.text(table)])?[0].int64
        }
    }

    @Test func aLoadThatChangesNoRowLeavesTheStatisticsAlone() throws {
        let store = try StoreBackend.postgres.open(in: folder)
        let loaded = packed(0..<3_000, day: 1)
        try store.writeTables { tx in
            try tx.create(Self.scores)
            try tx.load(loaded, into: Self.scores)
        }
        #expect(try analyses("rm_test_scores", in: store) == 1)
        // A rebuild giving the table the rows it holds: counted by rows given, it was analyzed again.
        try store.writeTables { tx in try tx.load(loaded, into: Self.scores) }
        #expect(try analyses("rm_test_scores", in: store) == 1)
        #expect(try believedRows("rm_test_scores", in: store) == 3_000)
    }

    @Test func aTableGivenFewRowsIsLeftToAutovacuum() throws {
        let store = try storeWithScores(999)
        #expect(try believedRows("rm_test_scores", in: store) == -1)
    }

    /// `count` hearts with ids from `first` on.
    private func hearts(_ first: Int, count: Int) -> EventBatch {
        batch((first..<(first + count)).map { heart("h\($0)", second: $0 % 60) })
    }

    /// A new store whose log autovacuum leaves alone, so that only the store analyzes it.
    private func storeWithoutAutovacuum() throws -> any EventStore {
        let store = try StoreBackend.postgres.open(in: folder)
        try StoreBackend.postgres.tamper(store, sqlite: [], postgres: ["ALTER TABLE events SET (autovacuum_enabled = false)"])
        return store
    }

    @Test func theLogIsAnalyzedOnceAppendsOutgrowItsStatistics() throws {
        let store = try storeWithoutAutovacuum()
        _ = try store.append(hearts(0, count: 1_500))
        #expect(try believedRows("events", in: store) == 1_500)
        #expect(try analyses("events", in: store) == 1)

        // 1,000 more events are fewer than the 1,500 the statistics were gathered on.
        _ = try store.append(hearts(1_500, count: 1_000))
        #expect(try analyses("events", in: store) == 1)

        // 600 more, 1,600 since: appended inside a write transaction, as a collector does.
        _ = try store.write { tx in try tx.append(hearts(2_500, count: 600)) }
        #expect(try analyses("events", in: store) == 2)
        #expect(try believedRows("events", in: store) == 3_100)
    }

    @Test func aLogGivenFewEventsIsLeftToAutovacuum() throws {
        let store = try storeWithoutAutovacuum()
        _ = try store.append(hearts(0, count: 999))
        #expect(try believedRows("events", in: store) == -1)
    }
}
