/// What went wrong opening or using a store, in words for the person at the console.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    case folderMissing(path: String, folder: String)
    /// A command that only reads found no store at the path.
    case missing(path: String)
    /// The server a PostgreSQL URL names has no database of that name.
    case noDatabase(path: String, database: String)
    /// A read-only open found a store from an older gtio, which a writing command upgrades.
    case needsUpgrade(path: String)
    case notADatabase(path: String)
    /// The path names a folder, not a store file.
    case isAFolder(path: String)
    case notAGTIOStore(path: String)
    /// The path names the read models' file beside a store's log, not the store.
    case tablesFileGiven(path: String)
    case newerStore(path: String)
    case cannotOpen(path: String, reason: String)
    case readOnly(path: String)
    /// A reader found the store without write-ahead files (`-wal`, `-shm`) that SQLite needs
    /// to read it, in a folder where it may not create them: `files`, by name.
    case writeAheadFilesMissing(path: String, folder: String, files: [String])
    /// The server refused a write to this role (PostgreSQL's reader role, or grants that miss a table).
    case permissionDenied(path: String, reason: String)
    /// What was asked changes the log's tables themselves, which only their owner may (`what`, in words).
    case ownerOnly(path: String, what: String, reason: String)
    /// The server went away under a statement (a restart, a lost connection): trying again may work.
    case unavailable(path: String, reason: String)
    /// The read models' file beside an SQLite store's log belongs to another log.
    case foreignTables(path: String, tables: String, reason: String)
    /// SQLite found a damaged page in the file.
    case damaged(path: String)
    /// The disk (or a file size limit) stopped a write: the transaction was rolled back.
    case diskFull(path: String)
    case database(String)
    /// `sql` was given a statement that would change the store.
    case writeRefused(String)
    /// SQLite refused a statement given to `sql`: its message.
    case badSQL(String)
    case interrupted
    /// A `sql` statement ran past its time limit.
    case sqlTimedOut(seconds: Double)
    /// `gtio copy` found a batch that does not continue the destination's log.
    case notAContinuation(path: String, reason: String)
    /// SQLite answered busy after a scan had handed events over: starting over would hand them twice.
    case busyMidScan

    public var description: String {
        switch self {
        case .folderMissing(let path, let folder):
            "cannot create the store \(path): the folder \(folder) does not exist (create it, or pass --store with an existing folder)"
        case .missing(let path):
            "no store at \(path) (check --store or GTIO_STORE; gtio ingest FILE creates one)"
        case .noDatabase(let path, let database):
            "no database \(database) on the server of \(path) (check --store or GTIO_STORE; a store lives in a database its operator made, with createdb \(database), in which gtio ingest FILE then makes the store)"
        case .needsUpgrade(let path):
            "the store \(path) was written by an older gtio and must be upgraded by a command that writes (gtio rebuild, or any ingest)"
        case .notADatabase(let path):
            "\(path) is not a GTIO store: it is not an SQLite database (pass --store with a .gtio file, or a new path to create one)"
        case .isAFolder(let path):
            "\(path) is a folder; a store is a file (pass --store with a file path, such as \(path)/events.gtio)"
        case .notAGTIOStore(let path):
            "\(path) is an SQLite database but not a GTIO store (pass --store with a .gtio file, or a new path to create one)"
        case .tablesFileGiven(let path):
            "\(path) is the read models' file beside a store, not a store (pass --store with the store's own file\(path.hasSuffix("-tables") ? ", " + path.dropLast("-tables".count) : ""))"
        case .newerStore(let path):
            "\(path) was written by a newer gtio; upgrade gtio to open it"
        case .cannotOpen(let path, let reason):
            "cannot open the store \(path): \(reason)"
        case .foreignTables(let path, let tables, let reason):
            "the read models in \(tables) do not belong to the log in \(path): \(reason). Move \(tables) away and run the command again: the read models are rebuilt from the log (saved insights and access keys, kept in the same file, stay with the store it came from)"
        case .readOnly(let path):
            "cannot write to the store \(path): it or its folder is read-only (pass --store with a writable path)"
        case .writeAheadFilesMissing(let path, let folder, let files):
            "cannot read the store \(path): SQLite needs \(files.joined(separator: ", ")) beside it to read it, and this user may not create them in \(folder) (run any gtio command on the store once as a user who may write there, which leaves them; or copy the store into a folder you can write)"
        case .unavailable(let path, let reason):
            "the store \(path) did not answer: \(reason) (the server may be restarting: run the command again shortly)"
        case .permissionDenied(let path, let reason):
            "cannot write to the store \(path): \(reason) (this role may not write there: writers connect as the writer role, with the grants gtio pg roles prints, run by the store's owner)"
        case .ownerOnly(let path, let what, let reason):
            "cannot \(what) in \(path): \(reason) (only the owner of the log's tables may: connect as the role that created the store)"
        case .damaged(let path):
            "the store file \(path) is damaged (SQLite reports a malformed page): gtio verify says whether the log is hit; damaged read models are dropped and rebuilt by gtio rebuild"
        case .diskFull(let path):
            "the disk holding \(path) is full (or a file size limit was reached): what was being written was rolled back, what was committed before stays; free space and run the same command again (an ingest skips the events it already appended)"
        case .database(let message):
            "store error: \(message)"
        case .writeRefused(let statement):
            "sql is read-only: \"\(statement)\" would change the store (use SELECT)"
        case .badSQL(let message):
            "sql: \(message)"
        case .interrupted:
            "interrupted"
        case .sqlTimedOut(let seconds):
            "sql: stopped after \(seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)) s (narrow the statement with WHERE or LIMIT, or give it longer with --timeout)"
        case .notAContinuation(let path, let reason):
            "cannot copy into \(path): \(reason)"
        case .busyMidScan:
            "another process kept the store busy in the middle of reading the log; run the command again"
        }
    }

    /// Whether the store refused this process a write it may still read around: a read-only
    /// file, or a server role without the rights (queries then answer from a fold in memory).
    public var refusesWrites: Bool {
        switch self {
        case .readOnly, .permissionDenied: true
        default: false
        }
    }

    /// Whether a write failed for want of room: a full disk, or a file size limit reached.
    public var isDiskFull: Bool {
        if case .diskFull = self { return true }
        return false
    }

    /// Whether the store could not be reached, so that trying again later may work: a server
    /// that went away under a statement, or one that could not be connected to.
    public var isUnavailable: Bool {
        switch self {
        case .unavailable, .cannotOpen: true
        default: false
        }
    }

    /// Whether the person named a wrong store (usage, exit 2) rather than the system failing (exit 1).
    public var isUsageError: Bool {
        switch self {
        case .folderMissing, .missing, .noDatabase, .notADatabase, .isAFolder, .notAGTIOStore, .tablesFileGiven, .writeRefused, .badSQL: true
        default: false
        }
    }
}
