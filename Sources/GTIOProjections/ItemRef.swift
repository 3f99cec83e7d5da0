/// A flaggable item as `moderation.resolved` names it: `post:<id>` or `review:<id>`.
public struct ItemRef: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable { case post, review }

    public var kind: Kind
    public var id: String

    /// The item `text` names, nil when it is not of the form `post:<id>` or `review:<id>` with a non-empty id.
    public init?(_ text: String) {
        if text.hasPrefix("post:") {
            kind = .post
            id = String(text.dropFirst(5))
        } else if text.hasPrefix("review:") {
            kind = .review
            id = String(text.dropFirst(7))
        } else {
            return nil
        }
        if id.isEmpty { return nil }
    }

    public var description: String { "\(kind.rawValue):\(id)" }
}
