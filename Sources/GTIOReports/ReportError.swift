import GTIOCatalog

/// Why a report could not be made.
public enum ReportError: Error, CustomStringConvertible, Equatable {
    case emptyLog
    case dateOutsideLog(String, first: String, last: String)
    case noFullDay(newest: String)
    case cannotWrite(String, String)
    /// `--out` names a file where the reports' folder should be.
    case outIsAFile(String)

    /// Bad usage (exit code 2) rather than a failure.
    public var isUsageError: Bool {
        switch self {
        case .cannotWrite: false
        default: true
        }
    }

    public var description: String {
        switch self {
        case .emptyLog:
            "the log is empty: ingest events first (gtio ingest FILE)"
        case let .dateOutsideLog(date, first, last):
            "no report for \(date): the log covers \(first) to \(last) (give --date within those days)"
        case let .noFullDay(newest):
            "the log has no full UTC day yet (its newest event is at \(newest)): give --date YYYY-MM-DD"
        case let .cannotWrite(path, why):
            "cannot write the report to \(path): \(why)"
        case let .outIsAFile(path):
            "--out \(path) is a file; give a folder (each day's report goes in FOLDER/DATE/)"
        }
    }
}
