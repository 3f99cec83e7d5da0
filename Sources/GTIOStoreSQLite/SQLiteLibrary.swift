import CSQLiteSettings

/// Settings of the SQLite library for the whole process, made once before its first connection.
enum SQLiteLibrary {
    /// Whether SQLite took the settings: false when a connection had opened before, as in a test
    /// process whose other tests opened one first (SQLite then keeps its defaults, which give the
    /// same answers more slowly).
    static let configured: Bool = {
        // Memory statistics off: SQLite keeps them under a process-wide mutex taken on every
        // allocation it makes, and nothing here reads them (docs/PERFORMANCE.md).
        gtio_sqlite_memory_statistics_off() == SQLITE_OK
    }()

    /// Makes the settings if no connection has opened yet; every way this module opens one calls it first.
    static func configure() {
        _ = configured
    }
}
