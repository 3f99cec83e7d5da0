/// What a quarantine retry did.
public struct QuarantineRetryOutcome: Sendable, Equatable {
    public var appended = 0
    public var duplicates = 0
    public var stillRejected = 0
    public init() {}
}
