import NIOConcurrencyHelpers

/// Rendered read answers by request (path and query), each with the log position it reflects:
/// a dashboard polling one URL is answered without a query until the log moves. An entry is
/// only served under its own ETag, so a cached answer is never staler than a fresh one.
final class AnswerCache: Sendable {
    private let entries = NIOLockedValueBox([String: (tag: String, body: String)]())
    private let capacity: Int

    init(capacity: Int = 1_024) {
        self.capacity = capacity
    }

    /// The answer kept for `request` at `tag`, nil when none or one of another position.
    func answer(for request: String, tag: String) -> String? {
        entries.withLockedValue { $0[request] }.flatMap { $0.tag == tag ? $0.body : nil }
    }

    func keep(_ body: String, for request: String, tag: String) {
        entries.withLockedValue { entries in
            // Past capacity, start over: the URLs polled often come straight back.
            if entries.count >= capacity && entries[request] == nil { entries.removeAll(keepingCapacity: true) }
            entries[request] = (tag, body)
        }
    }
}
