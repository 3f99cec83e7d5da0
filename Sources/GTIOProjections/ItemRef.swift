/// A flaggable item as `moderation.resolved` names it: `post:<id>` or `review:<id>`.
public struct ItemRef: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        case post, review

        /// What a moderator's preview shows for an item of this kind whose text is `text`: a
        /// post without a description says so (a review always has its text).
        public func previewText(_ text: String?) -> String {
            text ?? (self == .post ? "(no description)" : "")
        }
    }

    public var kind: Kind
    public var id: String

    /// The item `text` names, nil when it is not of the form `post:<id>` or `review:<id>` with a non-empty id.
    /// Read by scalars, as the validator reads it: by characters, an id starting with a
    /// combining mark would take the colon into its first `Character`.
    public init?(_ text: String) {
        let scalars = text.unicodeScalars
        if scalars.starts(with: "post:".unicodeScalars) {
            kind = .post
            id = String(scalars.dropFirst(5))
        } else if scalars.starts(with: "review:".unicodeScalars) {
            kind = .review
            id = String(scalars.dropFirst(7))
        } else {
            return nil
        }
        if id.isEmpty { return nil }
    }

    public var description: String { "\(kind.rawValue):\(id)" }
}
