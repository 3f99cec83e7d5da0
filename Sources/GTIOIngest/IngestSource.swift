import Foundation

/// One input of an ingest: a JSON Lines file, or standard input.
public enum IngestSource: Sendable, Equatable {
    case file(path: String)
    case standardInput

    /// `-` is standard input; anything else a file path.
    public init(argument: String) {
        self = argument == "-" ? .standardInput : .file(path: argument)
    }

    /// The name recorded in the log's batches and the quarantine: the file's absolute path with
    /// symbolic links resolved (one file reached two ways is one source), or `<stdin>`.
    public var name: String {
        switch self {
        case .file(let path): URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        case .standardInput: "<stdin>"
        }
    }

    /// What the person typed, for messages.
    public var displayName: String {
        switch self {
        case .file(let path): path
        case .standardInput: "standard input"
        }
    }
}
