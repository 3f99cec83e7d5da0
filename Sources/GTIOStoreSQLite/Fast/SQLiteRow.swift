import GRDBSQLite
import GTIOStore

/// The row a statement stands on, read column by column.
struct SQLiteRow: TableRow {
    let handle: OpaquePointer

    func value(_ column: Int) -> StoreValue {
        let index = Int32(column)
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, index))
        case SQLITE_TEXT:
            // As GRDB reads text for `forEachRow`'s rows, so that both give the same strings.
            guard let text = sqlite3_column_text(handle, index) else { return .text("") }
            return .text(String(cString: text))
        case SQLITE_BLOB:
            let bytes = sqlite3_column_blob(handle, index)
            let count = Int(sqlite3_column_bytes(handle, index))
            guard let bytes, count > 0 else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }

    func int64(_ column: Int) -> Int64? {
        switch sqlite3_column_type(handle, Int32(column)) {
        case SQLITE_INTEGER: sqlite3_column_int64(handle, Int32(column))
        case SQLITE_NULL: nil
        default: value(column).int64
        }
    }

    func double(_ column: Int) -> Double? {
        switch sqlite3_column_type(handle, Int32(column)) {
        case SQLITE_INTEGER, SQLITE_FLOAT: sqlite3_column_double(handle, Int32(column))
        case SQLITE_NULL: nil
        default: value(column).double
        }
    }
}
