/// What is wrong with a signing key, a public key or an anchor, in words for the operator.
public enum SigningKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    case badPublicKey(String)
    case badPrivateKey(path: String, reason: String)
    case cannotRead(path: String, reason: String)
    case alreadyExists(path: String)
    case cannotWrite(path: String, reason: String)
    case badAnchor(line: Int, reason: String)

    public var description: String {
        switch self {
        case .badPublicKey(let reason):
            "not a public key: \(reason)"
        case .badPrivateKey(let path, let reason):
            "\(path) is not a gtio signing key: \(reason) (gtio keys new makes one)"
        case .cannotRead(let path, let reason):
            "cannot read the key \(path): \(reason)"
        case .alreadyExists(let path):
            "\(path) already exists; a signing key is never overwritten (move it away first, or pass --out with a new path)"
        case .cannotWrite(let path, let reason):
            "cannot write the key \(path): \(reason)"
        case .badAnchor(let line, let reason):
            "anchor line \(line): \(reason) (expected the line gtio anchor prints)"
        }
    }
}
