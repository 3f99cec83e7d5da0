import ArgumentParser
import GTIOStore
import GTIOTables

/// `sql 'SELECT …'`: one read-only statement on the store, in a read-only transaction.
struct SQLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sql",
        abstract: "Run one read-only SQL statement on the store (the tables: docs/STORE.md, docs/READ_MODELS.md).",
        discussion: """
            A statement that would change anything is refused before it runs. Quote the statement \
            as one argument. Example: gtio sql "SELECT type, COUNT(*) FROM events GROUP BY type"
            """)
    @Argument(help: "The statement.") var statement: String
    @OptionGroup var query: QueryOptions

    func validate() throws {
        if query.asOf != nil || query.atSeq != nil {
            throw ValidationError("sql reads the store as it stands: --as-of and --at-seq do not apply (filter on at or seq in the statement)")
        }
    }

    func run() throws {
        try query.emit(Self.table(try query.storeOptions.openForReading().readOnlySQL(statement)))
    }

    /// The answer as a result table; blobs are shown by their size.
    static func table(_ answer: SQLAnswer) -> ResultTable {
        ResultTable(columns: answer.columns, rows: answer.rows.map { row in
            row.map { value -> Cell in
                switch value {
                case .null: .null
                case .integer(let integer): .integer(integer)
                case .real(let number): .number(number)
                case .text(let text): .text(text)
                case .blob(let bytes): .text("<\(bytes.count) bytes>")
                }
            }
        })
    }
}
