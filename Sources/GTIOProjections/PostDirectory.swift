/// The posts of the log in the order they were created, found by the key of their id (hearts
/// and votes are a third of a log, and a string lookup each cost more than the rest of applying
/// them); by id through `CommunityState.post(id:)`, which keys the id first.
///
/// It keeps no index by id: built anew from the millions of posts of a saved state, one took a
/// tenth of reading the state back, and the key table already indexes every id.
public struct PostDirectory: Sendable {
    /// Every post, in creation order; a post's place here is its slot.
    public internal(set) var values: [CommunityState.Post] = []
    /// Slot + 1 by id key; 0 for keys that are not posts.
    private var slotByKey: [Int32] = []

    public init() {}

    public var keys: [String] { values.map(\.id) }
    public var count: Int { values.count }

    func slot(key: Int) -> Int? {
        guard key < slotByKey.count, slotByKey[key] > 0 else { return nil }
        return Int(slotByKey[key]) - 1
    }

    /// Adds a post whose id has `key`; returns its slot.
    mutating func add(_ post: CommunityState.Post, key: Int) -> Int {
        let slot = values.count
        values.append(post)
        slotByKey.makeRoom(for: key, filling: 0)
        slotByKey[key] = Int32(slot + 1)
        return slot
    }
}

extension PostDirectory {
    /// The posts in slot order and the slots by id key.
    func write(to writer: inout StateWriter) {
        writer.write(values) { $1.write(to: &$0) }
        writer.write(slotByKey) { $0.write(Int($1)) }
    }

    init(from reader: inout StateReader) throws {
        self.init()
        values = try reader.readArray { try CommunityState.Post(from: &$0) }
        slotByKey = try reader.readArray { Int32(truncatingIfNeeded: try $0.readInt()) }
        guard slotByKey.allSatisfy({ Int($0) <= values.count }) else { throw FoldSnapshotError.malformed("a post slot beyond the posts") }
    }
}
