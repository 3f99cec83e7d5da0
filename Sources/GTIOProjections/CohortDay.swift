/// The users whose first sign-up fell on one UTC day, and how many of them were active again on
/// each retention offset day after it: one row of `rm_cohort_days`, so that retention reads a
/// row a cohort rather than one a user.
///
/// The fold keeps it as sign-ups and active days come (`CommunityState.cohortsByDay`).
public struct CohortDay: Sendable, Equatable {
    public internal(set) var users = 0
    /// Users active on the sign-up day + each of `ReadModels.retentionOffsets`, in that order.
    public internal(set) var retained = [0, 0, 0]

    public init() {}
}
