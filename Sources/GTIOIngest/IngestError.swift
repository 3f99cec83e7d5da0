/// Why an ingest could not start or go on.
public enum IngestError: Error, Sendable, Equatable, CustomStringConvertible {
    case fileMissing(path: String)
    case isAFolder(path: String)
    case cannotOpen(path: String, reason: String)
    case readFailed(reason: String)
    case noInput

    public var description: String {
        switch self {
        case .fileMissing(let path): "\(path): no such file (give JSON Lines files, or - for standard input)"
        case .isAFolder(let path): "\(path) is a folder, not a file (give the JSON Lines files inside it)"
        case .cannotOpen(let path, let reason): "\(path): cannot be read: \(reason)"
        case .readFailed(let reason): "reading the input failed: \(reason)"
        case .noInput: "no input given (give JSON Lines files, or - for standard input)"
        }
    }

    /// Whether the person named the wrong input (exit 2) rather than the system failing (exit 1).
    public var isUsageError: Bool {
        switch self {
        case .readFailed: false
        default: true
        }
    }
}
