import Foundation
import GTIOStore

/// The shared event store: one PostgreSQL database that many ingesters, collectors and
/// consoles, on many hosts, append to and read at once. The same log, hash chain, quarantine
/// and read-model tables as the SQLite store, behind the same protocols.
public final class PostgresStore: EventLog, TableStore, SQLReading {
    /// The server and database, without the password.
    public let location: String
    public let isReadOnly: Bool
    public var readsThroughAServer: Bool { true }
    /// Signs the head of every batch this process appends, when given.
    public let signer: BatchSigner?
    let pool: PostgresConnectionPool
    /// Whether this process's appends have outgrown the planner's statistics of the log.
    let logStatistics = LogStatistics()
    /// Where an as-of view folds its read models: tables in this process's memory, of whatever
    /// kind the caller gives (the console gives SQLite's in-memory tables).
    private let makeScratchTables: @Sendable () throws -> any TableStore

    /// Opens the store at `url` (see `PostgresLocation`), creating its tables in an empty
    /// database unless `create` is false. `readOnly` never writes, not even to migrate: a
    /// database without a store is `.missing`, one with an older schema `.needsUpgrade`.
    public init(
        url: String, readOnly: Bool = false, create: Bool = true, signer: BatchSigner? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        scratchTables: @escaping @Sendable () throws -> any TableStore
    ) throws(StoreError) {
        let place = try PostgresLocation(url: url, environment: environment)
        location = place.description
        isReadOnly = readOnly
        self.signer = signer
        makeScratchTables = scratchTables
        pool = try PostgresConnectionPool(place)
        let location = self.location
        do {
            try pool.withSession { session in
                let applied = try PostgresSchema.applied(session)
                if let applied, applied > PostgresSchema.current { throw StoreError.newerStore(path: location) }
                if applied == nil && (readOnly || !create) { throw StoreError.missing(path: location) }
                if readOnly {
                    guard let applied else { throw StoreError.missing(path: location) }
                    if applied < PostgresSchema.current { throw StoreError.needsUpgrade(path: location) }
                } else if applied != PostgresSchema.current {
                    try PostgresSchema.migrate(session, location: location)
                }
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw .cannotOpen(path: location, reason: "\(error)")
        }
    }

    static func now() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }

