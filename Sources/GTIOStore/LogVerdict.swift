/// What `verify` found: intact, or the first place where the log is not what was appended.
public enum LogVerdict: Sendable, Equatable {
    case intact(events: Int64, head: [UInt8])
    case broken(seq: Int64, problem: String)
}
