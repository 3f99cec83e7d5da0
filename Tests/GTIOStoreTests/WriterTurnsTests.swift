import Foundation
import GTIOStore
import GTIOTestSupport
import Testing

/// How a store's writers wait for each other: appends for appends, table writers for table
/// writers, and not one for the other, whether they share one opened store (the collector's
/// group commit and its catch-ups) or open it apart (two processes).
struct WriterTurnsTests {
    let folder = TemporaryDirectory()

    /// Opens a table write on `store` (moving a checkpoint) on a thread of its own and keeps it
    /// open until the returned function is called, which returns once it has committed.
    func holdingTables(_ store: any EventStore) -> () -> Void {
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let committed = DispatchSemaphore(value: 0)
        Thread {
            try? store.writeTables { tx in
                try tx.setCheckpoint("looks", seq: 1)
                holding.signal()
                release.wait()
            }
            committed.signal()
        }.start()
        holding.wait()
        return {
            release.signal()
            committed.wait()
        }
    }

    /// Runs `body` on a thread of its own; true when it returned within `seconds`.
    func finishes(within seconds: Double, _ body: @escaping @Sendable () throws -> Void) -> (Bool, DispatchSemaphore) {
        let done = DispatchSemaphore(value: 0)
        Thread {
            try? body()
            done.signal()
        }.start()
        return (done.wait(timeout: .now() + seconds) == .success, done)
    }

    @Test(arguments: StoreBackend.all, [false, true])
    func appendsGoOnWhileTheTablesAreWritten(_ backend: StoreBackend, sameStore: Bool) throws {
        let tables = try backend.open(in: folder)
        let log = sameStore ? tables : try backend.open(in: folder)
        _ = try log.append(batch([heart("a")]))
        let release = holdingTables(tables)
        let (appended, done) = finishes(within: 10) {
            _ = try log.append(batch([heart("b")]))
            _ = try log.write { tx in try tx.append(batch([heart("c")])) }
        }
        release()
        #expect(appended, "an append waited for the tables' writer")
        if !appended { done.wait() }
        #expect(try log.lastSeq() == 3)
        #expect(try log.checkpoint(named: "looks") == 1)
    }

    @Test(arguments: StoreBackend.all)
    func tableWritersTakeTurns(_ backend: StoreBackend) throws {
        let first = try backend.open(in: folder), second = try backend.open(in: folder)
        let release = holdingTables(first)
        let (wrote, done) = finishes(within: 0.5) { try second.writeTables { try $0.setCheckpoint("looks", seq: 2) } }
        #expect(!wrote, "a second table writer went on while the first held the tables")
        release()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(try first.checkpoint(named: "looks") == 2)
    }
}
