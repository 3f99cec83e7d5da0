import ArgumentParser

/// How a command prints its answer.
public enum OutputFormat: String, Sendable, CaseIterable, ExpressibleByArgument {
    /// Aligned columns for people.
    case table
    /// RFC 4180 with a header row.
    case csv
    /// A JSON array of objects (one object for single-record answers).
    case json
    /// A Markdown table, for chat and documents.
    case markdown
}
