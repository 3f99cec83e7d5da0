import Foundation
import NIOCore
import PostgresNIO

/// A caller's blocking wait for a statement's answer that ends when the connection has closed.
///
/// postgres-nio writes each statement to its channel without a promise; one written after the
/// channel closed (the server restarted, or ended the session) is dropped, and its answer never
/// comes. `EventLoopFuture.wait()` would then block for ever: a projector whose server restarted
/// sat in the unlock of its lost lead, alive and silent, leading nothing.
enum AnswerWait {
    /// How long an answer may still come once the connection is seen closed: postgres-nio fails
    /// the statements it had sent as the channel closes, on its event loop, a moment later.
    static let grace = 0.5

    /// When a wait that keeps finding its connection closed gives up: `grace` after it first did.
    struct Patience {
        private var closedSince: Date?

        /// Throws the connection's loss once it has been seen closed for `grace`.
        mutating func check(closed: Bool) throws {
            guard closed else { return }
            let since = closedSince ?? Date()
            closedSince = since
            if Date().timeIntervalSince(since) >= AnswerWait.grace {
                throw PostgresFailure(state: "08006", message: PostgresFailure.connectionLost)
            }
        }
    }

    static func wait<T: Sendable>(for answer: EventLoopFuture<T>, on connection: PostgresConnection) throws -> T {
        let outcome = Outcome<T>()
        answer.whenComplete { outcome.settle($0) }
        return try outcome.wait { connection.isClosed }
    }

    private final class Outcome<T: Sendable>: @unchecked Sendable {
        // @unchecked: `result` is only touched while holding `condition`.
        private let condition = NSCondition()
        private var result: Result<T, any Error>?

        func settle(_ result: Result<T, any Error>) {
            condition.lock()
            self.result = result
            condition.broadcast()
            condition.unlock()
        }

        func wait(closed: () -> Bool) throws -> T {
            condition.lock()
            defer { condition.unlock() }
            var patience = Patience()
            while result == nil {
                _ = condition.wait(until: Date().addingTimeInterval(AnswerWait.grace))
                if result == nil { try patience.check(closed: closed()) }
            }
            return try result!.get()
        }
    }
}
