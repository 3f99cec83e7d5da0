import ArgumentParser
import GTIOStore
import GTIOTables

/// `sql 'SELECT …'`: one read-only statement on the store, in a read-only transaction.
struct SQLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sql",
        abstract: "Run one read-only SQL statement on the store (the tables: docs/STORE.md, docs/READ_MODELS.md).",
        discussion: """
            A statement that would change anything is refused before it runs. It reads the store as \
            it stands: for an earlier moment, filter on at or seq in the statement. Quote the \
            statement as one argument. Example: gtio sql "SELECT type, COUNT(*) FROM events GROUP BY type"
            """)
    @Argument(help: "The statement.") var statement: String
    @OptionGroup var output: OutputOptions

    @Option(parsing: .unconditional, help: "Keep at most this many rows (0: all).", transform: Limit.parse)
    var limit = SQLCommand.rowLimit
    @Option(parsing: .unconditional, help: ArgumentHelp("Stop the statement after this many seconds (0: no limit).", valueName: "seconds"))
    var timeout: Double = SQLLimits.standard.seconds ?? 0

    func validate() throws {
        if timeout < 0 { throw ValidationError("--timeout takes seconds, 0 or more (0: no limit), got \(timeout)") }
    }

    func run() throws {
        let limits = SQLLimits(rows: limit == 0 ? nil : limit, seconds: timeout > 0 ? timeout : nil)
        let answer = try output.storeOptions.openForReading().readOnlySQL(statement, limits: limits)
        try output.emit(Self.table(answer))
        if answer.isTruncated { Terminal.writeError("gtio: \(Self.truncationNote(answer, allRows: "--limit 0"))\n") }
    }

    /// What to add to swift-argument-parser's `message` about `sql`'s arguments, if anything:
    /// the shell splits an unquoted statement into words, which the parser calls unexpected.
    static func hint(forParseError message: String) -> String? {
        guard message.lowercased().contains("unexpected argument") else { return nil }
        return "The statement is one argument: quote it, as in gtio sql \"SELECT type, COUNT(*) FROM events GROUP BY type\""
    }

    /// Rows kept when --limit is not given: the REPL's, enough for any screen, bounded for any statement.
    static let rowLimit = SQLLimits.standard.rows ?? 0

    /// What to say when the row limit cut the answer; `allRows` is how to ask for every row where
    /// the statement ran.
    static func truncationNote(_ answer: SQLAnswer, allRows: String) -> String {
        "sql: stopped at \(answer.rows.count) rows; there are more (add LIMIT, or \(allRows) for all)"
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
