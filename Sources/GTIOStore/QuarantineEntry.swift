import GTIOCatalog

/// A rejected line kept in quarantine, with its source and reason.
public struct QuarantineEntry: Sendable, Equatable {
    public var entry: Int64
    public var source: String
    public var line: Int
    public var reason: String
    /// The line's bytes exactly as read (not necessarily UTF-8).
    public var original: [UInt8]
    public var recorded: Timestamp
    /// `open`, or how it was settled: `appended` or `duplicate`.
    public var status: String
    public var seq: Int64?
    /// When it was settled; nil while open.
    public var settled: Timestamp?

    public init(
        entry: Int64, source: String, line: Int, reason: String, original: [UInt8], recorded: Timestamp, status: String,
        seq: Int64?, settled: Timestamp? = nil
    ) {
        self.entry = entry
        self.source = source
        self.line = line
        self.reason = reason
        self.original = original
        self.recorded = recorded
        self.status = status
        self.seq = seq
        self.settled = settled
    }

    /// The original for display: as text when it is UTF-8, else a note on its bytes.
    public var originalText: String {
        String(validating: original, as: UTF8.self) ?? "<\(original.count) bytes, not UTF-8>"
    }
}
