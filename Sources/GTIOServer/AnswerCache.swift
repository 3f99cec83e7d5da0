import Dispatch
import GTIOCatalog
import NIOConcurrencyHelpers

/// Rendered read answers by request (path and query), each with the log position it reflects:
/// a dashboard polling one URL is answered without a query until the log moves. An entry is
/// only served under its own ETag, so a cached answer is never staler than a fresh one.
///
/// It also remembers, for up to `positionLifetime`, where the read models stood when last read,
/// so that a burst of requests for kept answers reads the store once, not once each; the
/// projector forgets it as soon as it has moved them, and a read begun before that is not kept.
///
/// Requests are told apart by their bytes: two paths naming canonically equivalent but
/// different ids ask for different answers.
final class AnswerCache: Sendable {
    private let entries = NIOLockedValueBox([ExactText: (tag: String, body: String)]())
    private let position = NIOLockedValueBox(Position())
    private let capacity: Int
    private let positionLifetime: UInt64

    /// Where the read models stood when last read, and the reads under way.
    private struct Position {
        var kept: (seq: Int64, readAt: UInt64)?
        /// Moved on each `forgetPosition`: a read begun before it may return where the models stood
        /// before they moved, which is then not kept, nor given to a request that came after it.
        var generation: UInt64 = 0
        /// The requests waiting for the read begun in each generation.
        var waiting: [UInt64: [CheckedContinuation<Int64, any Error>]] = [:]
    }

    init(capacity: Int = 1_024, positionLifetime: Double = 0.05) {
        self.capacity = capacity
        self.positionLifetime = UInt64(positionLifetime * 1e9)
    }

    /// The read models' position read less than `positionLifetime` ago, if any.
    func recentPosition() -> Int64? {
        let now = DispatchTime.now().uptimeNanoseconds
        return position.withLockedValue { position in
            // Another thread may have read it after `now` was taken: that is fresh too.
            guard let kept = position.kept, now < kept.readAt || now - kept.readAt < positionLifetime else { return nil }
            return kept.seq
        }
    }

    /// The read models' position: the one read less than `positionLifetime` ago, or one `read`
    /// reads now, once for every request that asks meanwhile. When the kept one expires under a
    /// burst of requests, each would otherwise read the store, and on PostgreSQL wait in line
    /// for its few connections: the slowest requests waited hundreds of milliseconds.
    func position(reading read: @escaping @Sendable () throws -> Int64) async throws -> Int64 {
        if let seq = recentPosition() { return seq }
        return try await withCheckedThrowingContinuation { continuation in
            let (generation, first) = position.withLockedValue { position in
                let generation = position.generation
                let first = position.waiting[generation] == nil
                position.waiting[generation, default: []].append(continuation)
                return (generation, first)
            }
            guard first else { return }
            DispatchQueue.global().async {
                let result = Result { try read() }
                let waiting = self.position.withLockedValue { position in
                    if case .success(let seq) = result, position.generation == generation {
                        position.kept = (seq, DispatchTime.now().uptimeNanoseconds)
                    }
                    return position.waiting.removeValue(forKey: generation) ?? []
                }
                for waiter in waiting { waiter.resume(with: result) }
            }
        }
    }

    /// The generation to give `notePosition` for a read about to begin.
    var generation: UInt64 { position.withLockedValue { $0.generation } }

    /// Keeps `seq`, read since `generation` began, unless the models moved since.
    func notePosition(_ seq: Int64, readSince generation: UInt64) {
        let now = DispatchTime.now().uptimeNanoseconds
        position.withLockedValue { position in
            if position.generation == generation { position.kept = (seq, now) }
        }
    }

    /// The read models moved: the next request reads where they stand.
    func forgetPosition() {
        position.withLockedValue { position in
            position.kept = nil
            position.generation &+= 1
        }
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
