/// Why a saved fold state cannot be continued from; the writer folds the log instead and saves
/// a new one, so this is a notice, never a failure.
public enum FoldSnapshotError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes do not read as a state (cut short, or a value out of range).
    case malformed(String)
    /// The bytes read back differ from those saved (their SHA-256 does not match).
    case checksumMismatch(seq: Int64)
    /// The parts stored do not add up to the length the header gives.
    case incomplete(seq: Int64, expected: Int, found: Int)

    public var description: String {
        switch self {
        case .malformed(let what):
            "the saved fold state does not read back (\(what))"
        case .checksumMismatch(let seq):
            "the saved fold state at seq \(seq) fails its checksum"
        case .incomplete(let seq, let expected, let found):
            "the saved fold state at seq \(seq) holds \(found) bytes where its header gives \(expected)"
        }
    }
}
