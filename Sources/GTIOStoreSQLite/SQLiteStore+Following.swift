import GTIOStore

extension SQLiteStore {
    /// A store opened to write was found writable when it was opened (file and folder).
    public func checkMayWrite() throws {
        guard !isReadOnly else { throw StoreError.readOnly(path: path) }
    }

    /// The lead is a lock on a file beside the store (`LeadFile`).
    public func lead(_ role: String, waitingUpTo seconds: Double) throws -> (any StoreLease)? {
        guard !isReadOnly else { throw StoreError.readOnly(path: path) }
        return try LeadFile(path: leadPath(role), waitingUpTo: seconds)
    }

    public func isLed(_ role: String) throws -> Bool {
        LeadFile.isHeld(path: leadPath(role))
    }

    private func leadPath(_ role: String) -> String { "\(path)-\(role).lock" }

    /// SQLite tells no one of a commit: it is asked every 20 ms whether one came (`LogPolling`).
    public func watchAppends() throws -> any AppendWatch {
        try LogPolling(store: self)
    }
}
