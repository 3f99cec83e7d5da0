import Foundation
import GRDB
import GRDBSQLite
import GTIOStore

extension SQLiteStore {
    /// Runs one statement that only reads, in a read-only transaction; a statement that would
    /// change anything is refused before it runs (`.writeRefused`), and SQLite's own complaint
    /// about a statement comes back as `.badSQL`. Rows are read one at a time up to the row
    /// limit, and SQLite's progress handler stops the statement on Ctrl-C or past its time.
    public func readOnlySQL(_ text: String, limits: SQLLimits) throws -> SQLAnswer {
        let watch = SQLWatch(deadline: limits.seconds.map { Date().addingTimeInterval($0) })
        do {
            return try Self.retryingWhenBusy {
                try pool.read { db in
                    let statements = try db.allStatements(sql: text)
                    guard let statement = try statements.next() else { throw StoreError.badSQL("no statement given (give one SELECT)") }
                    guard try statements.next() == nil else {
                        throw StoreError.badSQL("one statement at a time: there is more after the first ; (run each on its own)")
                    }
                    guard statement.isReadonly, !Self.changesAttachments(statement.sql) else {
                        throw StoreError.writeRefused(String(text.prefix(40)))
                    }
                    let context = Unmanaged.passUnretained(watch).toOpaque()
                    // Called every 10,000 virtual machine steps: cheap, and a few ms apart.
                    sqlite3_progress_handler(db.sqliteConnection, 10_000, { context in
                        Unmanaged<SQLWatch>.fromOpaque(context!).takeUnretainedValue().shouldStop() ? 1 : 0
                    }, context)
                    defer { sqlite3_progress_handler(db.sqliteConnection, 0, nil, nil) }
                    var rows: [[StoreValue]] = []
                    var isTruncated = false
                    let cursor = try Row.fetchCursor(statement)
                    while let row = try cursor.next() {
                        if let limit = limits.rows, rows.count == limit {
                            isTruncated = true
                            break
                        }
                        rows.append(row.databaseValues.map(StoreValue.init))
                    }
                    return SQLAnswer(columns: statement.columnNames, rows: rows, isTruncated: isTruncated)
                }
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT {
            if watch.timedOut, let seconds = limits.seconds { throw StoreError.sqlTimedOut(seconds: seconds) }
            throw StoreError.interrupted
        } catch let error as DatabaseError {
            throw StoreError.badSQL(error.message ?? "\(error)")
        }
    }
}

extension SQLiteStore {
    /// Whether `sql` is an ATTACH or DETACH, which SQLite counts as read-only (they change no
    /// file) but which would detach the tables from a connection the process goes on using, or
    /// open any file beside the store.
    static func changesAttachments(_ sql: String) -> Bool {
        var rest = Substring(sql)
        while true {
            rest = rest.drop { $0.isWhitespace }
            if rest.hasPrefix("--") {
                rest = rest.drop { $0 != "\n" }
            } else if rest.hasPrefix("/*") {
                guard let end = rest.range(of: "*/") else { return false }
                rest = rest[end.upperBound...]
            } else {
                break
            }
        }
        let word = rest.prefix { $0.isLetter }.uppercased()
        return word == "ATTACH" || word == "DETACH"
    }
}

/// What the progress handler of one statement checks: Ctrl-C, and its deadline.
private final class SQLWatch {
    let deadline: Date?
    private(set) var timedOut = false

    init(deadline: Date?) { self.deadline = deadline }

    func shouldStop() -> Bool {
        if Interruption.isRequested { return true }
        if let deadline, Date() > deadline {
            timedOut = true
            return true
        }
        return false
    }
}
