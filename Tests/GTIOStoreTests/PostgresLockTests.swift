import Foundation
import GTIOStore
import GTIOTestSupport
import Testing

/// How writers of a PostgreSQL store wait for each other: appends for appends, table writers
/// for table writers, and not one for the other.
@Suite(.enabled(if: StoreBackend.postgresServer != nil, "needs GTIO_TEST_POSTGRES"))
struct PostgresLockTests {
    let folder = TemporaryDirectory()

    @Test func anAppendGoesOnWhileAnotherProcessWritesTheTables() throws {
        let tables = try StoreBackend.postgres.open(in: folder), log = try StoreBackend.postgres.open(in: folder)
        _ = try log.append(batch([heart("a")]))
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), appended = DispatchSemaphore(value: 0)
        let writer = Thread {
            try? tables.writeTables { _ in
                holding.signal()
                release.wait()
            }
        }
        writer.start()
        holding.wait()
        let appender = Thread {
            _ = try? log.append(batch([heart("b")]))
            appended.signal()
        }
        appender.start()
        let waited = appended.wait(timeout: .now() + 10)
        release.signal()
        #expect(waited == .success, "the append waited for the tables' writer")
        if waited != .success { appended.wait() }
        #expect(try log.lastSeq() == 2)
    }

    @Test func tableWritersTakeTurns() throws {
        let first = try StoreBackend.postgres.open(in: folder), second = try StoreBackend.postgres.open(in: folder)
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), wrote = DispatchSemaphore(value: 0)
        let writer = Thread {
            try? first.writeTables { _ in
                holding.signal()
                release.wait()
            }
        }
        writer.start()
        holding.wait()
        let other = Thread {
            try? second.writeTables { _ in }
            wrote.signal()
        }
        other.start()
        #expect(wrote.wait(timeout: .now() + 0.5) == .timedOut, "a second table writer went on while the first held the tables")
        release.signal()
        #expect(wrote.wait(timeout: .now() + 10) == .success)
    }
}
