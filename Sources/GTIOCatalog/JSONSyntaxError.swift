/// Why a line is not valid JSON, with the byte offset where reading stopped.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public var offset: Int
    public var problem: String

    public init(offset: Int, problem: String) {
        self.offset = offset
        self.problem = problem
    }

    public var description: String { "\(problem) at byte \(offset + 1)" }
}