    /// A server's complaint as a store error.
    func translate(_ error: any Error) -> any Error {
        switch error {
        case let error as StoreError: error
        case let failure as PostgresFailure:
            switch failure.state {
            case "25006": StoreError.readOnly(path: location)
            case "42501": StoreError.permissionDenied(path: location, reason: failure.message)
            // Connection exceptions, and a server shutting down or starting up.
            case let state? where state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state):
                StoreError.unavailable(path: location, reason: failure.message)
            case "53100": StoreError.diskFull(path: location)
            default: StoreError.database(failure.message)
            }
        default: error
        }
    }

    /// Runs `body` with a connection, turning PostgreSQL's errors into store errors.
    func withSession<T>(_ body: (PostgresSession) throws -> T) throws -> T {
        do {
            return try pool.withSession(body)
        } catch {
            throw translate(error)
        }
    }

    /// Runs `body` on one consistent, read-only snapshot.
    func read<T>(_ body: (PostgresSession) throws -> T) throws -> T {
        try withSession { session in
            try session.readOnlyTransaction { try body(session) }
        }
    }

    /// What a write transaction may change, and so which of the store's locks it holds: no
    /// transaction writes both.
    enum WriteScope {
        /// The log's tables (events, batches, quarantine): `PostgresSchema.logLock`.
        case log
        /// The read models' tables and checkpoints: `PostgresSchema.tablesLock`.
        case tables
    }

    /// Runs `body` in one write transaction holding the locks of `scope`: writers of the same
    /// part take turns. Without the tables' lock, two writers catching up the same read models
    /// updated the same rows in different orders and the server ended one of them as a
    /// deadlock; and each would have applied the events past the checkpoint it read before the
    /// other committed. Appends and table writes hold different locks, so that one ingester's
    /// catch-up does not stop another's appends. Readers never wait: they read snapshots.
    func write<T>(_ scope: WriteScope, session body: (PostgresSession) throws -> T) throws -> T {
        guard !isReadOnly else { throw StoreError.readOnly(path: location) }
        return try withSession { session in
            try session.transaction {
                let lock = scope == .log ? PostgresSchema.logLock : PostgresSchema.tablesLock
                // Not waited for: the server runs the body's statements after it, in order, and
                // a failure aborts the transaction, which then fails the body's next statement.
                session.sendChecked("SELECT pg_advisory_xact_lock(\(lock))")
                return try body(session)
            }
        }
    }

    /// Runs `statements` in one write transaction as they are, past every check of the store's
    /// API: for this backend's tests of what `verify` catches when someone changes the database.
    package func executeUnchecked(_ statements: [String]) throws {
        try write(.log) { session in for sql in statements { _ = try session.run(sql) } }
    }

    public func settle() {}

    /// None to move: the server checkpoints in processes of its own.
    public func startUpkeepAside() throws -> (any LogUpkeep)? { nil }

    public func lastSeq() throws -> Int64 {
        try withSession { session in try session.rows("SELECT COALESCE(MAX(seq), 0) FROM events")[0][0].int64 ?? 0 }
    }

    public func checkpoints(named names: [String]) throws -> [String: Int64] {
        try withSession { session in try Self.checkpoints(named: names, in: session) }
    }

    static func checkpoints(named names: [String], in session: PostgresSession) throws -> [String: Int64] {
        guard !names.isEmpty else { return [:] }
        let rows = try session.rows(
            "SELECT name, seq FROM checkpoints WHERE name IN (\(names.map { _ in "?" }.joined(separator: ",")))",
            names.map(StoreValue.text))
        return Dictionary(rows.map { ($0[0].string ?? "", $0[1].int64 ?? 0) }, uniquingKeysWith: max)
    }

    static func setCheckpoint(_ name: String, seq: Int64, in session: PostgresSession) throws {
        _ = try session.run(
            """
            INSERT INTO checkpoints (name, seq, updated) VALUES (?, ?, ?)
            ON CONFLICT (name) DO UPDATE SET seq = excluded.seq, updated = excluded.updated
            """,
            [.text(name), .integer(seq), .integer(now())])
    }

    // MARK: Tables

    public func readTables<T>(_ body: (any TableReading) throws -> T) throws -> T {
        try read { session in try body(PostgresTransaction(session: session, signer: nil)) }
    }

    public func write<T>(_ body: (any LogWriting) throws -> T) throws -> T {
        let appends = LogStatistics.Tally()
        let result = try write(.log, session: { session in
            try body(PostgresTransaction(session: session, signer: signer, appends: appends))
        })
        noteAppended(appends.events)
        return result
    }

    public func writeTables<T>(_ body: (any TableWriting) throws -> T) throws -> T {
        let statistics = TableStatistics()
        let result = try write(.tables) { session in
            try body(PostgresTransaction(session: session, signer: nil, statistics: statistics))
        }
        // The writes have committed: statistics only help the planner, which autovacuum also
        // keeps them for, so failing to refresh them must not report the write as failed.
        if statistics.mayBeStale { try? withSession { session in try statistics.refresh(in: session) } }
        return result
    }

    /// Notes `count` events appended and committed, and refreshes the planner's statistics of
    /// the log when they have grown stale. Like the tables' refresh, a failure is not the
    /// append's: it has committed.
    func noteAppended(_ count: Int) {
        if logStatistics.noteAppended(count) { try? withSession { session in try logStatistics.refresh(in: session) } }
    }

    public func discardTables(prefix: String) throws {
        try writeTables { tables in
            for name in try tables.tableNames(prefix: prefix) { try tables.drop(table: name) }
        }
    }

    public func scratchTables() throws -> any TableStore {
        try makeScratchTables()
    }
}

extension PostgresStore {
    /// Begins connecting to the server of `url` on a thread of its own, for the first store or
    /// pool of the same location this process opens to take: a command line can name its store
    /// before it is parsed. Does nothing for a URL that is not one.
    public static func beginConnecting(url: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let location = try? PostgresLocation(url: url, environment: environment) else { return }
        PostgresPreconnection.begin(location)
    }

    /// Ends the connection `beginConnecting` made if no store took it: for a process about to
    /// exit (a command refused before it opened its store).
    public static func endConnectionBegun() {
        PostgresPreconnection.endUntaken()
    }

    /// Creates the database `name` on the server `url` names (connecting to the database the
    /// URL gives, `postgres` say) unless it exists: for scripts and tests that give each store
    /// a database of its own. `name` is letters, digits and `_` only.
    public static func createDatabase(_ name: String, on url: String) throws {
        try checkDatabaseName(name)
        let pool = try PostgresConnectionPool(PostgresLocation(url: url))
        try pool.withSession { session in
            let exists = try session.rows("SELECT 1 FROM pg_database WHERE datname = ?", [.text(name)])
            if exists.isEmpty { try session.execute("CREATE DATABASE \(name)") }
        }
    }

    /// Drops the database `name` on the server of `url` (a database there to connect to), with
    /// any connection still open to it, if it exists.
    public static func dropDatabase(_ name: String, on url: String) throws {
        try checkDatabaseName(name)
        let pool = try PostgresConnectionPool(PostgresLocation(url: url))
        try pool.withSession { session in try session.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)") }
    }

    /// A name `createDatabase` and `dropDatabase` may write into SQL as it is.
    private static func checkDatabaseName(_ name: String) throws {
        guard !name.isEmpty, name.utf8.allSatisfy({ $0 == UInt8(ascii: "_") || (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) }) else {
            throw StoreError.cannotOpen(path: name, reason: "a database name of lowercase letters, digits and _ only")
        }
    }
}
