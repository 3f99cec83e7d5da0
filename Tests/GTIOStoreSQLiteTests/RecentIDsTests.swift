import Foundation
import GRDB
import GTIOSimulation
import GTIOStore
import GTIOTestSupport
import Testing
@testable import GTIOStoreSQLite

/// The newest events' ids wait outside the dedup index and move in by sorted runs
/// (`RecentIDs`); dedup stays exact whoever appends, whatever rolls back.
@Suite struct RecentIDsTests {
    let folder = TemporaryDirectory()
    struct Undone: Error {}

    /// Appends from two store objects on one file (each keeps its own recent ids, as two
    /// processes would), in runs of a few ids, with ids repeated within a batch, within a
    /// transaction, among the waiting ids and among the moved ones, and with transactions
    /// rolled back after their appends: each id is in the log once, at its first committed
    /// append, the log verifies, and `event_ids` holds every id through its mark.
    /// Odd seeds keep two bits of each id's hash, so that ids collide all the time (as crafted
    /// ones would, were the hash not seeded per process). Half the seeds give one store, or
    /// both, a filter of the log's ids read aside (`IDFilterLoader`), small enough to grow.
    @Test(arguments: 0..<24) func everyIDIsLoggedOnceAtItsFirstCommittedAppend(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let path = folder.file("recent-\(seed).gtio")
        let stores = try [SQLiteStore(path: path), SQLiteStore(path: path)]
        if seed % 2 == 1 { for store in stores { store.recentIDs.hashMask = 0b11 } }
        // Runs that move in one append, and runs longer than an append moves (64 and twice its
        // new ids), which a transaction rolled back can interrupt.
        for store in stores { store.recentIDs.minimumRun = [1, 8, 40, 150].randomElement(using: &random)! }
        // Batches large enough to insert their ids with their events, in turn with waiting ones.
        for store in stores { store.recentIDs.largeBatch = [6, 10, 4_096].randomElement(using: &random)! }
        // Seeds 2, 3, 6, 7 … sort one store's runs beside its writer, taken whenever they are ready.
        if seed % 4 >= 2 { stores[0].recentIDs.runSorter = RunSorter(reader: stores[0].pool) }
        let loaders = stores.prefix(seed % 8 >= 6 ? 2 : seed % 8 >= 4 ? 1 : 0).map { store in
            let loader = IDFilterLoader(reader: store.pool)
            loader.minimumCapacity = [4, 64].randomElement(using: &random)!
            store.recentIDs.filterLoader = loader
            return loader
        }
        func ids() -> [String] {
            (0..<Int.random(in: 0...12, using: &random)).map { _ in "e\(Int.random(in: 0..<400, using: &random))" }
        }
        var expected: [String] = []
        var logged: Set<String> = []
        var filterTaken = false
        func expect(_ ids: [String], _ outcome: AppendOutcome) {
            let new = ids.filter { logged.insert($0).inserted }
            expected += new
            #expect(outcome.appended == new.count, "\(ids)")
            #expect(outcome.duplicates == ids.count - new.count, "\(ids)")
        }
        for _ in 0..<150 {
            let store = stores[Int.random(in: 0...1, using: &random)]
            // Filters read at any point: before an append, within a transaction, after a rollback.
            if Int.random(in: 0..<4, using: &random) == 0 { loaders.forEach { $0.settle() } }
            switch Int.random(in: 0..<6, using: &random) {
            case 0:
                let undone = ids()
                #expect(throws: Undone.self) {
                    try store.write { tx in
                        _ = try tx.append(batch(undone.map { heart($0) }))
                        throw Undone()
                    }
                }
            case 1:
                let (first, second) = (ids(), ids())
                let outcomes = try store.write { tx in
                    [try tx.append(batch(first.map { heart($0) })), try tx.append(batch(second.map { heart($0) }))]
                }
                expect(first, outcomes[0])
                expect(second, outcomes[1])
            default:
                let appended = ids()
                expect(appended, try store.append(batch(appended.map { heart($0) })))
            }
            if store.recentIDs.filteredIDs != nil { filterTaken = true }
        }
        let (inLog, through, indexed) = try stores[0].pool.read { db in
            (try String.fetchAll(db, sql: "SELECT id FROM events ORDER BY seq"),
             try Int64.fetchOne(db, sql: "SELECT seq FROM event_ids_through") ?? 0,
             Set(try String.fetchAll(db, sql: "SELECT id FROM event_ids")))
        }
        #expect(inLog == expected)
        #expect(through > 0, "runs moved ids into event_ids")
        #expect(filterTaken == !loaders.isEmpty, "a filter was taken and used")
        #expect(Set(expected.prefix(Int(through))).isSubset(of: indexed))
        #expect(indexed.isSubset(of: Set(expected)))
        guard case .intact = try stores[0].verify() else {
            Issue.record("the log does not verify: \(try stores[0].verify())")
            return
        }
    }

    /// A transaction rolled back after its append moved a slice of a run into `event_ids`
    /// takes the slice back out: the run moves it again, and the ids stay duplicates.
    @Test func aSliceRolledBackIsMovedAgain() throws {
        let store = try SQLiteStore(path: folder.file("undone.gtio"))
        store.recentIDs.minimumRun = 200
        // The twentieth batch starts a run of the 200 ids and moves 84 of them in (twice its 10, and 64).
        for first in stride(from: 0, to: 200, by: 10) {
            _ = try store.append(batch((first..<first + 10).map { heart("a\($0)") }))
        }
        // Only a duplicate: nothing appended, but 64 more of the run move in, until the rollback.
        #expect(throws: Undone.self) {
            try store.write { tx in
                #expect(try tx.append(batch([heart("a0")])).duplicates == 1)
                throw Undone()
            }
        }
        // The next append reads the waiting ids afresh, so the run it starts (through seq 201)
        // goes in whole.
        _ = try store.append(batch([heart("b0")]))
        let through = try store.pool.read { try Int64.fetchOne($0, sql: "SELECT seq FROM event_ids_through") }
        #expect(through == 201)
        for round in 1..<5 { _ = try store.append(batch([heart("b\(round)")])) }
        guard case .intact = try store.verify() else {
            Issue.record("the log does not verify: \(try store.verify())")
            return
        }
        let again = try store.append(batch((0..<200).map { heart("a\($0)") }))
        #expect(again.appended == 0 && again.duplicates == 200)
    }

    /// A run starts once enough ids wait, and moves a slice per append until it is all in.
    @Test func aRunMovesInSlicesAndThenMovesTheMark() throws {
        let store = try SQLiteStore(path: folder.file("slices.gtio"))
        store.recentIDs.minimumRun = 200
        func state() throws -> (through: Int64, indexed: Int) {
            try store.pool.read { db in
                (try Int64.fetchOne(db, sql: "SELECT seq FROM event_ids_through") ?? 0,
                 try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM event_ids") ?? 0)
            }
        }
        _ = try store.append(batch((0..<199).map { heart("a\($0)") }))
        #expect(try state() == (0, 0))
        // 200 wait: a run of them starts, and this append moves twice its own ids and 64.
        _ = try store.append(batch([heart("b0")]))
        #expect(try state() == (0, 66))
        _ = try store.append(batch((1...30).map { heart("b\($0)") }))
        #expect(try state() == (0, 66 + 124))
        _ = try store.append(batch([heart("c0")]))
        #expect(try state() == (200, 200))
        // A new process reads the 32 ids still waiting, and finds them.
        let other = try SQLiteStore(path: folder.file("slices.gtio"))
        let again = try other.append(batch([heart("b7"), heart("c0"), heart("a5"), heart("d0")]))
        #expect(again.appended == 1 && again.duplicates == 3)
    }

    /// With a run sorter (a writer that appends without pause), the append that finds a run's
    /// worth of ids waiting asks for it, and a later one takes it once sorted: no commit reads
    /// or sorts it. The run holds the committed ids only, and moves in slices as before.
    @Test func aRunSortedAsideIsTakenByALaterAppend() throws {
        let store = try SQLiteStore(path: folder.file("aside.gtio"))
        store.recentIDs.minimumRun = 200
        let sorter = RunSorter(reader: store.pool)
        store.recentIDs.runSorter = sorter
        _ = try store.append(batch((0..<199).map { heart("a\($0)") }))
        // 200 wait: the run of the 199 committed ones is asked for, and nothing moves yet.
        _ = try store.append(batch([heart("b0")]))
        sorter.settle()
        #expect(try marked(store) == (0, 0))
        // Taken, and twice this append's ids and 64 move in.
        _ = try store.append(batch([heart("b1")]))
        #expect(try marked(store) == (0, 66))
        _ = try store.append(batch((2...70).map { heart("b\($0)") }))
        // The run is in: the mark moves to the first id still waiting.
        #expect(try marked(store) == (199, 199))
        let other = try SQLiteStore(path: folder.file("aside.gtio"))
        let again = try other.append(batch([heart("a5"), heart("b0"), heart("b70"), heart("c0")]))
        #expect(again.appended == 1 && again.duplicates == 3)
        guard case .intact = try other.verify() else {
            Issue.record("the log does not verify: \(try other.verify())")
            return
        }
    }

    /// The mark and the ids in `event_ids`, as the file has them.
    func marked(_ store: SQLiteStore) throws -> (through: Int64, indexed: Int) {
        try store.pool.read { db in
            (try Int64.fetchOne(db, sql: "SELECT seq FROM event_ids_through") ?? 0,
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM event_ids") ?? 0)
        }
    }

    /// Processes that append once each (a cron `ingest`, a `resolve`) read the waiting ids
    /// afresh, and move a run they start whole: the mark keeps up, and fewer than a run and a
    /// batch wait, however many such processes come. A run sliced across appends would be lost
    /// with each process, and the next would move the same first slice again.
    @Test func appendsOfOneShotProcessesKeepTheWaitingIDsBounded() throws {
        let path = folder.file("one-shot.gtio")
        var random = SeededGenerator(seed: 5)
        for round in 0..<60 {
            let store = try SQLiteStore(path: path)
            store.recentIDs.minimumRun = 150
            // Seven new ids, and one appended before (or earlier in this batch).
            let ids = (0..<7).map { "o\(round)-\($0)" } + ["o\(Int.random(in: 0...round, using: &random))-0"]
            let outcome = try store.append(batch(ids.map { heart($0) }))
            #expect(outcome.appended == 7 && outcome.duplicates == 1, "round \(round)")
            let (through, _) = try marked(store)
            #expect(Int64(7 * (round + 1)) - through < 150 + 8, "round \(round): the ids after \(through) wait")
        }
        let store = try SQLiteStore(path: path)
        #expect(try store.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(DISTINCT id) FROM events") } == 420)
        guard case .intact = try store.verify() else {
            Issue.record("the log does not verify: \(try store.verify())")
            return
        }
    }

    /// A batch large enough to insert its own ids puts the waiting ones in first, so the mark
    /// moves to the log's end and a new process reads none of them back; a large batch that
    /// comes with more ids waiting than it has waits with them.
    @Test func aLargeBatchPutsTheWaitingIDsInFirst() throws {
        let store = try SQLiteStore(path: folder.file("large.gtio"))
        store.recentIDs.largeBatch = 50
        _ = try store.append(batch((0..<30).map { heart("w\($0)") }))
        #expect(try marked(store) == (0, 0))
        _ = try store.append(batch((0..<60).map { heart("l\($0)") }))
        #expect(try marked(store) == (90, 90))
        _ = try store.append(batch((0..<45).map { heart("x\($0)") }))
        _ = try store.append(batch((0..<40).map { heart("y\($0)") }))
        _ = try store.append(batch((0..<60).map { heart("z\($0)") }))
        #expect(try marked(store) == (90, 90))
        let other = try SQLiteStore(path: folder.file("large.gtio"))
        let again = try other.append(batch(["w3", "l59", "x44", "y0", "z59", "new"].map { heart($0) }))
        #expect(again.appended == 1 && again.duplicates == 5)
        guard case .intact = try other.verify() else {
            Issue.record("the log does not verify: \(try other.verify())")
            return
        }
    }

    /// A writer with a filter loader asks for the filter before its first append, notes the
    /// ids appended while it is read, and takes it at a later append: ids from before, from
    /// while it was read, and from after are all found again, and new ones are appended.
    @Test func aFilterReadAsideHoldsEveryIDOfTheLog() throws {
        let path = folder.file("filter.gtio")
        _ = try SQLiteStore(path: path).append(batch((0..<40).map { heart("before\($0)") }))
        let store = try SQLiteStore(path: path)
        store.recentIDs.minimumRun = 16
        let loader = IDFilterLoader(reader: store.pool)
        loader.minimumCapacity = 8
        store.recentIDs.filterLoader = loader
        // Asked for here; read in a snapshot that may or may not hold this batch.
        _ = try store.append(batch((0..<10).map { heart("while\($0)") }))
        #expect(store.recentIDs.filteredIDs == nil)
        loader.settle()
        // Another process appends before the filter is taken: its ids are read, and noted.
        _ = try SQLiteStore(path: path).append(batch((0..<5).map { heart("other\($0)") }))
        _ = try store.append(batch((0..<10).map { heart("after\($0)") }))
        #expect(store.recentIDs.filteredIDs != nil)
        let again = try store.append(batch(
            ["before0", "before39", "while9", "other4", "after0", "after9", "new0"].map { heart($0) }))
        #expect(again.appended == 1 && again.duplicates == 6)
                // A rollback drops the filter: the next append reads the waiting ids afresh and asks again.
        #expect(throws: Undone.self) {
            try store.write { tx in
                _ = try tx.append(batch([heart("undone")]))
                throw Undone()
            }
        }
        _ = try store.append(batch([heart("new1")]))
        #expect(store.recentIDs.filteredIDs == nil)
        loader.settle()
        let last = try store.append(batch(["undone", "new1", "before5"].map { heart($0) }))
        #expect(last.appended == 1 && last.duplicates == 2)
        #expect(store.recentIDs.filteredIDs != nil)
    }
}
