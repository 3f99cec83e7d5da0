import Foundation
import GTIOStore
import Logging
import NIOCore
import PostgresNIO

/// One connection lent by the pool: statements run one at a time, the caller blocking on each.
struct PostgresSession {
    let connection: PostgresConnection
    let logger: Logger
    /// The answer of the last statement sent without waiting, until someone reads it.
    let unread: UnreadAnswer

    init(connection: PostgresConnection, logger: Logger, unread: UnreadAnswer = UnreadAnswer()) {
        self.connection = connection
        self.logger = logger
        self.unread = unread
    }

    /// Runs `query` and collects its rows.
    func run(_ query: PostgresQuery) throws -> PostgresQueryResult {
        do {
            return try AnswerWait.wait(for: connection.query(query, logger: logger), on: connection)
        } catch {
            throw PostgresFailure(error)
        }
    }

    /// Runs `sql`, written with `?` placeholders as the read models write it, with `arguments`.
    func run(_ sql: String, _ arguments: [StoreValue] = []) throws -> PostgresQueryResult {
        try run(PostgresQuery(unsafeSQL: PostgresDialect.translate(sql), binds: Self.bindings(arguments)))
    }

    /// Sends `sql` without waiting for its answer. The connection runs statements in the order
    /// they were sent, so the caller's next statement waits for this one on the event loop
    /// rather than the caller waiting a round trip for it; `SentStatement.check` says whether
    /// it failed.
    func send(_ sql: String, _ arguments: [StoreValue] = []) -> SentStatement {
        send(PostgresQuery(unsafeSQL: PostgresDialect.translate(sql), binds: Self.bindings(arguments)))
    }

    func send(_ query: PostgresQuery) -> SentStatement {
        let result = connection.query(query, logger: logger)
        unread.last = result
        return SentStatement(result: result, connection: connection)
    }

    /// Sends `sql` without waiting, its answer checked by the transaction before it commits or
    /// when it fails (`checkSent`): for writes whose caller goes on to other work meanwhile.
    func sendChecked(_ sql: String, _ arguments: [StoreValue] = [], changed: ((Int) -> Void)? = nil) {
        var sent = send(sql, arguments)
        sent.changed = changed
        unread.sent.append(sent)
    }

    /// Runs `statement(rows)`, where `rows` is `SELECT unnest($1), unnest($2), …` over `arrays`:
    /// as many rows as the arrays are long, in one round trip. Returns the rows it changed.
    ///
    /// The arrays are unnested in the select list, where the server hands the rows on as it
    /// makes them; `FROM unnest($1, $2, …)` first stores them all (a function scan's
    /// tuplestore). docs/PERFORMANCE.md has what that cost.
    @discardableResult
    func run(unnesting arrays: [PostgresArray], _ statement: (_ rows: String) -> String) throws -> Int {
        try run(Self.unnesting(arrays, statement)).metadata.rows ?? 0
    }

    /// `run(unnesting:)` sent without waiting, and checked as `sendChecked` is; its error, if
    /// any, begins with `context` (which table it was writing, say). `changed` is told how many
    /// rows it inserted, updated or deleted, once its answer is checked. `constants` follow the
    /// arrays' columns in every row.
    func sendChecked(
        unnesting arrays: [PostgresArray], constants: [Int64] = [], context: String? = nil, changed: ((Int) -> Void)? = nil,
        _ statement: (_ rows: String) -> String
    ) {
        var sent = send(Self.unnesting(arrays, constants: constants, statement))
        sent.context = context
        sent.changed = changed
        unread.sent.append(sent)
    }

    private static func unnesting(
        _ arrays: [PostgresArray], constants: [Int64] = [], _ statement: (_ rows: String) -> String
    ) -> PostgresQuery {
        var bindings = PostgresBindings(capacity: arrays.count + constants.count)
        for array in arrays { bindings.append(array) }
        for constant in constants { bindings.append(constant) }
        let rows = "SELECT " + (arrays.indices.map { "unnest($\($0 + 1))" }
            + constants.indices.map { "$\(arrays.count + $0 + 1)::bigint" }).joined(separator: ", ")
        return PostgresQuery(unsafeSQL: statement(rows), binds: bindings)
    }

    /// Throws the error of the first statement sent with `sendChecked` that failed, waiting for
    /// their answers; forgets them.
    func checkSent() throws {
        let sent = unread.sent
        unread.sent = []
        for statement in sent { try statement.check() }
    }

    /// The rows `sql` selects, as values.
    func rows(_ sql: String, _ arguments: [StoreValue] = []) throws -> [[StoreValue]] {
        try run(sql, arguments).rows.map(Self.values)
    }

    /// Runs statements without parameters, one after another: the server takes one statement
    /// per request, so `sql` is split at each `;` outside quotes, comments and `$$` bodies.
    func execute(_ sql: String) throws {
        for statement in Self.statements(sql) {
            _ = try run(PostgresQuery(unsafeSQL: statement))
        }
    }

