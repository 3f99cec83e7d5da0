import GRDB
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

    init(row: Row) {
        entry = row["entry"]
        source = row["source"]
        line = row["line"]
        reason = row["reason"]
        let stored: DatabaseValue = row["original"]
        switch stored.storage {
        case .string(let text): original = Array(text.utf8)
        case .blob(let data): original = Array(data)
        default: original = []
        }
        recorded = Timestamp(milliseconds: row["recorded"])
        status = row["status"]
        seq = row["seq"]
    }

    /// The original for display: as text when it is UTF-8, else a note on its bytes.
    public var originalText: String {
        String(validating: original, as: UTF8.self) ?? "<\(original.count) bytes, not UTF-8>"
    }
}
