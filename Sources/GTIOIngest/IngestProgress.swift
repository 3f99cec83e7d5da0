import GTIOStore

/// How far an ingest has come, reported after each committed batch.
public struct IngestProgress: Sendable {
    public var source: IngestSource
    /// Bytes of the current source consumed, and its size when known (a file, not a pipe).
    public var bytesRead: Int64
    public var bytesTotal: Int64?
    /// Bytes consumed across every source so far.
    public var bytesReadOverall: Int64
    public var outcome: AppendOutcome
}
