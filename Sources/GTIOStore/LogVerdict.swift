/// What `verify` found: intact, or the first place where the log is not what was appended.
public enum LogVerdict: Sendable, Equatable {
    /// Every check passed; `unchecked` names, in words, what this store could not check (an
    /// operator can make it checkable: each says how).
    case intact(events: Int64, head: [UInt8], signatures: SignatureFindings, unchecked: [String] = [])
    case broken(seq: Int64, problem: String)

    /// This verdict, where intact, naming `unchecked` too.
    public func leaving(_ unchecked: [String]) -> LogVerdict {
        guard case .intact(let events, let head, let signatures, let before) = self else { return self }
        return .intact(events: events, head: head, signatures: signatures, unchecked: before + unchecked)
    }
}

/// What an intact log's signatures showed.
public struct SignatureFindings: Sendable, Equatable {
    /// Batches carrying a signature, by any key.
    public var signedBatches: Int
    /// The last seq covered by a signed head (by the audit's key when it gave one).
    public var lastSignedSeq: Int64
    /// Whether the signatures were checked against the audit's key.
    public var checked: Bool
    /// How many anchors the log was held to.
    public var anchors: Int

    public init(signedBatches: Int = 0, lastSignedSeq: Int64 = 0, checked: Bool = false, anchors: Int = 0) {
        self.signedBatches = signedBatches
        self.lastSignedSeq = lastSignedSeq
        self.checked = checked
        self.anchors = anchors
    }
}
