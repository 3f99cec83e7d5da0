import GTIOProjections

/// Errors of the console itself, each with the words and exit code the person gets.
public enum ConsoleError: Error, Sendable, Equatable, CustomStringConvertible {
    case badArgument(String)
    case notFound(String)
    /// Something that was not the person's doing went wrong (a server that stopped).
    case failed(String)

    public var description: String {
        switch self {
        case .badArgument(let message), .notFound(let message), .failed(let message): message
        }
    }

    /// No post has the id `post` that `command` was given. A queue item's id (`post:ID`, as
    /// `flags` and `decisions` list them) whose post exists is pointed at it and at `item`.
    static func unknownPost(_ post: String, command: String, in models: StoredReadModels) throws -> ConsoleError {
        if let id = try models.post(namedByItemID: post) {
            return .notFound("unknown post \"\(post)\": that is the id of a queue item; its post's id is \"\(id)\" (try: \(command) \(id), or item \(post))")
        }
        return .notFound("unknown post \"\(post)\": no post.created with that id in the log (try: looks new)")
    }

    /// CONSOLE.md: 1 failure, 2 bad usage.
    public var exitCode: Int32 {
        switch self {
        case .badArgument: 2
        case .notFound, .failed: 1
        }
    }
}
