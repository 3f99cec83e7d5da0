import Foundation
import GRDB
import GTIOStore

/// The embedded event store: one SQLite file in WAL mode for the log, append-only by its own
/// triggers, and a second beside it for the read models' tables (`TablesFile`).
public final class SQLiteStore: EventLog, TableStore, SQLReading {
    /// The store file's absolute path.
    public let path: String
    /// The log's connections, which see the tables file too (attached read-only as `tables`):
    /// for this backend and its tests only.
    public let pool: DatabasePool
    /// The tables file's writer; nil in a process that opened the store only to read it.
    let tablesWriter: DatabasePool?

    public var location: String { path }

    /// The tables file's absolute path: `path` followed by `-tables`.
    public var tablesPath: String { TablesFile.path(ofStore: path) }

    /// Whether this process opened the store only to read it.
    public let isReadOnly: Bool

    /// The log is read in this process: reading back what was just appended is about as quick
    /// as keying it from memory, without holding it (docs/PERFORMANCE.md).
    public var readsThroughAServer: Bool { false }

    /// Signs the head of every batch this process appends, when given.
    public let signer: BatchSigner?

    /// The ids of the newest events, which the dedup index does not hold yet (`RecentIDs`).
    let recentIDs = RecentIDs()

    /// Opens the store at `path`, creating it (and its tables) when the file does not exist.
    /// `readOnly` opens an existing store without ever writing to it, not even to migrate it:
    /// a missing file is `.missing`, and a store whose schema is older than this build's
    /// is `.needsUpgrade` (a writable open upgrades it).
    /// `signer` signs each batch this process appends (see `BatchSigner`). `upgrading` hears
    /// the migrations a writable open is about to run on a store an older gtio made, before they
    /// run: some read the whole log, once, and a person waiting should know why.
    public init(
        path: String, readOnly: Bool = false, signer: BatchSigner? = nil, upgrading: (_ migrations: [String]) -> Void = { _ in }
    ) throws(StoreError) {
        // Through a symbolic link, the real file: the tables' file and the lock files are named
        // after the store's, and one store must not get a second set beside each link to it
        // (SQLite itself puts the write-ahead log beside the real file).
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        let tablesPath = TablesFile.path(ofStore: absolute)
        self.path = absolute
        self.isReadOnly = readOnly
        self.signer = signer
        if readOnly, !FileManager.default.fileExists(atPath: absolute) { throw .missing(path: absolute) }
        // Checking, creating and migrating happen under a lock on the file, so that processes
        // opening a new store at once see it either absent or complete.
        let lock = OpeningLock(path: absolute, exclusive: !readOnly)
        defer { lock.release() }
        // An empty file is no store yet either (SQLite would take it for an empty database): a
        // reader must not make one of it. Asked under the lock, since a writer making a store
        // creates the file empty and fills it while holding the lock.
        if readOnly, (FileSize.of(absolute) ?? 0) == 0 {
            throw .missing(path: absolute)
        }
        try Self.checkBeforeOpening(absolute, readOnly: readOnly)
        // A store from before the tables had a file of their own is upgraded by a writer.
        if readOnly, !FileManager.default.fileExists(atPath: tablesPath) { throw .needsUpgrade(path: absolute) }
        try Self.checkBeforeOpening(tablesPath, expectingTables: true)

        var configuration = Self.configuration(readOnly: readOnly)
        configuration.prepareDatabase { db in
            guard !Self.isIdleWriter(db) else { return }
            try db.execute(sql: "ATTACH DATABASE ? AS \(TablesFile.schema)", arguments: [TablesFile.attachURI(tablesPath)])
        }
        do {
            // The tables file first: the log's connections attach it as they open.
            tablesWriter = readOnly ? nil : try Self.retryingWhenBusy {
                let writer = try DatabasePool(
                    path: tablesPath, configuration: Self.configuration(readOnly: false, writerCacheKiB: 8192, pageSize: TablesFile.pageSize))
                let pending = try writer.read { try Self.pendingUpgrade(TablesFile.migrator, $0) }
                if !pending.isEmpty { upgrading(pending) }
                try TablesFile.migrator.migrate(writer)
                return writer
            }
            pool = try Self.retryingWhenBusy { try DatabasePool(path: absolute, configuration: configuration) }
            let current = try Self.retryingWhenBusy { try pool.read { try StoreSchema.migrator.hasCompletedMigrations($0) } }
            if let tablesWriter, !current {
                let pending = try pool.read { try Self.pendingUpgrade(StoreSchema.migrator, $0) }
                if !pending.isEmpty { upgrading(pending) }
                // What an older store kept beside its log moves before the log's migration drops it.
                try TablesFile.moveLegacyTables(from: absolute, into: tablesWriter)
                try Self.retryingWhenBusy { try StoreSchema.migrator.migrate(pool) }
            } else if !current {
                throw StoreError.needsUpgrade(path: absolute)
            } else if tablesWriter != nil, try Self.retryingWhenBusy({ try pool.read { try StoreSchema.migrator.hasBeenSuperseded($0) } }) {
                // A newer gtio's log may keep more beside each event (a column this build
                // would leave empty): this one reads it, but must not append to it.
                throw StoreError.newerStore(path: absolute)
            }
            try Self.retryingWhenBusy {
                try pool.read { db in try TablesFile.checkBelongs(to: absolute, reading: db, writer: tablesWriter) }
            }
        } catch let error as DatabaseError {
            if readOnly, let missing = Self.writeAheadFilesMissing(absolute, tablesPath) {
                throw .writeAheadFilesMissing(path: absolute, folder: (absolute as NSString).deletingLastPathComponent, files: missing)
            }
            throw Self.translate(error, path: absolute)
        } catch let error as StoreError {
            throw error
        } catch {
            throw .cannotOpen(path: absolute, reason: "\(error)")
        }
    }

