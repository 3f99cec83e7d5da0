/// The read models kept as SQL tables, each with its own checkpoint.
public enum ReadModelName: String, Sendable, CaseIterable {
    case followGraph = "follow_graph"
    case posts
    case verdicts
    case moderation
    case products
    case engagement
    case anomalies

    /// The checkpoint row's name in `checkpoints`.
    public var checkpointName: String { "read_model." + rawValue }
}
