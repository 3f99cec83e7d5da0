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
        // The prefixes are ASCII: their bytes are their scalars, and the id starts on a scalar.
        let bytes = text.utf8
        let prefix: Int
        if bytes.starts(with: "post:".utf8) {
            (kind, prefix) = (.post, 5)
        } else if bytes.starts(with: "review:".utf8) {
            (kind, prefix) = (.review, 7)
        } else {
            return nil
        }
        id = String(text.unicodeScalars[bytes.index(bytes.startIndex, offsetBy: prefix)...])
        if id.isEmpty { return nil }
    }

    public var description: String { "\(kind.rawValue):\(id)" }
}