    /// The statements of a script, without their `;`.
    static func statements(_ sql: String) -> [String] {
        var statements: [String] = []
        var current = ""
        var quote: Character?
        var inDollarBody = false, inComment = false
        var previous: Character = " "
        for character in sql {
            defer { previous = character }
            if inComment {
                current.append(character)
                if character == "\n" { inComment = false }
                continue
            }
            if inDollarBody {
                current.append(character)
                if character == "$" && previous == "$" { inDollarBody = false }
                continue
            }
            if let open = quote {
                current.append(character)
                if character == open { quote = nil }
                continue
            }
            switch character {
            case "'", "\"": quote = character
            case "-" where previous == "-": inComment = true
            case "$" where previous == "$": inDollarBody = true
            case ";":
                let statement = current.trimmingCharacters(in: .whitespacesAndNewlines)
                if !statement.isEmpty { statements.append(statement) }
                current = ""
                continue
            default: break
            }
            current.append(character)
        }
        let statement = current.trimmingCharacters(in: .whitespacesAndNewlines)
        if !statement.isEmpty && !statement.allSatisfy({ $0 == "-" }) { statements.append(statement) }
        return statements
    }

    /// Runs `body` in one read-only snapshot (`REPEATABLE READ`). `BEGIN` goes out ahead of
    /// the body's first statement and `COMMIT` after its last, the caller waiting for neither:
    /// ending a read-only transaction cannot lose anything, and a failed `BEGIN` also fails the
    /// body's first statement, whose error then gives way to the `BEGIN`'s own.
    func readOnlyTransaction<T>(_ body: () throws -> T) throws -> T {
        let begun = send("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        let result: T
        do {
            result = try body()
        } catch {
            try begun.check()
            try? execute("ROLLBACK")
            throw error
        }
        try begun.check()
        _ = send("COMMIT")
        return result
    }

    /// Runs `body` in a read-only transaction that sees the snapshot another transaction
    /// exported (`pg_export_snapshot()`, which stays importable while that one is open). The
    /// snapshot is taken, and waited for, before `body` runs: a caller can tell a session that
    /// could not join from a body that failed.
    func readOnlyTransaction<T>(snapshot: String, _ body: () throws -> T) throws -> T {
        // An exported snapshot's id is hexadecimal digits and dashes; SET TRANSACTION SNAPSHOT
        // takes a literal, not a parameter.
        guard !snapshot.isEmpty, snapshot.utf8.allSatisfy(Set("0123456789ABCDEFabcdef-".utf8).contains) else {
            throw PostgresFailure(state: nil, message: "the server exported a snapshot named \(snapshot)")
        }
        return try readOnlyTransaction {
            try execute("SET TRANSACTION SNAPSHOT '\(snapshot)'")
            return try body()
        }
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    /// `mode` follows BEGIN.
    func transaction<T>(_ mode: String = "", _ body: () throws -> T) throws -> T {
        try execute("BEGIN" + (mode.isEmpty ? "" : " " + mode))
        do {
            let result = try body()
            try checkSent()
            // The server answers COMMIT of a transaction a failed statement ended with
            // "ROLLBACK", not an error: a statement sent without waiting could fail unseen.
            let ended = try run(PostgresQuery(unsafeSQL: "COMMIT"))
            guard ended.metadata.command == "COMMIT" else {
                throw PostgresFailure(state: nil, message: "the transaction was rolled back: one of its statements failed")
            }
            return result
        } catch {
            // A statement sent without waiting may have failed first: later ones then only say
            // the transaction was aborted, so its own error is the one to tell.
            var failure = error
            do { try checkSent() } catch { failure = error }
            try? execute("ROLLBACK")
            throw failure
        }
    }

    /// Values bound as the read models give them. Numbers and text go as untyped text, as a
    /// literal in the statement would, so that the server gives each the type its place asks for
    /// (a count compared with an integer column, a date with a text one): SQLite, which the
    /// read models' queries are also written for, never complains of a type either.
    static func bindings(_ arguments: [StoreValue]) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: arguments.count)
        for argument in arguments {
            switch argument {
            case .null: bindings.appendNull()
            case .integer(let value): bindings.append(UntypedText(String(value)))
            case .real(let value): bindings.append(UntypedText(String(value)))
            case .text(let value): bindings.append(UntypedText(value))
            case .blob(let bytes): bindings.append(ByteBuffer(bytes: bytes))
            }
        }
        return bindings
    }

    /// A row as values: integers (and booleans, 0 or 1), doubles, text and bytes, as SQLite
    /// would give them; a `numeric` (PostgreSQL's SUM of integers) is an integer when whole.
    static func values(_ row: PostgresRow) -> [StoreValue] {
        row.map(value)
    }