    /// The names of the `-wal` and `-shm` files missing beside `paths` (files of one folder)
    /// when this user may not create files in that folder, nil when none is missing or it may:
    /// SQLite cannot read a database in write-ahead mode without them.
    private static func writeAheadFilesMissing(_ paths: String...) -> [String]? {
        let manager = FileManager.default
        guard let first = paths.first, !manager.isWritableFile(atPath: (first as NSString).deletingLastPathComponent) else { return nil }
        let missing = paths.flatMap { path in ["-wal", "-shm"].map { path + $0 } }.filter { !manager.fileExists(atPath: $0) }
        return missing.isEmpty ? nil : missing.map { ($0 as NSString).lastPathComponent }
    }

    /// The migrations of `migrator` not yet applied to a database that has some: an upgrade.
    /// None for a new database, whose migrations make it. Asked of `main` by name: the log's
    /// connections attach the tables' file, whose own `grdb_migrations` an unqualified name
    /// would find in a new log.
    private static func pendingUpgrade(_ migrator: DatabaseMigrator, _ db: Database) throws -> [String] {
        guard try db.tableExists("grdb_migrations", in: "main") else { return [] }
        let applied = try String.fetchSet(db, sql: "SELECT identifier FROM main.grdb_migrations")
        return applied.isEmpty ? [] : migrator.migrations.filter { !applied.contains($0) }
    }

    /// Whether `db` is the writer's connection of a read-only pool. A pool always opens one,
    /// which a read-only pool never uses (its reads go to its readers): it is left bare, neither
    /// attached nor set up, as each would make SQLite read and parse a file's whole schema
    /// (docs/PERFORMANCE.md).
    private static func isIdleWriter(_ db: Database) -> Bool {
        db.configuration.readonly && db.description.hasSuffix(".writer")
    }

    /// The page cache of the log's writer, in KiB.
    static let logWriterCacheKiB = 32768

    /// How each of the store's files is opened; `writerCacheKiB` is its writer's page cache, and
    /// `pageSize` the size of its pages when the writer creates the file (SQLite's own otherwise).
    private static func configuration(readOnly: Bool, writerCacheKiB: Int = logWriterCacheKiB, pageSize: Int? = nil) -> Configuration {
        SQLiteLibrary.configure()
        var configuration = Configuration()
        // Two ingests on one store take turns per batch; a batch commits in well under a
        // second, so five minutes only runs out when another process hangs holding the lock.
        configuration.busyMode = .timeout(300)
        configuration.readonly = readOnly
        configuration.prepareDatabase { db in
            guard !isIdleWriter(db) else { return }
            // FULL makes each committed batch durable against power loss, at one fsync per batch.
            try db.execute(sql: "PRAGMA synchronous = FULL")
            // The log's writer keeps a 32 MB page cache: the id B-tree of a large log outgrows
            // SQLite's default 2 MB, and dedup lookups would read its pages from the file over
            // and over (a collector's writer keeps less: `WALCheckpointer`). The tables' writer
            // keeps 8 MB (as fast as 32 in `gtio serve` and `ingest`, and a server stays well
            // under its memory bound). Readers keep the default: their big reads are scans of
            // the log, which gain nothing from a cache they fill once (docs/PERFORMANCE.md).
            if !db.configuration.readonly { try db.execute(sql: "PRAGMA cache_size = -\(writerCacheKiB)") }
            // Before GRDB turns on WAL: a file's page size is fixed once it is in WAL mode, so
            // this sets it for a new file and changes nothing in an existing one.
            if let pageSize, !db.configuration.readonly { try db.execute(sql: "PRAGMA page_size = \(pageSize)") }
        }
        return configuration
    }

