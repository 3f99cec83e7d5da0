import GRDB
import GRDBSQLite
import GTIOStore

/// The row a statement stands on, read column by column.
struct SQLiteRow: TableRow {
    let handle: OpaquePointer

    /// Converted as the whole rows of `SQLiteTableReader.forEachRow` are, so both give the same values.
    func value(_ column: Int) -> StoreValue {
        StoreValue(DatabaseValue(sqliteStatement: handle, index: Int32(column)))
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
