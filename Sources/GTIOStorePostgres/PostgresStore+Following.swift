import GTIOStore

extension PostgresStore {
    /// The lead is a session-level advisory lock (`PostgresLease`). A lease holds a connection of
    /// its own, so a try that would not wait first asks on a pooled one: followers and servers
    /// that defer to a leader try again and again, and would otherwise open and close a
    /// connection each time.
    public func lead(_ role: String, waitingUpTo seconds: Double) throws -> (any StoreLease)? {
        guard !isReadOnly else { throw StoreError.readOnly(path: location) }
        if seconds <= 0, try isLed(role) { return nil }
        do {
            return try PostgresLease(role: role, pool: pool, waitingUpTo: seconds)
        } catch {
            throw translate(error)
        }
    }

    /// Whether the lock can be had, let go at once if so.
    public func isLed(_ role: String) throws -> Bool {
        let key = "\(PostgresSchema.leadLock), hashtext(?)"
        return try withSession { session in
            try !session.rows(
                "SELECT CASE WHEN pg_try_advisory_lock(\(key)) THEN pg_advisory_unlock(\(key)) ELSE false END",
                [.text(role), .text(role)])[0][0].bool
        }
    }

    /// LISTEN on the channel every commit that adds events notifies (`PostgresNotifications`).
    public func watchAppends() throws -> any AppendWatch {
        try PostgresNotifications(store: self)
    }
}
