import Foundation
import GTIOStore
import GTIOTestSupport
import Testing

/// How writers of a PostgreSQL store wait for each other: appends for appends, table writers
/// for table writers, and not one for the other.
@Suite(.enabled(if: StoreBackend.postgresServer != nil, "needs GTIO_TEST_POSTGRES"))
struct PostgresLockTests {
    let folder = TemporaryDirectory()

    /// Opens a table write on `store` on a thread of its own and keeps it open until the
    /// returned semaphore is signalled.
    func holdingTables(_ store: any EventStore) -> DispatchSemaphore {
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        Thread {
            try? store.writeTables { _ in
                holding.signal()
                release.wait()
            }
        }.start()
        holding.wait()
        return release
    }

    @Test func anAppendGoesOnWhileAnotherProcessWritesTheTables() throws {
        let tables = try StoreBackend.postgres.open(in: folder), log = try StoreBackend.postgres.open(in: folder)
        _ = try log.append(batch([heart("a")]))
        let release = holdingTables(tables), appended = DispatchSemaphore(value: 0)
        Thread {
            _ = try? log.append(batch([heart("b")]))
            appended.signal()
        }.start()
        let waited = appended.wait(timeout: .now() + 10)
        release.signal()
        #expect(waited == .success, "the append waited for the tables' writer")
        if waited != .success { appended.wait() }
        #expect(try log.lastSeq() == 2)
    }

    @Test func tableWritersTakeTurns() throws {
        let first = try StoreBackend.postgres.open(in: folder), second = try StoreBackend.postgres.open(in: folder)
        let release = holdingTables(first), wrote = DispatchSemaphore(value: 0)
        Thread {
            try? second.writeTables { _ in }
            wrote.signal()
        }.start()
        #expect(wrote.wait(timeout: .now() + 0.5) == .timedOut, "a second table writer went on while the first held the tables")
        release.signal()
        #expect(wrote.wait(timeout: .now() + 10) == .success)
    }
}
