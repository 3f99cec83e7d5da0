import GRDB
import GTIOStore
import GRDBSQLite

/// Binds and steps a prepared statement through the SQLite C API.
///
/// Used where statements run by the thousand: ingest's appends, rebuilt read-model tables and
/// the rows a catch-up rewrites, where GRDB's `StatementArguments` path is markedly slower
/// (docs/PERFORMANCE.md).
///
/// The statement may be one of GRDB's cached ones that GRDB itself last ran: GRDB leaves a
/// statement stepped to its end and resets it only before its own next run, and SQLite refuses
/// to bind a statement in that state (`SQLITE_MISUSE`), so the step would run with whatever
/// was bound before, or NULLs. Hence the reset on wrapping, a check of every bind, and
/// bindings cleared after each step (static text must not outlive its buffer).
public struct SQLiteStatementBinding {
    public let statement: Statement
    private var handle: OpaquePointer { statement.sqliteStatement }

    // SQLite copies transient text before bind returns, so Swift's buffers may move after.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    // SQLite reads static text in place: the caller keeps it alive until the step is done.
    private static let `static` = unsafeBitCast(0, to: sqlite3_destructor_type.self)
    private static let emptyText: StaticString = ""

    public init(_ statement: Statement) {
        self.statement = statement
        sqlite3_reset(statement.sqliteStatement)
    }

    /// A bind that SQLite refused would leave the previous value in place: a programming error
    /// (a statement not reset, an index out of range), never the data's.
    private func check(_ code: Int32, _ index: Int32) {
        precondition(code == SQLITE_OK, "binding parameter \(index) of \(statement.sql) failed: SQLite code \(code)")
    }

    func bind(_ index: Int32, _ text: String?) {
        guard var text else {
            check(sqlite3_bind_null(handle, index), index)
            return
        }
        text.withUTF8 { bytes in
            // An empty buffer may have no address, and a null pointer would bind NULL, not ''.
            let pointer = bytes.baseAddress.map { UnsafeRawPointer($0) } ?? UnsafeRawPointer(Self.emptyText.utf8Start)
            check(sqlite3_bind_text(handle, index, pointer.assumingMemoryBound(to: CChar.self), Int32(bytes.count), Self.transient), index)
        }
    }

    func bind(_ index: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            let pointer = buffer.baseAddress ?? UnsafeRawPointer(Self.emptyText.utf8Start)
            check(sqlite3_bind_blob(handle, index, pointer, Int32(buffer.count), Self.transient), index)
        }
    }

    func bind(_ index: Int32, _ value: StoreValue) {
        switch value {
        case .null: bindNull(index)
        case .integer(let integer): bind(index, integer)
        case .real(let number): bind(index, number)
        case .text(let text): bind(index, text)
        case .blob(let bytes): bind(index, bytes)
        }
    }

    /// Binds `values` to the parameters from the first on.
    func bind(_ values: [StoreValue]) {
        for (offset, value) in values.enumerated() { bind(Int32(offset + 1), value) }
    }

    func bindNull(_ index: Int32) {
        check(sqlite3_bind_null(handle, index), index)
    }

    /// Binds text that stays where it is until the statement has stepped (no copy).
    func bindStatic(_ index: Int32, text: UnsafeBufferPointer<UInt8>) {
        // An empty buffer may have no address, and a null pointer would bind NULL, not ''.
        let pointer = text.baseAddress.map { UnsafeRawPointer($0) } ?? UnsafeRawPointer(Self.emptyText.utf8Start)
        check(sqlite3_bind_text(handle, index, pointer.assumingMemoryBound(to: CChar.self), Int32(text.count), Self.static), index)
    }

    func bind(_ index: Int32, _ integer: Int64?) {
        guard let integer else {
            check(sqlite3_bind_null(handle, index), index)
            return
        }
        check(sqlite3_bind_int64(handle, index, integer), index)
    }

    func bind(_ index: Int32, _ number: Double?) {
        guard let number else {
            check(sqlite3_bind_null(handle, index), index)
            return
        }
        check(sqlite3_bind_double(handle, index, number), index)
    }

    /// Whether the statement (a query) gives a row; resets it and clears its bindings.
    func hasRow(_ db: Database) throws -> Bool {
        var found = false
        try forEachRow(db) { _ in
            found = true
            return false
        }
        return found
    }

    /// Runs the statement to completion, resets it and clears its bindings, and returns how
    /// many rows it changed.
    @discardableResult
    func step(_ db: Database) throws -> Int {
        var gaveRow = false
        try forEachRow(db) { _ in
            gaveRow = true
            return false
        }
        guard !gaveRow else {
            throw DatabaseError(resultCode: ResultCode(rawValue: SQLITE_ROW), message: "a statement run for its changes gave a row", sql: statement.sql)
        }
        return Int(sqlite3_changes(db.sqliteConnection))
    }

    /// Steps the statement, handing `body` each row's statement handle (to read its columns)
    /// until `body` says false or the rows end; then resets it and clears its bindings.
    func forEachRow(_ db: Database, _ body: (OpaquePointer) throws -> Bool) throws {
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else {
                let message = String(cString: sqlite3_errmsg(db.sqliteConnection))
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: statement.sql)
            }
            guard try body(handle) else { return }
        }
    }
}
