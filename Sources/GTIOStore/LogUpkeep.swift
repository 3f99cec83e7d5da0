/// Upkeep a backend does after appends (SQLite's checkpoints of its write-ahead log), run on a
/// thread of its own rather than on the one that commits, for a process that appends without
/// pause (the collector): see `EventLog.startUpkeepAside()`.
public protocol LogUpkeep: AnyObject, Sendable {
    /// Says that a commit happened: the upkeep runs soon after, beside the next commits.
    func committed()
    /// Ends the upkeep and waits for its thread; upkeep after commits goes back to the writer.
    func stop()
}
