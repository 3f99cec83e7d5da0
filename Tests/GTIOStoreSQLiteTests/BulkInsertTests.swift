import Foundation
import GRDB
import GTIOTestSupport
import Testing
import GTIOStore
@testable import GTIOStoreSQLite

@Suite struct BulkInsertTests {
    let folder = TemporaryDirectory()

    /// Seven rows at three per statement: two full statements and a row left over, inserted alone.
    static let rows: [[DatabaseValue]] = [
        ["p1".databaseValue, 1.databaseValue, 0.5.databaseValue],
        ["".databaseValue, .null, .null],
        ["été ☀︎".databaseValue, (-7).databaseValue, 1e300.databaseValue],
        ["a much longer text than any id, with a\u{0}nul in it".databaseValue, Int64.max.databaseValue, (-0.25).databaseValue],
        ["p5".databaseValue, 5.databaseValue, .null],
        [.null, 6.databaseValue, 6.0.databaseValue],
        ["p7".databaseValue, .null, 7.5.databaseValue],
    ]

    /// The rows above, numbered, packed through `RowSink` as read models pack theirs.
    static var packed: PackedRows {
        var packed = PackedRows(width: 4)
        for (index, row) in rows.enumerated() {
            packed.append(index)
            for value in row {
                switch value.storage {
                case .null: packed.appendNull()
                case .int64(let integer): packed.append(integer)
                case .double(let number): packed.append(number)
                case .string(let text): packed.append(text)
                case .blob: Issue.record("no blobs in read-model rows")
                }
            }
        }
        return packed
    }

    @Test func packedRowsGiveBackTheValuesPackedIntoThem() {
        let packed = Self.packed
        #expect(packed.count == 7)
        #expect(packed.rows.map { $0.map(\.databaseValue) } == Self.rows.enumerated().map { [$0.offset.databaseValue] + $0.element })
    }

    @Test func everyRowArrivesExactlyWhateverItsValuesAndHowTheStatementsSplitThem() throws {
        let store = try SQLiteStore(path: folder.file("log.gtio"))
        let (stored, textBytes) = try store.writeDatabase { db -> ([[DatabaseValue]], [Int?]) in
            try db.execute(sql: "CREATE TABLE t (n INTEGER PRIMARY KEY, a TEXT, b INTEGER, c REAL)")
            try BulkInsert(into: "t", columns: ["n", "a", "b", "c"], in: db, rowsPerStatement: 3).insert(Self.packed)
            return (try Row.fetchAll(db, sql: "SELECT a, b, c FROM t ORDER BY n").map { Array($0.databaseValues) },
                    try Optional<Int>.fetchAll(db, sql: "SELECT length(CAST(a AS BLOB)) FROM t ORDER BY n"))
        }
        // Reading text back stops at a NUL (GRDB makes a C string), so that row's text is
        // checked by its stored length instead.
        #expect(stored.count == Self.rows.count)
        for (index, (row, expected)) in zip(stored, Self.rows).enumerated() where index != 3 { #expect(row == expected) }
        #expect(Array(stored[3].dropFirst()) == Array(Self.rows[3].dropFirst()))
        #expect(textBytes == Self.rows.map { String.fromDatabaseValue($0[0])?.utf8.count })
        #expect(textBytes[1] == 0, "'' stays text, not NULL")
    }

    @Test func aRowThatBreaksAConstraintFailsWithSQLitesError() throws {
        let store = try SQLiteStore(path: folder.file("log.gtio"))
        var rows = PackedRows(width: 1)
        rows.append("same")
        rows.append("same")
        let error = #expect(throws: StoreError.self) {
            try store.writeDatabase { db in
                try db.execute(sql: "CREATE TABLE u (k TEXT PRIMARY KEY) WITHOUT ROWID")
                try BulkInsert(into: "u", columns: ["k"], in: db, rowsPerStatement: 2).insert(rows)
            }
        }
        #expect(error.map { "\($0)".contains("UNIQUE constraint failed: u.k") } == true)
    }
}
