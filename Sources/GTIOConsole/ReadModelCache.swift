import Foundation
import GTIOProjections
import GTIOStore

/// Live read models per store, kept for the life of the process: in the REPL the first query
/// folds the log and every later one only catches up.
final class ReadModelCache: @unchecked Sendable {
    // @unchecked: `live` is only touched while holding `lock`.
    static let shared = ReadModelCache()
    private let lock = NSLock()
    private var live: [String: LiveReadModels] = [:]

    func live(for store: EventStore) throws -> LiveReadModels {
        lock.lock()
        defer { lock.unlock() }
        if let existing = live[store.path] { return existing }
        let created = try LiveReadModels(store: store)
        live[store.path] = created
        return created
    }

    /// The read models last caught up for `path`, if any, without waiting or touching the store.
    func latest(for path: String) -> ReadModels? {
        lock.lock()
        let found = live[path]
        lock.unlock()
        return found?.latest
    }
}
