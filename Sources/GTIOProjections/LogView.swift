import GTIOCatalog
import GTIOStore

/// Which moment a query answers for (EVENTS.md §3, Time and order).
public enum LogView: Sendable, Equatable {
    /// The whole log; now is the largest `at`.
    case latest
    /// Events with `at` ≤ the moment, applied in seq order; now is the moment, even past the last event.
    case asOf(Timestamp)
    /// Events with `seq` ≤ N; now is the largest `at` among them.
    case atSeq(Int64)

    /// The part of the log in view; `ReadModelEngine.fold` reads it from a store.
    var scope: LogScope {
        switch self {
        case .latest: LogScope()
        case .asOf(let moment): LogScope(atMost: moment.milliseconds)
        case .atSeq(let seq): LogScope(throughSeq: seq)
        }
    }

    /// Folds in-memory records (tests, generated logs) as this view would.
    public func readModels(from records: [LogRecord]) -> ReadModels {
        var state = CommunityState()
        for record in records {
            if case .atSeq(let seq) = self, record.seq > seq { break }
            if case .asOf(let moment) = self, record.at > moment.milliseconds { continue }
            state.apply(record)
        }
        if case .asOf(let moment) = self { return ReadModels(state: state, now: moment.milliseconds) }
        return ReadModels(state: state)
    }
}
