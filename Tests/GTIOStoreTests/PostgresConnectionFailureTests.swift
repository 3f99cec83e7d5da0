import Foundation
@testable import GTIOStorePostgres
import GTIOStore
import GTIOStoreSQLite
import GTIOTestSupport
import Testing

/// Connections that fail say why, and sessions the server ends (a restart, an operator's
/// `pg_terminate_backend`) fail what waits on them instead of leaving it waiting for ever:
/// postgres-nio drops a statement written after its connection closed, and its answer never comes.
@Suite(.enabled(if: StoreBackend.postgresServer != nil, "GTIO_TEST_POSTGRES names no server"))
struct PostgresConnectionFailureTests {
    let folder = TemporaryDirectory()

    /// Ends every other session on the store's database, as a restart of the server would.
    private func endSessions(of store: any EventStore) throws {
        try StoreBackend.postgres.tamper(store, sqlite: [], postgres: [
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
        ])
    }

    /// Runs `body` on a thread of its own; whether it returned within `seconds` (a failing test
    /// must not hang the run).
    private func returns(within seconds: Double, _ body: @escaping @Sendable () -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        Thread {
            body()
            done.signal()
        }.start()
        return done.wait(timeout: .now() + seconds) == .success
    }

    private func waitUntil(_ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(10)
        while !condition() && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
    }

    /// The test server takes no TLS (`.ci/run` and `scripts/pg-local.sh` start it without).
    @Test func tlsTheServerDoesNotTakeIsNamedAsTheReason() throws {
        var url = try #require(URLComponents(string: try StoreBackend.postgres.location(in: folder)))
        url.queryItems = [URLQueryItem(name: "sslmode", value: "require")]
        #expect {
            try PostgresStore(url: try #require(url.string), scratchTables: { try SQLiteStore.memoryTables() })
        } throws: { error in
            guard case StoreError.cannotOpen(_, let reason) = error else { return false }
            return reason.hasPrefix("the server does not take TLS connections, which the URL's sslmode asks for")
        }
    }

    @Test func aDatabaseTheServerDoesNotHaveIsAStoreNamedWrongly() throws {
        var url = try #require(URLComponents(string: try StoreBackend.postgres.location(in: folder)))
        url.path = "/gtio_no_such_database"
        let location = try #require(url.string)
        #expect(throws: StoreError.noDatabase(path: try PostgresLocation(url: location).description, database: "gtio_no_such_database")) {
            try PostgresStore(url: location, readOnly: true, scratchTables: { try SQLiteStore.memoryTables() })
        }
        #expect(StoreError.noDatabase(path: "p", database: "d").isUsageError)
    }

    @Test func aLeadWhoseSessionTheServerEndedIsLostLetGoAndTakenAgain() throws {
        let store = try StoreBackend.postgres.open(in: folder)
        let lease = try #require(try store.lead("projector"))
        try endSessions(of: store)
        waitUntil { !lease.isHeld }
        #expect(!lease.isHeld)
        #expect(returns(within: 10) { lease.release() }, "letting go of a lost lead returns")
        let taken = try #require(try store.lead("projector"))
        #expect(taken.isHeld)
        taken.release()
    }

    @Test func aStatementSentOnASessionTheServerEndedFails() throws {
        let store = try #require(try StoreBackend.postgres.open(in: folder) as? PostgresStore)
        let session = try store.pool.dedicated()
        defer { try? session.connection.close().wait() }
        #expect(try session.rows("SELECT 1")[0][0].int == 1)
        try endSessions(of: store)
        waitUntil { session.connection.isClosed }
        let failed = Failure()
        #expect(returns(within: 10) {
            do { _ = try session.run("SELECT 1") } catch { failed.message = "\(error)" }
        }, "the statement's wait ends")
        #expect(failed.message == "the connection to the server was lost")
    }
}

private final class Failure: @unchecked Sendable {
    var message: String?
}
