import Dispatch
import GTIOCatalog
import NIOConcurrencyHelpers

/// Rendered read answers by request (path and query), each with the log position it reflects:
/// a dashboard polling one URL is answered without a query until the log moves. An entry is
/// only served under its own ETag, so a cached answer is never staler than a fresh one.
///
/// It also remembers, for up to `positionLifetime`, where the read models stood when last read,
/// so that a burst of requests for kept answers reads the store once, not once each; the
/// projector forgets it as soon as it has moved them.
///
/// Requests are told apart by their bytes: two paths naming canonically equivalent but
/// different ids ask for different answers.
final class AnswerCache: Sendable {
    private let entries = NIOLockedValueBox([ExactText: (tag: String, body: String)]())
    private let position = NIOLockedValueBox<(seq: Int64, readAt: UInt64)?>(nil)
    private let capacity: Int
    private let positionLifetime: UInt64

    init(capacity: Int = 1_024, positionLifetime: Double = 0.05) {
        self.capacity = capacity
        self.positionLifetime = UInt64(positionLifetime * 1e9)
    }

    /// The read models' position read less than `positionLifetime` ago, if any.
    func recentPosition() -> Int64? {
        let now = DispatchTime.now().uptimeNanoseconds
        return position.withLockedValue { kept in
            // Another thread may have read it after `now` was taken: that is fresh too.
            guard let kept, now < kept.readAt || now - kept.readAt < positionLifetime else { return nil }
            return kept.seq
        }
    }

    func notePosition(_ seq: Int64) {
        let now = DispatchTime.now().uptimeNanoseconds
        position.withLockedValue { $0 = (seq, now) }
    }

    /// The read models moved: the next request reads where they stand.
    func forgetPosition() {
        position.withLockedValue { $0 = nil }
    }

    /// The answer kept for `request` at `tag`, nil when none or one of another position.
    func answer(for request: String, tag: String) -> String? {
        entries.withLockedValue { $0[ExactText(request)] }.flatMap { $0.tag == tag ? $0.body : nil }
    }

    func keep(_ body: String, for request: String, tag: String) {
        entries.withLockedValue { entries in
            // Past capacity, start over: the URLs polled often come straight back.
            if entries.count >= capacity && entries[ExactText(request)] == nil { entries.removeAll(keepingCapacity: true) }
            entries[ExactText(request)] = (tag, body)
        }
    }
}
