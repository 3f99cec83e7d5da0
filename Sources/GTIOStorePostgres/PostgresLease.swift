import Foundation
import GTIOStore

/// The lead of a role on a PostgreSQL store: a session-level advisory lock held by a connection
/// of its own. The server releases it when that session ends, so a leader killed on any host
/// loses the lead as soon as its connection drops, and another process can take it.
final class PostgresLease: StoreLease, @unchecked Sendable {
    // @unchecked: `session` is only touched while holding `lock`.
    private let lock = NSLock()
    private var session: PostgresSession?
    private let role: String

    /// Takes the lock for `role` on a new connection, asking every 5 ms for up to `seconds`
    /// (on that one connection); nil (the connection closed) when another session still holds it.
    init?(role: String, pool: PostgresConnectionPool, waitingUpTo seconds: Double) throws {
        let session = try pool.dedicated()
        let deadline = Date().addingTimeInterval(seconds)
        var taken = false
        do {
            while true {
                taken = try session.rows(
                    "SELECT pg_try_advisory_lock(\(PostgresSchema.leadLock), hashtext(?))", [.text(role)]
                )[0][0].bool
                guard !taken, Date() < deadline else { break }
                Thread.sleep(forTimeInterval: 0.005)
            }
        } catch {
            try? session.connection.close().wait()
            throw error
        }
        guard taken else {
            try? session.connection.close().wait()
            return nil
        }
        self.role = role
        self.session = session
    }

    deinit { release() }

    var isHeld: Bool {
        lock.withLock { session.map { !$0.connection.isClosed } ?? false }
    }

    func release() {
        let session = lock.withLock {
            defer { self.session = nil }
            return self.session
        }
        // Unlocked first, so that the lead is free when this returns: the server ends a closed
        // session (which releases its locks too) in its own time. A session the server already
        // ended (a restart) holds nothing.
        guard let session else { return }
        if !session.connection.isClosed {
            _ = try? session.run("SELECT pg_advisory_unlock(\(PostgresSchema.leadLock), hashtext(?))", [.text(role)])
        }
        try? session.connection.close().wait()
    }
}
