import DequeModule
import Foundation

/// A bounded hand-off between two threads (ingest: validating → appending; rebuild: scanning →
/// folding): the producer waits while `capacity` items are pending, so memory stays flat.
public final class BatchChannel<Element: Sendable>: @unchecked Sendable {
    // @unchecked: `items`, `closed` and `cancelled` are only touched while holding `condition`.
    private let condition = NSCondition()
    private var items = Deque<Element>()
    private var closed = false
    private var cancelled = false
    private let capacity: Int

    public init(capacity: Int) {
        self.capacity = capacity
    }

    /// Waits for room and enqueues; false when the receiver gave up (stop producing).
    public func send(_ item: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while items.count >= capacity && !cancelled { condition.wait() }
        if cancelled { return false }
        items.append(item)
        condition.broadcast()
        return true
    }

    /// The next item, or nil once the producer closed the channel and it is drained.
    public func receive() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty && !closed { condition.wait() }
        guard let item = items.popFirst() else { return nil }
        condition.broadcast()
        return item
    }

    /// The next item if one is pending, without waiting.
    public func tryReceive() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        guard let item = items.popFirst() else { return nil }
        condition.broadcast()
        return item
    }

    /// The producer is done.
    public func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// The receiver stops early: pending items are dropped and `send` returns false from now on.
    public func cancel() {
        condition.lock()
        cancelled = true
        items.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}
