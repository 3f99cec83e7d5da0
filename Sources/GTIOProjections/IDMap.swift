import GTIOCatalog

/// A dictionary keyed by ids (of users, posts, reviews, items, devices) told apart by their
/// bytes, as the rules and SQLite tell them apart.
///
/// A `String` key would not do: Swift's `String` equality is canonical equivalence, so "é"
/// written as U+00E9 and as "e" followed by U+0301 would be one user, one post. This reads and
/// writes like a `[String: Value]` and iterates as one, so that the rules read as before.
public struct IDMap<Value> {
    fileprivate var storage: [ExactText: Value]

    public init() { storage = [:] }

    public init(minimumCapacity: Int) { storage = Dictionary(minimumCapacity: minimumCapacity) }

    public subscript(id: String) -> Value? {
        get { storage[ExactText(id)] }
        _modify { yield &storage[ExactText(id)] }
    }

    public subscript(id: String, default defaultValue: @autoclosure () -> Value) -> Value {
        get { storage[ExactText(id), default: defaultValue()] }
        _modify { yield &storage[ExactText(id), default: defaultValue()] }
    }

    public var count: Int { storage.count }
    public var isEmpty: Bool { storage.isEmpty }
    /// The ids, in no particular order.
    public var keys: LazyMapSequence<Dictionary<ExactText, Value>.Keys, String> { storage.keys.lazy.map(\.text) }
    public var values: Dictionary<ExactText, Value>.Values { storage.values }

    public mutating func removeAll() { storage.removeAll() }

    public mutating func reserveCapacity(_ capacity: Int) { storage.reserveCapacity(capacity) }

    /// Changes every value in place.
    mutating func updateEach(_ body: (inout Value) throws -> Void) rethrows {
        var index = storage.values.startIndex
        while index != storage.values.endIndex {
            try body(&storage.values[index])
            storage.values.formIndex(after: &index)
        }
    }

}

extension IDMap: Collection {
    public typealias Index = Dictionary<ExactText, Value>.Index

    public var startIndex: Index { storage.startIndex }
    public var endIndex: Index { storage.endIndex }
    public func index(after index: Index) -> Index { storage.index(after: index) }

    public subscript(position: Index) -> (key: String, value: Value) {
        let entry = storage[position]
        return (key: entry.key.text, value: entry.value)
    }
}

extension IDMap: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, Value)...) {
        self.init(minimumCapacity: elements.count)
        for (id, value) in elements { self[id] = value }
    }
}

extension IDMap: Sendable where Value: Sendable {}
extension IDMap: Equatable where Value: Equatable {}

/// A set of ids told apart by their bytes (see `IDMap`).
public struct IDSet: Sendable, Equatable {
    private var storage: Set<ExactText>

    public init() { storage = [] }

    public init(_ ids: some Sequence<String>) { storage = Set(ids.lazy.map(ExactText.init)) }

    public func contains(_ id: String) -> Bool { storage.contains(ExactText(id)) }

    @discardableResult
    public mutating func insert(_ id: String) -> (inserted: Bool, memberAfterInsert: String) {
        let (inserted, member) = storage.insert(ExactText(id))
        return (inserted, member.text)
    }

    public mutating func formUnion(_ ids: some Sequence<String>) { storage.formUnion(ids.lazy.map(ExactText.init)) }

    public func union(_ other: IDSet) -> IDSet {
        var union = self
        union.storage.formUnion(other.storage)
        return union
    }

    public var count: Int { storage.count }
    public var isEmpty: Bool { storage.isEmpty }
}

extension IDSet: Collection {
    public typealias Index = Set<ExactText>.Index

    public var startIndex: Index { storage.startIndex }
    public var endIndex: Index { storage.endIndex }
    public func index(after index: Index) -> Index { storage.index(after: index) }
    public subscript(position: Index) -> String { storage[position].text }
}

extension IDSet: ExpressibleByArrayLiteral {
    public init(arrayLiteral ids: String...) { self.init(ids) }
}
