import Foundation

/// A read done on a thread of its own for a writer that must not wait for it, and taken by a
/// later call of the writer once done: one read at a time, its value kept under the key it was
/// asked for, and dropped when the writer asks under another key (what it was read for no
/// longer holds).
final class AsideRead<Key: Equatable & Sendable, Value: Sendable>: @unchecked Sendable {
    // @unchecked: `reading` and `done` are only touched while holding `lock`.

    private let queue: DispatchQueue
    private let lock = NSLock()
    private var reading = false
    private var done: (key: Key, value: Value)?

    init(label: String) {
        queue = DispatchQueue(label: label, qos: .utility)
    }

    /// The value read for `key`, once there is one (the next call asks again); nil until then,
    /// `read` being started for `key` unless another read is under way. A read that returns
    /// nil (the file busy, say) leaves the value to be asked for again.
    func take(_ key: Key, orStart read: @escaping @Sendable () -> Value?) -> Value? {
        lock.lock()
        defer { lock.unlock() }
        if let done {
            self.done = nil
            if done.key == key { return done.value }
        }
        guard !reading else { return nil }
        reading = true
        queue.async { [self] in
            let value = read()
            lock.lock()
            reading = false
            if let value { done = (key, value) }
            lock.unlock()
        }
        return nil
    }

    /// Waits until no read is under way (for tests).
    func settle() {
        queue.sync {}
    }
}
