/// What `verify` holds the log to beyond its own hash chain: the signing key's public half and
/// signed heads kept outside the store.
public struct LogAudit: Sendable {
    /// When set, every event must be covered by a head this key signed.
    public var key: SigningPublicKey?
    /// Heads from `gtio anchor`, each of which the log must still contain.
    public var anchors: [BatchSignature]

    public init(key: SigningPublicKey? = nil, anchors: [BatchSignature] = []) {
        self.key = key
        self.anchors = anchors
    }
}
