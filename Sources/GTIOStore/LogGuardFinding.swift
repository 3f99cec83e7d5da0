/// One of the log's append-only guards (the triggers that refuse changes to its tables) that is
/// not as this build makes it.
///
/// The hash chain proves the events whatever happened to the guards; the guards are what stops
/// a client, the `sqlite3` shell or `psql` included, from changing them in the first place. One
/// missing or altered means someone with write access changed the store's schema, which
/// `verify` reports even while every event is still as appended.
public struct LogGuardFinding: Sendable, Equatable, CustomStringConvertible {
    public enum Problem: Sendable, Equatable {
        /// The guard is gone.
        case missing
        /// A guard of that name is there, defined otherwise.
        case changed
        /// The guard is as made, but the function it calls (PostgreSQL) is not.
        case functionChanged(String)
        /// The guard is there but does not fire (PostgreSQL's `DISABLE TRIGGER`).
        case disabled
        /// A trigger on the log's tables that gtio did not make.
        case foreign
    }

    /// The trigger's name.
    public var name: String
    /// The table it is (or was to be) on.
    public var table: String
    public var problem: Problem
    /// What the guard refuses, in words (empty for a foreign trigger).
    public var refuses: String

    public init(name: String, table: String, problem: Problem, refuses: String = "") {
        self.name = name
        self.table = table
        self.problem = problem
        self.refuses = refuses
    }

    public var description: String {
        let what = refuses.isEmpty ? "" : " (it refuses: \(refuses))"
        switch problem {
        case .missing: return "the trigger \(name) on \(table) is missing\(what)"
        case .changed: return "the trigger \(name) on \(table) is not as gtio makes it\(what)"
        case .functionChanged(let function):
            return "the trigger \(name) on \(table) calls \(function)(), which is not as gtio makes it\(what)"
        case .disabled: return "the trigger \(name) on \(table) is disabled\(what)"
        case .foreign: return "the trigger \(name) on \(table) was not made by gtio"
        }
    }
}
