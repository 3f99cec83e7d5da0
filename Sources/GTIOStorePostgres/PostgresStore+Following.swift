import GTIOStore

extension PostgresStore {
    /// The lead is a session-level advisory lock (`PostgresLease`). A lease holds a connection of
    /// its own, so a try that would not wait first asks on a pooled one: followers and servers
    /// that defer to a leader try again and again, and would otherwise open and close a
    /// connection each time.
    public func lead(_ role: String, waitingUpTo seconds: Double) throws -> (any StoreLease)? {
        guard !isReadOnly else { throw StoreError.readOnly(path: location) }
        if seconds <= 0, try isLed(role) { return nil }
        // The lock needs no rights, but a leader that may not move the checkpoints (a reader)
        // would hold a lead that writers leave the read models to, and apply nothing.
        try checkMayWrite()
        do {
            return try PostgresLease(role: role, pool: pool, waitingUpTo: seconds)
        } catch {
            throw translate(error)
        }
    }

    /// The rights a writer's statements need, asked of the server: the lock of a lead and a
    /// connection need none, so a reader would otherwise find out at its first write.
    public func checkMayWrite() throws {
        guard !isReadOnly else { throw StoreError.readOnly(path: location) }
        let rights = try withSession { session in
            try session.rows("""
                SELECT has_table_privilege('events', 'INSERT'), has_table_privilege('checkpoints', 'UPDATE')
                """)[0]
        }
        if !rights[0].bool { throw StoreError.permissionDenied(path: location, reason: "permission denied for table events") }
        if !rights[1].bool {
            throw StoreError.permissionDenied(path: location, reason: "permission denied for the read models' checkpoints")
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