    /// Refuses, before SQLite touches the file, a missing folder, a file that is not SQLite,
    /// and an SQLite database that is not a GTIO store (opening it as a pool would switch it to WAL).
    private static func checkBeforeOpening(_ path: String, expectingTables: Bool = false, readOnly: Bool = false) throws(StoreError) {
        let manager = FileManager.default
        let folder = (path as NSString).deletingLastPathComponent
        var isFolder: ObjCBool = false
        guard manager.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw .folderMissing(path: path, folder: folder)
        }
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
            guard manager.isWritableFile(atPath: folder) else { throw .readOnly(path: path) }
            return
        }
        if isDirectory.boolValue { throw .isAFolder(path: path) }
        // Read through the process's one descriptor of the file: closing another would drop the
        // locks of this process's open connections to it (`StoreFiles`).
        guard let header = StoreFiles.header(path, count: 72) else {
            throw .cannotOpen(path: path, reason: "the file cannot be read (check its permissions)")
        }
        if header.isEmpty { return }
        guard header.prefix(16).elementsEqual("SQLite format 3\0".utf8) else { throw .notADatabase(path: path) }
        // The application id, which SQLite keeps at byte 68 of the file, is all the tables'
        // file and a reader need: then no connection is opened here (each costs a one-shot
        // query ~1 ms, its schema parsed). A reader given the tables' file for the store finds
        // no tables' file beside it, or a log's migrations missing, and the writable open it
        // then tries asks the long way below, before it changes anything. A file whose first
        // page still waits in the write-ahead log may not show the id yet: asked the long way.
        if expectingTables || readOnly, header.count == 72,
           header[68..<72].reduce(0, { $0 << 8 | Int32($1) }) == StoreSchema.applicationID {
            return
        }

        SQLiteLibrary.configure()
        var configuration = Configuration()
        configuration.readonly = true
        // The probe waits like the store does: without a busy timeout it failed at once with
        // "database is locked" while another process was writing (the two-moderators race in CI).
        configuration.busyMode = .timeout(300)
        do {
            let (applicationID, tables, isTablesFile) = try retryingWhenBusy {
                let probe = try DatabaseQueue(path: path, configuration: configuration)
                defer { try? probe.close() }
                return try probe.read { db in
                    (try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0,
                     try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") ?? 0,
                     // The read models' file carries the stores' application id too; unlike a
                     // log's file, old or new, it has checkpoints but no events.
                     try Bool.fetchOne(db, sql: """
                         SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE name = 'checkpoints')
                            AND NOT EXISTS (SELECT 1 FROM sqlite_master WHERE name = 'events')
                         """) ?? false)
                }
            }
            if applicationID != StoreSchema.applicationID && tables > 0 { throw StoreError.notAGTIOStore(path: path) }
            if applicationID == StoreSchema.applicationID && isTablesFile && !expectingTables {
                throw StoreError.tablesFileGiven(path: path)
            }
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError {
            throw translate(error, path: path)
        } catch {
            throw .cannotOpen(path: path, reason: "\(error)")
        }
    }

    static func translate(_ error: DatabaseError, path: String) -> StoreError {
        switch error.resultCode {
        case .SQLITE_NOTADB: .notADatabase(path: path)
        case .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM: .readOnly(path: path)
        case .SQLITE_FULL: .diskFull(path: path)
        case .SQLITE_CORRUPT: .damaged(path: path)
        case .SQLITE_IOERR where error.extendedResultCode == .SQLITE_IOERR_WRITE: .diskFull(path: path)
        default:
            if error.message?.contains("superseded") == true { .newerStore(path: path) }
            else { .database(error.message ?? "\(error)") }
        }
    }

    /// Runs `statements` in one write transaction as they are, past every check of the store's
    /// API: for this backend's tests of what `verify` catches when someone changes the file.
    package func executeUnchecked(_ statements: [String]) throws {
        try writeDatabase { db in for sql in statements { try db.execute(sql: sql) } }
    }

    /// Runs `body` in a write transaction, turning SQLite errors into store errors. The whole
    /// transaction is run again when SQLite answers "busy" without waiting (see below).
    public func writeDatabase<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try Self.retryingWhenBusy { try pool.write(body) }
        } catch let error as DatabaseError {
            throw Self.translate(error, path: path)
        }
    }

    /// Runs `body` in a write transaction of the tables file (the read models' writers take
    /// turns there, apart from the log's), turning SQLite errors into store errors.
    func writeTablesDatabase<T>(_ body: (Database) throws -> T) throws -> T {
        guard let tablesWriter else { throw StoreError.readOnly(path: path) }
        do {
            return try Self.retryingWhenBusy { try tablesWriter.write(body) }
        } catch let error as DatabaseError {
            throw Self.translate(error, path: tablesPath)
        }
    }

    /// Runs `body` on a read-only snapshot, turning SQLite errors into store errors.
    public func readDatabase<T>(_ body: (Database) throws -> T) throws -> T {
        try readDatabase(naming: path, body)
    }

    /// `readDatabase`, whose errors name `file`: the tables file when `body` reads the read
    /// models, so that a damaged page is blamed on the file that holds it.
    func readDatabase<T>(naming file: String, _ body: (Database) throws -> T) throws -> T {
        do {
            return try Self.retryingWhenBusy { try pool.read(body) }
        } catch let error as DatabaseError {
            throw Self.translate(error, path: file)
        }
    }

    /// Runs `body` again, a few times with a short pause, while it fails with SQLITE_BUSY. The
    /// busy timeout covers ordinary waits; SQLite still answers busy at once in a few WAL cases
    /// (a snapshot gone stale, a process closing the last connection while another opens), and
    /// for those the remedy is a fresh transaction. Seen in the two-moderators race test.
    static func retryingWhenBusy<T>(_ body: () throws -> T) throws -> T {
        // Until a deadline rather than a number of tries: what makes SQLite answer busy at once
        // (another process checkpointing its WAL as it closes, say) lasts as long as that work,
        // which on a loaded CI machine outlasted 20 tries (~1 s in all).
        let deadline = Date().addingTimeInterval(30)
        var attempt = 0
        while true {
            do {
                return try body()
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && Date() < deadline {
                attempt += 1
                Thread.sleep(forTimeInterval: min(0.05, 0.005 * Double(attempt)))
            }
        }
    }

    /// Copies the write-ahead log back into the file and empties it, if no reader is in the way.
    /// Writers call it after large writes: processes end without closing their connections, and
    /// the next one to open the store would otherwise rebuild its index of a large WAL file.
    public func settle() {
        guard !isReadOnly else { return }
        _ = try? pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        _ = try? tablesWriter?.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
    }

    /// The log's checkpoints, on a thread and connection of their own (`WALCheckpointer`).
    public func startUpkeepAside() throws -> (any LogUpkeep)? {
        guard !isReadOnly else { throw StoreError.readOnly(path: path) }
        do {
            return try WALCheckpointer(path: path, writer: pool, recentIDs: recentIDs)
        } catch let error as DatabaseError {
            throw Self.translate(error, path: path)
        }
    }

    static func now() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }

    public func lastSeq() throws -> Int64 {
        try readDatabase { db in try Int64.fetchOne(db, sql: "SELECT IFNULL(MAX(seq), 0) FROM events") ?? 0 }
    }

    /// Several consumers' checkpoints in one read; names never checkpointed are left out.
    public func checkpoints(named names: [String]) throws -> [String: Int64] {
        try readDatabase { db in try Self.checkpoints(named: names, in: db) }
    }

    /// Several consumers' checkpoints, inside the caller's transaction.
    static func checkpoints(named names: [String], in db: Database) throws -> [String: Int64] {
        let rows = try Row.fetchAll(
            db, sql: "SELECT name, seq FROM checkpoints WHERE name IN (\(names.map { _ in "?" }.joined(separator: ",")))",
            arguments: StatementArguments(names))
        return Dictionary(rows.map { ($0[0] as String, $0[1] as Int64) }, uniquingKeysWith: max)
    }

    /// Records that consumer `name` has applied the log through `seq`, on a connection of the
    /// tables file. Read models call this inside the transaction that writes their own tables,
    /// so both commit or neither does.
    static func setCheckpoint(_ db: Database, name: String, seq: Int64) throws {
        try db.execute(
            sql: """
                INSERT INTO checkpoints (name, seq, updated) VALUES (?, ?, ?)
                ON CONFLICT (name) DO UPDATE SET seq = excluded.seq, updated = excluded.updated
                """,
            arguments: [name, seq, now()])
    }
}
