import GTIOTables

/// A saved insight as the nightly report shows it: its name, its command, and its answer for
/// the report's day, or why it could not be given.
public struct SavedInsightAnswer: Sendable {
    public var name: String
    public var command: String
    public var answer: Result<ResultTable, SavedInsightFailure>

    public init(name: String, command: String, answer: Result<ResultTable, SavedInsightFailure>) {
        self.name = name
        self.command = command
        self.answer = answer
    }
}

/// Why a saved insight gave no answer (the log changed, or the command no longer parses).
public struct SavedInsightFailure: Error, Sendable, Equatable {
    public var reason: String

    public init(_ reason: String) {
        self.reason = reason
    }
}
