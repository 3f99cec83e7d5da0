import Foundation
import GRDB
import GTIOTestSupport
import Testing
@testable import GTIOStore

@Suite struct BulkInsertTests {
    let folder = TemporaryDirectory()

    /// Seven rows at three per statement: two full statements and one row left for `finish`.
    static let rows: [[DatabaseValue]] = [
        ["p1".databaseValue, 1.databaseValue, 0.5.databaseValue, Data([0, 1, 2]).databaseValue],
        ["".databaseValue, .null, .null, .null],
        ["été ☀︎".databaseValue, (-7).databaseValue, 1e300.databaseValue, Data().databaseValue],
        ["a much longer text than any id, with a\u{0}nul in it".databaseValue, Int64.max.databaseValue, (-0.25).databaseValue, .null],
        ["p5".databaseValue, 5.databaseValue, .null, Data(repeating: 9, count: 300).databaseValue],
        ["p6".databaseValue, 6.databaseValue, 6.0.databaseValue, .null],
        ["p7".databaseValue, .null, 7.5.databaseValue, Data([7]).databaseValue],
    ]

    @Test func everyRowArrivesExactlyWhateverItsValuesAndHowTheStatementsSplitThem() throws {
        let store = try EventStore(path: folder.file("log.gtio"))
        let (stored, textBytes) = try store.write { db -> ([[DatabaseValue]], [Int]) in
            try db.execute(sql: "CREATE TABLE t (n INTEGER PRIMARY KEY, a TEXT, b INTEGER, c REAL, d BLOB)")
            var insert = try BulkInsert(into: "t", columns: ["n", "a", "b", "c", "d"], in: db, rowsPerStatement: 3)
            for (index, row) in Self.rows.enumerated() { try insert.insert([index.databaseValue] + row) }
            try insert.finish()
            return (try Row.fetchAll(db, sql: "SELECT a, b, c, d FROM t ORDER BY n").map { Array($0.databaseValues) },
                    try Int.fetchAll(db, sql: "SELECT length(CAST(a AS BLOB)) FROM t ORDER BY n"))
        }
        // Reading text back stops at a NUL (GRDB makes a C string), so that row's text is
        // checked by its stored length instead.
        #expect(stored.count == Self.rows.count)
        for (index, (row, expected)) in zip(stored, Self.rows).enumerated() where index != 3 { #expect(row == expected) }
        #expect(Array(stored[3].dropFirst()) == Array(Self.rows[3].dropFirst()))
        #expect(textBytes == Self.rows.map { String.fromDatabaseValue($0[0])!.utf8.count })
    }

    @Test func aRowThatBreaksAConstraintFailsWithSQLitesError() throws {
        let store = try EventStore(path: folder.file("log.gtio"))
        let error = #expect(throws: StoreError.self) {
            try store.write { db in
                try db.execute(sql: "CREATE TABLE u (k TEXT PRIMARY KEY) WITHOUT ROWID")
                var insert = try BulkInsert(into: "u", columns: ["k"], in: db, rowsPerStatement: 2)
                try insert.insert(["same".databaseValue])
                try insert.insert(["same".databaseValue])
            }
        }
        #expect(error.map { "\($0)".contains("UNIQUE constraint failed: u.k") } == true)
    }
}
