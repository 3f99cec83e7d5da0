/// The posts of the log in the order they were created, found by id, or by key on the fold's
/// hot path (hearts and votes are a third of a log, and a string lookup each cost more than
/// the rest of applying them).
public struct PostDirectory: Sendable {
    /// Every post, in creation order; a post's place here is its slot.
    public internal(set) var values: [CommunityState.Post] = []
    private var slotByID: IDMap<Int> = [:]
    /// Slot + 1 by id key; 0 for keys that are not posts.
    private var slotByKey: [Int32] = []

    public init() {}

    public subscript(id: String) -> CommunityState.Post? { slotByID[id].map { values[$0] } }

    public var keys: [String] { values.map(\.id) }
    public var count: Int { values.count }

    func slot(id: String) -> Int? { slotByID[id] }

    func slot(key: Int) -> Int? {
        guard key < slotByKey.count, slotByKey[key] > 0 else { return nil }
        return Int(slotByKey[key]) - 1
    }

    /// Adds a post whose id has `key`; returns its slot.
    mutating func add(_ post: CommunityState.Post, key: Int) -> Int {
        let slot = values.count
        values.append(post)
        slotByID[post.id] = slot
        slotByKey.makeRoom(for: key, filling: 0)
        slotByKey[key] = Int32(slot + 1)
        return slot
    }
}

extension PostDirectory {
    /// The posts in slot order and the slots by id key; the slots by id are rebuilt from them.
    func write(to writer: inout StateWriter) {
        writer.write(values) { $1.write(to: &$0) }
        writer.write(slotByKey) { $0.write(Int($1)) }
    }

    init(from reader: inout StateReader) throws {
        self.init()
        values = try reader.readArray { try CommunityState.Post(from: &$0) }
        slotByKey = try reader.readArray { Int32(truncatingIfNeeded: try $0.readInt()) }
        slotByID.reserveCapacity(values.count)
        // By index: enumerating the posts copied each one, its strings and tables, for its id.
        for slot in values.indices { slotByID[values[slot].id] = slot }
        guard slotByKey.allSatisfy({ Int($0) <= values.count }) else { throw FoldSnapshotError.malformed("a post slot beyond the posts") }
    }
}
