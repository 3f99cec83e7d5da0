import Foundation
import GTIOStore
import GTIOStorePostgres
import GTIOStoreSQLite

/// A backend the shared store suite runs against: how to open a store that lives in a test's
/// temporary folder. Opening twice in one folder opens the same store.
public struct StoreBackend: Sendable, CustomStringConvertible {
    public let name: String
    private let opener: @Sendable (TemporaryDirectory, BatchSigner?) throws -> any EventStore
    /// What `--store` takes for the store of a folder: a file path, or a database's URL.
    private let locator: @Sendable (TemporaryDirectory) throws -> String

    /// The store in `folder`, signing what it appends with `signer` when given.
    public func open(in folder: TemporaryDirectory, signer: BatchSigner? = nil) throws -> any EventStore {
        try opener(folder, signer)
    }

    /// The `--store` argument naming the store of `folder`, for tests that run `gtio`.
    public func location(in folder: TemporaryDirectory) throws -> String {
        try locator(folder)
    }

    public var description: String { name }

    /// Changes `store` with raw SQL, past its API, as someone who can write its file or its
    /// database would: the `sqlite` or the `postgres` statements by the store's backend.
    public func tamper(_ store: any EventStore, sqlite: [String], postgres: [String]) throws {
        switch store {
        case let file as SQLiteStore: try file.executeUnchecked(sqlite)
        case let database as PostgresStore: try database.executeUnchecked(postgres)
        default: preconditionFailure("no raw SQL for \(type(of: store))")
        }
    }

    /// `store.verify()` reading `pageSize` rows at a time where the backend reads in pages
    /// (PostgreSQL); SQLite walks its tables with cursors and has no pages to size.
    public func verify(_ store: any EventStore, pageSize: Int) throws -> LogVerdict {
        switch store {
        case let database as PostgresStore: try database.verify(LogAudit(), pageSize: pageSize)
        default: try store.verify()
        }
    }

    /// `store.scan()` reading windows of `pageSize` seqs where the backend reads in pages
    /// (PostgreSQL); SQLite steps one cursor through the log and has no pages to size.
    public func scan(_ store: any EventStore, _ scope: LogScope, pageSize: Int) throws -> [LogRecord] {
        var records: [LogRecord] = []
        switch store {
        case let database as PostgresStore: try database.scan(scope, pageSize: pageSize) { records.append($0) }
        default: try store.scan(scope) { records.append($0) }
        }
        return records
    }

    /// The embedded SQLite file.
    public static let sqlite = StoreBackend(
        name: "SQLite",
        opener: { folder, signer in try SQLiteStore(path: folder.file("log.gtio"), signer: signer) },
        locator: { folder in folder.file("log.gtio") })

    /// The PostgreSQL server `GTIO_TEST_POSTGRES` names (a URL of a database the tests may
    /// create databases from, such as postgresql://postgres@127.0.0.1:54329/postgres): each
    /// folder gets a database of its own, named as it is.
    public static let postgres = StoreBackend(
        name: "PostgreSQL",
        opener: { folder, signer in
            try PostgresStore(url: try postgresURL(folder), signer: signer, scratchTables: { try SQLiteStore.memoryTables() })
        },
        locator: { folder in try postgresURL(folder) })

    /// `psql`, for what a test does as an operator would (Debian's wrapper, or the server's own).
    public static var psql: String? {
        (["/usr/bin/psql"] + ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
            .map { "/usr/lib/postgresql/\($0)/bin/psql" })
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The server the PostgreSQL backend's tests use, nil when none is configured.
    public static var postgresServer: String? {
        ProcessInfo.processInfo.environment["GTIO_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The URL of the database of `folder`, created on first use.
    private static func postgresURL(_ folder: TemporaryDirectory) throws -> String {
        guard let server = postgresServer, var components = URLComponents(string: server) else {
            throw StoreError.cannotOpen(path: "GTIO_TEST_POSTGRES", reason: "not set")
        }
        // The folder's own name (`gtio-test-` and 8 hex digits) is unique already.
        let name = databaseName(of: folder.path)
        try PostgresStore.createDatabase(name, on: server)
        createdDatabases.insert(name)
        components.path = "/" + name
        return components.string!
    }

    /// The database of the folder at `path`.
    private static func databaseName(of path: String) -> String {
        (path as NSString).lastPathComponent.replacingOccurrences(of: "-", with: "_")
    }

    /// The databases this run created, each dropped with its folder: a server kept between runs
    /// (`scripts/pg-local.sh`) would otherwise gain a hundred databases, ~2.5 GB, a run.
    private static let createdDatabases = NameSet()

    /// Drops the database of the folder at `path` if this run created one.
    static func dropDatabase(ofFolder path: String) {
        let name = databaseName(of: path)
        guard let server = postgresServer, createdDatabases.remove(name) else { return }
        try? PostgresStore.dropDatabase(name, on: server)
    }

    /// Every backend this run has: SQLite always, PostgreSQL when `GTIO_TEST_POSTGRES` names a
    /// server (`.ci/run` starts one and sets it).
    public static let all: [StoreBackend] = postgresServer == nil ? [.sqlite] : [.sqlite, .postgres]
}

/// A set of names that any thread may change.
private final class NameSet: @unchecked Sendable {
    // @unchecked: `names` is only touched while holding `lock`.
    private let lock = NSLock()
    private var names: Set<String> = []

    func insert(_ name: String) {
        lock.lock()
        names.insert(name)
        lock.unlock()
    }

    /// Whether `name` was there.
    func remove(_ name: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return names.remove(name) != nil
    }
}
