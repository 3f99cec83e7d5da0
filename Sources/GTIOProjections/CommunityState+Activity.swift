/// Who was active when, by id: the key-indexed arrays of the fold seen through the ids.
extension CommunityState {
    /// Whether `user` appears in the log in view, as an actor or as another user's target.
    public func knows(_ user: String) -> Bool {
        guard let key = userKeys.key(user), key < known.count else { return false }
        return known[key]
    }

    /// Every user known to the console.
    public var knownUsers: IDSet {
        IDSet(known.indices.lazy.filter { known[$0] }.map { userKeys[$0] })
    }

    /// The key pair of a user and another id (a product heart's user and product, say); nil when
    /// either never appeared.
    public func pair(_ first: String, _ second: String) -> KeyPair? {
        guard let a = userKeys.key(first), let b = keys.key(second) else { return nil }
        return KeyPair(a, b)
    }

    /// Whether `user` was active on the UTC day `day`.
    public func wasActive(_ user: String, on day: Int64) -> Bool {
        guard let key = userKeys.key(user) else { return false }
        return userActivity.contains(key, on: day)
    }
}
