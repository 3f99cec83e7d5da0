import Foundation
import GTIOStore
import PostgresNIO

extension PostgresStore {
    /// Runs one statement in a READ ONLY transaction, which the server itself holds to reading
    /// (a write is refused with SQLSTATE 25006 before it changes anything); `statement_timeout`
    /// stops it past `limits.seconds`, and Ctrl-C closes its connection. The server takes one
    /// statement per request, so a second after `;` is refused too.
    public func readOnlySQL(_ text: String, limits: SQLLimits) throws -> SQLAnswer {
        let statement = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !statement.isEmpty, statement != ";" else { throw StoreError.badSQL("no statement given (give one SELECT)") }
        do {
            return try pool.withSession { session in
                try session.transaction("READ ONLY") {
                    if let seconds = limits.seconds {
                        try session.execute("SET LOCAL statement_timeout = \(max(1, Int(seconds * 1000)))")
                    }
                    return try Self.collect(PostgresDialect.translate(statement, placeholders: false), limit: limits.rows, on: session)
                }
            }
        } catch let failure as PostgresFailure {
            switch failure.state {
            case "25006": throw StoreError.writeRefused(String(text.prefix(40)))
            case "57014": throw StoreError.sqlTimedOut(seconds: limits.seconds ?? 0)
            case "42601" where failure.message.contains("multiple commands"):
                throw StoreError.badSQL("one statement at a time: there is more after the first ; (run each on its own)")
            default: throw StoreError.badSQL(failure.message)
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.badSQL("\(error)")
        }
    }

    /// The statement's column names (known even when no row comes) and up to `limit` rows.
    /// postgres-nio gives the names on its asynchronous interface only; this thread waits for it,
    /// run on a thread of its own (`QueryThread`).
    private static func collect(_ sql: String, limit: Int?, on session: PostgresSession) throws -> SQLAnswer {
        let outcome = SQLOutcome()
        let done = DispatchSemaphore(value: 0)
        let connection = session.connection, logger = session.logger
        Task(executorPreference: QueryThread.shared) {
            do {
                let rows = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
                var answer = SQLAnswer(columns: rows.columns.map(\.name), rows: [])
                for try await row in rows {
                    if let limit, answer.rows.count == limit {
                        answer.isTruncated = true
                        break
                    }
                    answer.rows.append(PostgresSession.values(row))
                }
                outcome.set(.success(answer))
            } catch {
                outcome.set(.failure(PostgresFailure(error)))
            }
            done.signal()
        }
        var patience = AnswerWait.Patience()
        while done.wait(timeout: .now() + .milliseconds(100)) == .timedOut {
            if Interruption.isRequested {
                try? connection.close().wait()
                done.wait()
                throw StoreError.interrupted
            }
            // A statement written after the connection closed is never answered (`AnswerWait`).
            try patience.check(closed: connection.isClosed)
        }
        return try outcome.result!.get()
    }
}

/// The answer handed from the query's task to the waiting thread.
private final class SQLOutcome: @unchecked Sendable {
    // @unchecked: written once by the task before it signals, read after the wait.
    private(set) var result: Result<SQLAnswer, PostgresFailure>?
    func set(_ result: Result<SQLAnswer, PostgresFailure>) { self.result = result }
}
