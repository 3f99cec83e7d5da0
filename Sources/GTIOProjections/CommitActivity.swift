import Foundation

/// Whether the log's writer in this process is committing, so that a catch-up of the read
/// models can give way to it.
///
/// A collector's requests wait for its commits, and a catch-up running beside a commit slows it
/// even when the catch-up's thread yields every core it is asked for (the idle policy): the two
/// still share the machine's caches and memory bandwidth. A catch-up handed this waits for each
/// commit to end between slices of its work (`LiveReadModels.GiveWay`). docs/PERFORMANCE.md has
/// the measurements.
public final class CommitActivity: @unchecked Sendable {
    // @unchecked: `committing` is only read or written while holding `condition`.
    private let condition = NSCondition()
    private var committing = false

    public init() {}

    /// A commit starts.
    public func begin() {
        condition.lock()
        committing = true
        condition.unlock()
    }

    /// The commit has ended: whoever waits for it goes on.
    public func end() {
        condition.lock()
        committing = false
        condition.broadcast()
        condition.unlock()
    }

    /// Returns once no commit runs, or after `patience` at most (a writer committing without
    /// pause still leaves the catch-up a slice of work per `patience`), or once `stop` says so
    /// after a `wake()`.
    func waitForCommit(patience: TimeInterval, unless stop: () -> Bool) {
        condition.lock()
        defer { condition.unlock() }
        guard committing else { return }
        let deadline = Date(timeIntervalSinceNow: patience)
        while committing && !stop() && condition.wait(until: deadline) {}
    }

    /// Wakes whoever waits for the commit, to look at their `stop` again.
    func wake() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }
}
