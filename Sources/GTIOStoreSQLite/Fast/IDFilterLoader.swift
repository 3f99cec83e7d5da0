import Foundation
import GRDB
import GRDBSQLite

/// Reads every id of the log into an `IDFilter` on a thread of its own, for a writer that
/// appends without pause (the collector), which then looks up in `event_ids` only the ids the
/// filter may have seen.
///
/// Reading the filter scans every id of the log: too long for a commit to wait, and more than a
/// process that appends once would ever save. The writer asks for a filter between commits,
/// notes the ids it sees meanwhile, and takes the filter once read (`RecentIDs`).
final class IDFilterLoader: @unchecked Sendable {
    // @unchecked: `minimumCapacity` is set before the loader is handed to a writer (tests).

    private let reader: DatabasePool
    private let aside = AsideRead<Int, IDFilter>(label: "gtio-id-filter")

    /// The fewest ids a filter is made for: it grows past them, but each layer added makes
    /// every look-up read one more cache line (tests make it small, to see layers added).
    var minimumCapacity = 4_000_000

    init(reader: DatabasePool) {
        self.reader = reader
    }

    /// The filter read for `generation` of the writer's waiting ids, once there is one; asks
    /// for it otherwise, unless one is being read.
    ///
    /// The reading starts after this call, in a snapshot of its own: it holds every id
    /// committed when this is called, and the caller notes every id it sees from then on.
    func filter(for generation: Int) -> IDFilter? {
        let reader = self.reader, minimumCapacity = self.minimumCapacity
        return aside.take(generation) {
            try? reader.read { db in try Self.read(in: db, minimumCapacity: minimumCapacity) }
        }
    }

    /// Waits until no filter is being read (for tests).
    func settle() {
        aside.settle()
    }

    /// Every id of the log as the snapshot has it: those `event_ids` holds, and those of the
    /// events after its mark.
    private static func read(in db: Database, minimumCapacity: Int) throws -> IDFilter {
        let end = try Int64.fetchOne(db, sql: "SELECT IFNULL(MAX(seq), 0) FROM events") ?? 0
        var filter = IDFilter(capacity: max(minimumCapacity, 2 * Int(end)))
        let through = try RecentIDs.storedThrough(in: db)
        let indexed = SQLiteStatementBinding(try db.makeStatement(sql: "SELECT id FROM event_ids"))
        let waiting = SQLiteStatementBinding(try db.makeStatement(sql: "SELECT id FROM events WHERE seq > ?"))
        waiting.bind(1, through)
        for rows in [indexed, waiting] {
            try rows.forEachRow(db) { row in
                let bytes = SQLiteRowCursor.bytes(row, 0) ?? UnsafeBufferPointer(start: nil, count: 0)
                filter.insert(RecentIDs.fullHash(UnsafeRawBufferPointer(bytes)))
                return true
            }
        }
        return filter
    }
}
