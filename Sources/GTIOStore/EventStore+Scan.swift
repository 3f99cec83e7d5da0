import Foundation
import GRDB
import GRDBSQLite
import GTIOCatalog

extension EventStore {
    /// Scans on a second thread and hands `body` chunks of records on this one, so that reading
    /// SQLite and folding overlap (a rebuild reads ~1.7 M events/s). `prepare` runs on the
    /// scanning thread before a record is handed over: work moved off the folding thread.
    public func scanInParallel(
        _ scope: LogScope, chunk: Int = 4096, prepare: @escaping @Sendable (inout LogRecord) -> Void = { _ in },
        _ body: ([LogRecord]) throws -> Void
    ) throws {
        let channel = BatchChannel<Result<[LogRecord], StoreError>>(capacity: 8)
        let producer = Thread { [self] in
            defer { channel.close() }
            var pending: [LogRecord] = []
            pending.reserveCapacity(chunk)
            do {
                try scan(scope) { record in
                    pending.append(record)
                    prepare(&pending[pending.count - 1])
                    if pending.count == chunk {
                        guard channel.send(.success(pending)) else { throw CancellationError() }
                        pending.removeAll(keepingCapacity: true)
                    }
                }
                if !pending.isEmpty { _ = channel.send(.success(pending)) }
            } catch let error as StoreError {
                _ = channel.send(.failure(error))
            } catch is CancellationError {
            } catch {
                _ = channel.send(.failure(.database("\(error)")))
            }
        }
        producer.start()
        do {
            while let item = channel.receive() { try body(try item.get()) }
        } catch {
            channel.cancel()
            throw error
        }
    }

    /// Reads the typed columns of the events in `scope`, in `seq` order, straight from the
    /// C API: a rebuild reads the whole log, and GRDB's `Row` costs ≈ 3× the C calls here.
    public func scan(_ scope: LogScope, _ body: (LogRecord) throws -> Void) throws {
        try read { db in try Self.scan(scope, in: db, body) }
    }

    /// Steps a raw statement: true with a row ready, false when done, throwing SQLite's error.
    static func nextRow(_ handle: OpaquePointer, in db: Database) throws -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_DONE { return false }
        guard code == SQLITE_ROW else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
        }
        return true
    }

    /// The same scan on a connection the caller holds, e.g. inside a write transaction.
    public static func scan(_ scope: LogScope, in db: Database, _ body: (LogRecord) throws -> Void) throws {
        var sql = "SELECT seq, type, at, user, device, subject, object, value, flag, text FROM events WHERE seq > ?"
        if scope.throughSeq != nil { sql += " AND seq <= ?" }
        if scope.atMost != nil { sql += " AND at <= ?" }
        sql += " ORDER BY seq"
        let statement = try db.makeStatement(sql: sql)
        let handle = statement.sqliteStatement
        var index: Int32 = 1
        sqlite3_bind_int64(handle, index, scope.afterSeq)
        if let through = scope.throughSeq { index += 1; sqlite3_bind_int64(handle, index, through) }
        if let atMost = scope.atMost { index += 1; sqlite3_bind_int64(handle, index, atMost) }
        let lists = try db.makeStatement(sql: "SELECT user FROM event_lists WHERE seq = ? ORDER BY position")

        func text(_ column: Int32) -> String? {
            guard let pointer = sqlite3_column_text(handle, column) else { return nil }
            let count = Int(sqlite3_column_bytes(handle, column))
            return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
        }
        while try nextRow(handle, in: db) {
            let seq = sqlite3_column_int64(handle, 0)
            if seq & 0xFFF == 0 && Interruption.isRequested { throw StoreError.interrupted }
            guard let typeName = text(1), let type = EventType.named(typeName) else {
                throw StoreError.database("event \(seq) has a type unknown to this gtio")
            }
            var record = LogRecord(
                seq: seq, type: type, at: sqlite3_column_int64(handle, 2), user: text(3), device: text(4),
                subject: text(5), object: text(6), value: text(7),
                flag: sqlite3_column_type(handle, 8) == SQLITE_NULL ? nil : sqlite3_column_int64(handle, 8) != 0,
                text: text(9))
            if type == .quickaddShown {
                record.list = try String.fetchAll(lists, arguments: [seq])
            }
            try body(record)
        }
    }
}
