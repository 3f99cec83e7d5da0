/// Why a line was not appended: one reason naming the field, the first check that failed.
public struct Rejection: Error, Sendable, Equatable, CustomStringConvertible {
    /// The field at fault (`id`, `data.post`, `data.location.lat` …), nil when the line as a whole is.
    public var field: String?
    public var problem: String

    public init(field: String?, _ problem: String) {
        self.field = field
        self.problem = problem
    }

    public var description: String {
        guard let field else { return problem }
        return "\(field): \(problem)"
    }
}
