import GTIOStore

/// What an ingest did, per source and in all.
public struct IngestReport: Sendable {
    public struct SourceReport: Sendable {
        public var source: IngestSource
        public var outcome: AppendOutcome
        /// A remark on the whole source: empty, or refused as binary.
        public var note: String?
    }

    public var sources: [SourceReport] = []
    public var total = AppendOutcome()
    public var bytes: Int64 = 0
    public var seconds: Double = 0
    /// The newest events appended, as the read models' catch-up reads them (`Ingestor.keptRecords`).
    public var appended = AppendedRecords(capacity: 0)
}
