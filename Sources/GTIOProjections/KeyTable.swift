import GTIOCatalog
import GTIOStore

/// Dense integer keys for the ids of the log (users, devices, posts, reviews): each distinct id
/// gets one when first seen, so that the fold indexes arrays where it would hash strings.
public struct KeyTable: Sendable {
    /// The id of each key; key 0 stands for "none".
    public private(set) var ids: [String] = [""]
    private var index = IDIndex()

    public init() {}

    /// One more than the largest key.
    public var count: Int { ids.count }

    /// The key of `id`, nil when the log in view never mentioned it.
    public func key(_ id: String) -> Int? { index.key(id) }

    public subscript(key: Int) -> String { ids[key] }

    mutating func intern(_ id: String?) -> Int {
        guard let id else { return 0 }
        return index.key(id) {
            // Keys fit 31 bits: `IDIndex` stores them as Int32 and `KeyPair` packs two into an Int.
            precondition(ids.count < Int(Int32.max), "more than 2^31 distinct ids in one log")
            ids.append(id)
            return ids.count - 1
        }
    }

    /// Sets the keys of `record`'s ids, adding the ids not seen before.
    public mutating func assign(_ record: inout LogRecord) {
        record.keys.user = intern(record.user)
        record.keys.device = intern(record.device)
        record.keys.subject = intern(record.subject)
        // Only a review's `object` is an id (its post); elsewhere it is free text like a view number.
        if record.type == .reviewAdded { record.keys.object = intern(record.object) }
        if !record.list.isEmpty { record.keys.list = record.list.map { intern($0) } }
        record.keys.assigned = true
    }
}

/// A key table lent to the scanning thread for the length of one scan.
final class KeyTableLoan: @unchecked Sendable {
    // @unchecked: only the scanning thread touches `table` until the scan has returned, and the
    // folding thread only after (the scan's channel orders the two).
    var table: KeyTable

    init(_ table: KeyTable) {
        self.table = table
    }
}
