/// Times of one kind of event by user key, each user's ascending: a rule finds a user's times
/// without hashing an id, and a saved state puts them back without a table of ids.
struct TimesByUser: Sendable, Equatable {
    private var times: [[Int64]] = []

    /// The times of the user with key `key`, ascending; empty for none.
    subscript(key: Int) -> [Int64] { key < times.count ? times[key] : [] }

    /// Adds `time` for the user with key `key`, in order (after any equal ones).
    mutating func insert(_ time: Int64, forUser key: Int) {
        times.makeRoom(for: key, filling: [])
        times[key].insertSorted(time)
    }

    /// The users with times, as keys with their times: only those are saved.
    func write(to writer: inout StateWriter) {
        writer.write(times.indices.filter { !times[$0].isEmpty }) { writer, key in
            writer.write(key)
            writer.write(times[key]) { $0.write($1) }
        }
    }

    init() {}

    /// What `write` wrote; keys must be below `users` (the user keys of the state it belongs to).
    init(from reader: inout StateReader, users: Int) throws {
        let count = try reader.readCount()
        for _ in 0..<count {
            let key = try reader.readCount()
            guard key > 0, key < users else { throw FoldSnapshotError.malformed("times of a user key \(key) beyond \(users)") }
            let values = try reader.readArray { try $0.readInt64() }
            guard !values.isEmpty, zip(values, values.dropFirst()).allSatisfy({ $0 <= $1 }) else {
                throw FoldSnapshotError.malformed("a user's times not in order")
            }
            times.pad(to: key + 1, with: [])
            times[key] = values
        }
    }
}
