import Foundation
import GTIOCatalog
import GTIOStore
import GTIOStorePostgres
import GTIOStoreSQLite
import GTIOTestSupport
import Testing

/// A scan of more than one window reads every other window on a second connection in the
/// snapshot of the first, and reads them all on the first when the server lets it have no other.
@Suite(.enabled(if: StoreBackend.postgresServer != nil, "GTIO_TEST_POSTGRES names no server"))
struct PostgresScanCompanionTests {
    let folder = TemporaryDirectory()

    /// The examples appended in one batch; returns the store and its URL.
    private func storeOfExamples() throws -> (store: any EventStore, url: String) {
        let store = try StoreBackend.postgres.open(in: folder)
        _ = try store.append(batch(try SharedFiles.exampleLines.map { try EventValidator.validate($0).get() }))
        return (store, try StoreBackend.postgres.location(in: folder))
    }

    /// While the scan is at its first event, two sessions of its database (besides the one
    /// asking) have been sent windows: the second window goes to the companion, the third to
    /// the first session as soon as the first window has come.
    @Test func twoSessionsReadTheWindowsOfOneScanInTurn() throws {
        let (store, url) = try storeOfExamples()
        let database = try #require(store as? PostgresStore)
        let observer = try PostgresStore(url: url, scratchTables: { try SQLiteStore.memoryTables() })
        let reading = """
            SELECT count(DISTINCT pid) FROM pg_stat_activity
            WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE 'SELECT seq, name, position%'
            """
        var sessions = 0
        var records: [LogRecord] = []
        try database.scan(LogScope(), pageSize: 4) { record in
            if records.isEmpty {
                // The server shows a statement once a backend has begun it: give both a moment.
                let deadline = Date().addingTimeInterval(10)
                repeat {
                    sessions = try observer.readTables { try $0.row(reading, [])?[0].int ?? 0 }
                    if sessions < 2 { Thread.sleep(forTimeInterval: 0.02) }
                } while sessions < 2 && Date() < deadline
            }
            records.append(record)
        }
        #expect(sessions == 2)
        #expect(records.map(\.seq) == Array(1...37))
        var whole: [LogRecord] = []
        try database.scan(LogScope(), pageSize: 100) { whole.append($0) }
        #expect(records == whole)
    }

    /// A role allowed one connection scans with it alone, and gets every event: the second
    /// connection's refusal is not the scan's failure.
    @Test func aScanWhoseSecondConnectionIsRefusedReadsOnTheFirst() throws {
        let (store, url) = try storeOfExamples()
        let role = "gtio_one_connection_\(UInt32.random(in: 0...UInt32.max))"
        try StoreBackend.postgres.tamper(store, sqlite: [], postgres: [
            "CREATE ROLE \(role) LOGIN CONNECTION LIMIT 1", "GRANT pg_read_all_data TO \(role)",
        ])
        defer { try? StoreBackend.postgres.tamper(store, sqlite: [], postgres: ["DROP ROLE IF EXISTS \(role)"]) }
        var components = try #require(URLComponents(string: url))
        components.user = role
        var records: [LogRecord] = []
        do {
            let limited = try PostgresStore(url: try #require(components.string), scratchTables: { try SQLiteStore.memoryTables() })
            try limited.scan(LogScope(), pageSize: 4) { records.append($0) }
        }
        #expect(records.map(\.seq) == Array(1...37))
    }
}