    static func value(_ cell: PostgresCell) -> StoreValue {
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .int2, .int4, .int8, .oid:
            return (try? cell.decode(Int64.self)).map(StoreValue.integer) ?? .null
        case .bool:
            return (try? cell.decode(Bool.self)).map { .integer($0 ? 1 : 0) } ?? .null
        case .float4, .float8:
            return (try? cell.decode(Double.self)).map(StoreValue.real) ?? .null
        case .numeric:
            guard let decimal = try? cell.decode(Decimal.self) else { return .null }
            let number = NSDecimalNumber(decimal: decimal)
            if decimal == Decimal(number.int64Value) { return .integer(number.int64Value) }
            return .real(number.doubleValue)
        case .bytea:
            return (try? cell.decode(ByteBuffer.self)).map { .blob(Array($0.readableBytesView)) } ?? .null
        default:
            return (try? cell.decode(String.self)).map(StoreValue.text) ?? .null
        }
    }
}

/// The answer of the last statement a connection was sent without anyone waiting for it.
/// Closing the connection before that answer has come would leave it unread in the socket, and
/// the kernel would then reset the connection, which the server logs as an error: whoever closes
/// a connection waits for it first (`PostgresConnectionPool`). Statements run in the order sent,
/// so the last one's answer comes after every earlier one's.
final class UnreadAnswer: @unchecked Sendable {
    // @unchecked: only the thread the connection is lent to touches it.
    var last: EventLoopFuture<PostgresQueryResult>?
    /// Statements sent with `sendChecked` whose answers nobody has looked at yet.
    var sent: [SentStatement] = []

    /// Waits until the answer has come (whatever it says), or `connection` has closed.
    func settle(on connection: PostgresConnection) {
        if let last { _ = try? AnswerWait.wait(for: last, on: connection) }
        last = nil
    }
}

/// A statement sent ahead of the caller's next one, its answer looked at only when it matters.
struct SentStatement {
    let result: EventLoopFuture<PostgresQueryResult>
    let connection: PostgresConnection
    /// What the statement was doing, put before its error.
    var context: String? = nil
    /// Told how many rows the statement changed, once its answer has been checked.
    var changed: ((Int) -> Void)? = nil

    /// Waits for the answer if it has not come, and throws the statement's error, if any.
    func check() throws {
        let answer = try answer()
        changed?(answer.metadata.rows ?? 0)
    }

    /// The answer, once it has come; throws the statement's error, if any.
    func answer() throws -> PostgresQueryResult {
        do {
            return try AnswerWait.wait(for: result, on: connection)
        } catch {
            let failure = PostgresFailure(error)
            guard let context else { throw failure }
            throw PostgresFailure(state: failure.state, message: "\(context): \(failure.message)")
        }
    }
}

/// A parameter sent as text of no declared type: the server infers it from where it stands.
struct UntypedText: PostgresDynamicTypeEncodable {
    let text: String

    init(_ text: String) { self.text = text }

    var psqlType: PostgresDataType { .null }
    var psqlFormat: PostgresFormat { .text }

    func encode<JSONEncoder: PostgresJSONEncoder>(into byteBuffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        byteBuffer.writeString(text)
    }
}

/// A failed statement or connection, with the server's own words.
struct PostgresFailure: Error, CustomStringConvertible {
    /// The SQLSTATE code, when the server sent one (`25006`: a write in a read-only transaction).
    let state: String?
    let message: String

    init(state: String?, message: String) {
        self.state = state
        self.message = message
    }

    init(_ error: any Error) {
        if let failure = error as? PostgresFailure {
            self = failure
            return
        }
        if let error = error as? PSQLError, let info = error.serverInfo {
            state = info[.sqlState]
            var text = info[.message] ?? "\(error.code)"
            if let detail = info[.detail] { text += " (\(detail))" }
            message = text
        } else {
            // A connection that closed under the statement, told as the server's own code for it.
            state = (error as? PSQLError).map { Self.closedCodes.contains($0.code) } == true ? "08006" : nil
            message = Self.describe(error)
        }
    }

    var description: String { message }

    /// What a statement on a connection that closed under it fails with.
    static let connectionLost = "the connection to the server was lost"
    /// postgres-nio's codes for a connection that closed under a statement.
    static let closedCodes: [PSQLError.Code] = [.clientClosedConnection, .serverClosedConnection, .uncleanShutdown]

    /// A connection error in words: postgres-nio's codes name the kind of failure only.
    static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return message }
            if error.code == .connectionError, let underlying = error.underlying {
                let text = "\(underlying)"
                if text.contains("Connection refused") {
                    return "the server refused the connection (is PostgreSQL running there? check the URL's host and port)"
                }
                if text.localizedCaseInsensitiveContains("timed out") || text.localizedCaseInsensitiveContains("timeout") {
                    return "no answer from the server within 10 s (check the URL's host and port, and any firewall between)"
                }
                if text.localizedCaseInsensitiveContains("resolve") || text.contains("not known") {
                    return "the host name does not resolve (check the URL's host)"
                }
                return "cannot connect: \(underlying)"
            }
            if closedCodes.contains(error.code) {
                return connectionLost
            }
            if let underlying = error.underlying { return "\(error.code): \(underlying)" }
            return "\(error.code)"
        }
        return "\(error)"
    }
}
