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

    /// CONSOLE.md: 1 failure, 2 bad usage.
    public var exitCode: Int32 {
        switch self {
        case .badArgument: 2
        case .notFound, .failed: 1
        }
    }
}
