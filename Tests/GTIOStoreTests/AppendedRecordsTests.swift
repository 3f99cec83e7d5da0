import GTIOCatalog
import GTIOStore
import GTIOTestSupport
import Testing

/// What a writer keeps of its appends: the latest run of consecutive seqs, at most its capacity.
@Suite struct AppendedRecordsTests {
    /// The outcome of appending `count` events at `first`, the events at `duplicates` left out.
    func outcome(_ count: Int, at first: Int64, duplicates: [Int] = []) -> AppendOutcome {
        var outcome = AppendOutcome()
        outcome.read = count
        outcome.appended = count - duplicates.count
        outcome.duplicates = duplicates.count
        outcome.duplicateIndexes = duplicates
        outcome.firstSeq = first
        outcome.lastSeq = first + Int64(outcome.appended) - 1
        return outcome
    }

    func hearts(_ ids: ClosedRange<Int>) -> EventBatch { batch(ids.map { heart("h\($0)") }) }

    @Test func eachAppendedEventTakesTheNextSeqAndDuplicatesNone() throws {
        var kept = AppendedRecords()
        kept.add(hearts(1...5), outcome(5, at: 11, duplicates: [1, 3]))
        let records = try #require(kept.records(from: 11, through: 99))
        #expect(records.map(\.seq) == [11, 12, 13])
        #expect(records.map(\.subject) == ["p1", "p1", "p1"])
        #expect(kept.count == 3)
        // From inside the run, and only as far as asked.
        #expect(kept.records(from: 12, through: 12)?.map(\.seq) == [12])
        #expect(kept.records(from: 10, through: 20) == nil)
        #expect(kept.records(from: 14, through: 20) == nil)
    }

    @Test func anotherWritersEventsInBetweenEndTheRun() {
        var kept = AppendedRecords()
        kept.add(hearts(1...4), outcome(4, at: 1))
        kept.add(hearts(5...6), outcome(2, at: 5))
        #expect(kept.firstSeq == 1)
        #expect(kept.lastSeq == 6)
        // Seqs 7–9 were another writer's: what came before them is no longer one run with what follows.
        kept.add(hearts(7...8), outcome(2, at: 10))
        #expect(kept.firstSeq == 10)
        #expect(kept.count == 2)
        // The log is read up to where the kept records take over.
        #expect(kept.readThrough(from: 5, through: 20) == 9)
        #expect(kept.readThrough(from: 10, through: 20) == 20)
        #expect(kept.readThrough(from: 1, through: 8) == 8)
    }

    @Test func onlyTheNewestAppendsUpToTheCapacityAreKept() {
        var kept = AppendedRecords(capacity: 5)
        kept.add(hearts(1...3), outcome(3, at: 1))
        kept.add(hearts(4...6), outcome(3, at: 4))
        #expect(kept.firstSeq == 4)
        #expect(kept.count == 3)
        kept.add(hearts(7...12), outcome(6, at: 7))
        #expect(kept.count == 0)
        #expect(kept.firstSeq == nil)
        #expect(kept.records(from: 7, through: 12) == nil)
    }

    @Test func anOutcomeThatDoesNotAddUpToItsBatchKeepsNothing() {
        var kept = AppendedRecords()
        kept.add(hearts(1...3), outcome(3, at: 1))
        var wrong = outcome(3, at: 4)
        wrong.appended = 2
        kept.add(hearts(4...6), wrong)
        #expect(kept.count == 0)
        kept.add(hearts(7...8), outcome(2, at: 1, duplicates: []))
        #expect(kept.firstSeq == 1)
        #expect(AppendedRecords(capacity: 0).count == 0)
    }
}
