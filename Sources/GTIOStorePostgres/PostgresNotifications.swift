import Foundation
import GTIOStore
import PostgresNIO

/// Word of new events on a PostgreSQL store: a connection of its own LISTENs on the channel
/// every commit that adds events notifies (`PostgresSchema.logChannel`), so a follower wakes
/// within a round trip of a commit instead of polling. A wait that hears nothing reads the
/// log's end itself, and reconnects when its connection dropped, so a lost notification or a
/// restarted server costs at most one timeout.
final class PostgresNotifications: AppendWatch, @unchecked Sendable {
    // @unchecked: `heard`, `session` and `closed` are only touched while holding `condition`.
    private let condition = NSCondition()
    private var heard: Int64 = 0
    private var session: PostgresSession?
    private var closed = false
    private let store: PostgresStore

    init(store: PostgresStore) throws {
        self.store = store
        try listen()
    }

    deinit { close() }

    private func listen() throws {
        let session = try store.pool.dedicated()
        session.connection.addListener(channel: PostgresSchema.logChannel) { [weak self] _, notification in
            guard let self, let seq = Int64(notification.payload) else { return }
            self.condition.lock()
            self.heard = max(self.heard, seq)
            self.condition.broadcast()
            self.condition.unlock()
        }
        do {
            try session.execute("LISTEN \(PostgresSchema.logChannel)")
        } catch {
            try? session.connection.close().wait()
            throw store.translate(error)
        }
        condition.lock()
        self.session = session
        condition.unlock()
    }

    func wait(after seq: Int64, timeout: Double) throws -> Int64 {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        while heard <= seq && !closed && condition.wait(until: deadline) {}
        let last = heard
        let lost = session?.connection.isClosed ?? true
        let stopped = closed
        condition.unlock()
        if last > seq || stopped { return last }
        if lost && !stopped { try listen() }
        // Nothing heard: the log's own end, in case a notification went missing.
        let end = try store.lastSeq()
        condition.lock()
        heard = max(heard, end)
        condition.unlock()
        return end
    }

    func close() {
        condition.lock()
        let session = self.session
        self.session = nil
        closed = true
        condition.broadcast()
        condition.unlock()
        try? session?.connection.close().wait()
    }
}
