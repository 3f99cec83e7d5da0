import Foundation
import GRDB

/// Reads and sorts the dedup index's next run of ids on a thread of its own, for a writer that
/// appends without pause (the collector), so that no commit waits while it is done.
///
/// Starting a run on the writer (`RecentIDs.move`) reads its 65,536 ids or more and sorts them
/// inside a commit, which every request of that commit, and those queued behind it, waits for
/// (docs/PERFORMANCE.md has the figures). Here the run is asked for by its bounds and taken by a
/// later append once sorted; it holds only ids of committed events, which another connection
/// reads in a snapshot of its own. A sorted run is taken by an append that asks for a run from
/// the same start, however far the log went since; asked for from another start (the mark
/// moved, or the writer read its waiting ids afresh), it is dropped.
final class RunSorter: Sendable {
    /// A run's bounds: the ids of the events after `after` through `through`, as read when the
    /// writer's waiting ids were read afresh for the `generation`th time.
    struct Bounds {
        var generation: Int
        var after: Int64
        var through: Int64
    }

    /// What a sorted run is taken by: a run from the same start, however far the log went since.
    private struct Start: Equatable {
        var generation: Int
        var after: Int64
    }

    private struct Sorted {
        var ids: [String]
        var through: Int64
    }

    private let reader: DatabasePool
    private let aside = AsideRead<Start, Sorted>(label: "gtio-run-sorter")

    init(reader: DatabasePool) {
        self.reader = reader
    }

    /// A run from `bounds`' start, sorted by the ids' bytes, and where it ends, once one is;
    /// nil until then, the run of `bounds` being asked for unless another is being read.
    func run(_ bounds: Bounds) -> (ids: [String], through: Int64)? {
        let reader = self.reader
        let sorted = aside.take(Start(generation: bounds.generation, after: bounds.after)) {
            // Sorted after the read, so that the snapshot is held for the reading only.
            let ids = try? reader.read { db in try RecentIDs.ids(after: bounds.after, through: bounds.through, in: db) }
            return ids.map { Sorted(ids: RecentIDs.sortedByBytes($0), through: bounds.through) }
        }
        return sorted.map { ($0.ids, $0.through) }
    }

    /// Waits until no run is being read (for tests).
    func settle() {
        aside.settle()
    }
}
