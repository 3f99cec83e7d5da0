import GTIOCatalog
import GTIOSimulation
import GTIOStore
import GTIOStoreSQLite
import GTIOTestSupport
import PropertyBased
import Testing
@testable import GTIOProjections

/// The fold state saved in the store: continuing from it must give exactly what a fold that
/// never stopped gives, and a damaged one must be set aside, never trusted.
@Suite struct FoldSnapshotTests {
    let compare = ReadModelPropertyTests()

    /// A store holding `count` generated events, its read-model tables created.
    func store(seed: UInt64, count: Int, of total: Int? = nil, in folder: TemporaryDirectory) throws -> SQLiteStore {
        let store = try SQLiteStore(path: folder.file("log.gtio"))
        let events = RandomLog.events(seed: seed, count: total ?? count).prefix(count)
        _ = try store.append(EventBatch(source: "gen", events: events.enumerated().map { ($0.offset, $0.element) }))
        try ReadModelSchema.migrate(store)
        return store
    }

    /// Changes one byte in the middle of the saved state's `part`, as someone who can write the
    /// store's file could.
    func flipAByte(ofPart part: Int64, in store: SQLiteStore, at offset: (Int) -> Int = { $0 / 2 }) throws {
        try store.writeTables { tx in
            guard case .blob(var bytes) = try tx.row("SELECT bytes FROM rm_fold_state WHERE part = ?", [.integer(part)])![0] else { return }
            bytes[offset(bytes.count)] ^= 0x01
            try tx.delete(from: FoldSnapshot.table, key: [.integer(part)])
            try tx.insert([.integer(part), .blob(bytes)], into: FoldSnapshot.table)
        }
    }

    @Test func aFoldContinuedFromASavedStateIsExactlyAFoldThatNeverStopped() async {
        await propertyCheck(count: 30, input: Gen.uint64(in: 1...UInt64.max)) { seed in
            let folder = TemporaryDirectory()
            let store = try! store(seed: seed, count: 400, in: folder)
            let engine = ReadModelEngine(store: store)
            var random = SeededGenerator(seed: seed)
            let cut = Int64(random.below(401))
            let before = try! engine.fold(.atSeq(cut))
            // In parts of the default size (one or two here) or of a few bytes (hundreds of them).
            let partSize = seed % 2 == 0 ? FoldSnapshot.partSize : 1 + random.below(64)
            try! store.writeTables { try FoldSnapshot.Encoded(before.state, partSize: partSize).save(in: $0) }
            var state = try! store.readTables { try FoldSnapshot.load($0, atMost: .max) }!
            #expect(state.lastSeq == cut)
            try! ReadModelEngine.fold(store, LogScope(afterSeq: cut), into: &state)
            let continued = ReadModels(state: state), straight = try! engine.fold()
            #expect(compare.tables(continued) == compare.tables(straight), "seed \(seed), cut at \(cut)")
            #expect(compare.answers(continued) == compare.answers(straight), "seed \(seed), cut at \(cut)")
        }
    }

    @Test func asOfViewsStartingFromTheSavedStateAnswerAsFoldsFromSeqOne() async {
        await propertyCheck(count: 20, input: Gen.uint64(in: 1...UInt64.max)) { seed in
            let folder = TemporaryDirectory()
            let store = try! store(seed: seed, count: 300, in: folder)
            let engine = ReadModelEngine(store: store)
            var random = SeededGenerator(seed: seed)
            let saved = try! engine.fold(.atSeq(Int64(random.below(301)))).state
            try! store.writeTables { try FoldSnapshot.save(saved, in: $0) }
            let records = RandomLog.records(seed: seed, count: 300)
            let moment = Timestamp(milliseconds: records[random.below(300)].at)
            for view in [LogView.asOf(moment), .atSeq(Int64(random.below(301))), .latest] {
                let fromSaved = try! engine.fold(view, fromSavedState: true), fromStart = try! engine.fold(view)
                #expect(compare.tables(fromSaved) == compare.tables(fromStart), "seed \(seed), \(view), saved at \(saved.lastSeq)")
                #expect(compare.answers(fromSaved) == compare.answers(fromStart), "seed \(seed), \(view)")
                #expect(fromSaved.now == fromStart.now)
            }
        }
    }

    @Test func aWriterContinuesFromTheSavedStateAndFoldsOnlyTheEventsAfterIt() throws {
        let folder = TemporaryDirectory()
        let store = try store(seed: 7, count: 400, of: 430, in: folder)
        let first = try LiveReadModels(store: store)
        // Nothing saved yet: the first writer folds the log and reads no state back.
        #expect(first.stateReadSeconds == 0)
        let saved = try first.catchUp().state
        #expect(try store.readTables { try FoldSnapshot.savedSeq($0) } == 400)
        let halves = saved.encodedHalves(chunkSize: FoldSnapshot.partSize)
        #expect(try store.readTables { try FoldSnapshot.saved($0).last?.length } == (halves.people + halves.rest).map(\.count).reduce(0, +))
        let more = RandomLog.events(seed: 7, count: 430).suffix(30)
        _ = try store.append(EventBatch(source: "more", events: more.enumerated().map { ($0.offset, $0.element) }))
        let live = try LiveReadModels(store: store)
        #expect(live.stateReadSeconds > 0)
        let models = try live.catchUp()
        #expect(live.setAside == nil)
        #expect(models.state.lastSeq == 430)
        #expect(try ReadModelEngine(store: store).check(ReadModelName.allCases).values.allSatisfy(\.isEmpty))
    }

    @Test func aWriterTakesTheSavedStateAsTheLogUpToItsSeq() throws {
        // A state of another log at the same seq: a writer that folded from seq 1 would not
        // show it; one that continues from the saved state carries it (as `--check` would say).
        let store = try store(seed: 18, count: 200, in: TemporaryDirectory())
        _ = try ReadModelEngine(store: store).catchUp()
        let other = try ReadModelEngine(store: try self.store(seed: 19, count: 200, in: TemporaryDirectory())).fold()
        try store.writeTables { try FoldSnapshot.save(other.state, in: $0) }
        let live = try LiveReadModels(store: store)
        #expect(compare.tables(try live.catchUp()) == compare.tables(other))
        #expect(compare.tables(other) != compare.tables(try ReadModelEngine(store: store).fold()))
    }

    @Test func aStateFailingItsChecksumIsSetAsideAndTheLogFoldedInstead() throws {
        let folder = TemporaryDirectory()
        let store = try store(seed: 11, count: 300, in: folder)
        _ = try ReadModelEngine(store: store).catchUp()
        // Someone changes one byte of the saved state.
        try flipAByte(ofPart: 1, in: store)
        #expect(throws: FoldSnapshotError.checksumMismatch(seq: 300)) { try store.readTables { try FoldSnapshot.load($0, atMost: .max) } }
        let live = try LiveReadModels(store: store)
        #expect(live.setAside == .checksumMismatch(seq: 300))
        #expect(live.setAside?.description == "the saved fold state at seq 300 fails its checksum")
        #expect(live.stateReadSeconds == 0)
        let models = try live.catchUp()
        #expect(compare.tables(models) == compare.tables(try ReadModelEngine(store: store).fold()))
    }

    /// Each half of the state has its own checksum, checked on the thread that decodes it: a
    /// byte changed in either half, its first or its last, is caught.
    @Test func aByteChangedInEitherHalfFailsItsChecksum() throws {
        for offset in [{ (_: Int) in 1 }, { (count: Int) in count - 2 }] {
            let folder = TemporaryDirectory()
            let store = try store(seed: 12, count: 300, in: folder)
            _ = try ReadModelEngine(store: store).catchUp()
            #expect(throws: Never.self) { try store.readTables { try FoldSnapshot.load($0, atMost: .max) } }
            try flipAByte(ofPart: 1, in: store, at: offset)
            #expect(throws: FoldSnapshotError.checksumMismatch(seq: 300)) { try store.readTables { try FoldSnapshot.load($0, atMost: .max) } }
        }
    }

    /// A damaged state is not kept as the earlier one when a writer saves a good one: both go.
    @Test func aStateSavedInPlaceOfADamagedOneIsTheOnlyOneKept() throws {
        let folder = TemporaryDirectory()
        let store = try store(seed: 21, count: 300, of: 320, in: folder)
        let engine = ReadModelEngine(store: store)
        _ = try engine.catchUp()
        // The latest (seq 300) in the second slot, an earlier one of another day in the first.
        let states = try (1...300).reversed().lazy.map { try engine.fold(.atSeq(Int64($0))).state }
        let latest = try #require(states.first)
        let earlier = try #require(states.first { state in
            Timestamp(milliseconds: state.newestAt ?? 0).day < Timestamp(milliseconds: latest.newestAt ?? 0).day
        })
        try store.writeTables { tx in
            try FoldSnapshot.Encoded(earlier).save(in: tx, replacingBoth: true)
            try FoldSnapshot.Encoded(latest).save(in: tx)
        }
        #expect(try store.readTables { try FoldSnapshot.headers($0).map { ($0.slot, $0.header.seq) } }.elementsEqual(
            [(.first, earlier.lastSeq), (.second, 300)], by: { $0 == $1 }))
        // Someone changes one byte of the latest (its first slice).
        try flipAByte(ofPart: -2, in: store)
        let more = RandomLog.events(seed: 21, count: 320).suffix(20)
        _ = try store.append(EventBatch(source: "gen", events: more.enumerated().map { ($0.offset, $0.element) }))
        let live = try LiveReadModels(store: store)
        #expect(live.setAside == .checksumMismatch(seq: 300))
        let models = try live.catchUp()
        #expect(compare.tables(models) == compare.tables(try engine.fold()))
        #expect(try store.readTables { try FoldSnapshot.headers($0).map(\.header.seq) } == [320])
    }

    @Test func rebuildCheckComparesTheSavedStateWithAFoldOfTheLog() throws {
        let folder = TemporaryDirectory()
        let store = try store(seed: 14, count: 300, in: folder)
        let engine = ReadModelEngine(store: store)
        _ = try engine.catchUp()
        let good = try engine.checkFoldStates()
        #expect(good.map(\.seq) == [300])
        #expect(good.map(\.differences) == [[]])
        // A state of another log at the same seq: what a rule's bug would leave behind.
        let other = try self.store(seed: 15, count: 300, in: TemporaryDirectory())
        let wrong = try ReadModelEngine(store: other).fold().state
        try store.writeTables { try FoldSnapshot.Encoded(wrong).save(in: $0, replacingBoth: true) }
        let bad = try engine.checkFoldStates()
        #expect(bad.map(\.seq) == [300])
        #expect(bad.map(\.differences.isEmpty) == [false])
    }

    /// The earlier state is checked too, against the same fold stopped at its seq: a wrong one
    /// would give wrong as-of views, a damaged one is named.
    @Test func rebuildCheckComparesTheEarlierStateToo() throws {
        let folder = TemporaryDirectory()
        let store = try store(seed: 16, count: 300, in: folder)
        let engine = ReadModelEngine(store: store)
        let latest = try engine.fold().state
        let cut = try #require((1...299).reversed().lazy.map { Int64($0) }.first { seq in
            let state = try! engine.fold(.atSeq(seq)).state
            return Timestamp(milliseconds: state.newestAt ?? 0).day < Timestamp(milliseconds: latest.newestAt ?? 0).day
        })
        let earlier = try engine.fold(.atSeq(cut)).state
        func keep(_ first: CommunityState) throws {
            try store.writeTables { tx in
                try FoldSnapshot.Encoded(first).save(in: tx, replacingBoth: true)
                try FoldSnapshot.Encoded(latest).save(in: tx)
            }
        }
        try keep(earlier)
        let good = try engine.checkFoldStates()
        #expect(good.map(\.seq) == [cut, 300])
        #expect(good.map(\.differences) == [[], []])

        // Another log's state at the same seq in place of the earlier one: only it differs.
        let other = try self.store(seed: 17, count: 300, in: TemporaryDirectory())
        try keep(try ReadModelEngine(store: other).fold(.atSeq(cut)).state)
        let wrong = try engine.checkFoldStates()
        #expect(wrong.map(\.seq) == [cut, 300])
        #expect(!wrong[0].differences.isEmpty)
        #expect(wrong[1].differences.isEmpty, "\(wrong[1].differences)")

        // The right state, one byte of it changed (the earlier sits in the first slot).
        try keep(earlier)
        try flipAByte(ofPart: 1, in: store)
        let damaged = try engine.checkFoldStates()
        #expect(damaged.map(\.seq) == [cut, 300])
        #expect(damaged[0].differences == [FoldSnapshotError.checksumMismatch(seq: cut).description])
        #expect(damaged[1].differences.isEmpty)
    }

    /// Two states are kept: one whose newest event is of a later UTC day than the latest's keeps
    /// the latest as the earlier state; one of the same day replaces the latest. An as-of view
    /// starts from whichever of them lies all in view, and answers as a fold from seq 1.
    @Test func theLastStateBeforeTheLatestsDayIsKeptForAsOfViews() async {
        await propertyCheck(count: 25, input: Gen.uint64(in: 1...UInt64.max)) { seed in
            let folder = TemporaryDirectory()
            let store = try! store(seed: seed, count: 300, in: folder)
            let engine = ReadModelEngine(store: store)
            var random = SeededGenerator(seed: seed)
            // The states that should be kept, the latest last.
            var kept: [CommunityState] = []
            for cut in (0..<4).map({ _ in Int64(1 + random.below(300)) }).sorted() {
                let state = try! engine.fold(.atSeq(cut)).state
                try! store.writeTables { try FoldSnapshot.save(state, in: $0) }
                if let latest = kept.last, let before = latest.newestAt, let newest = state.newestAt,
                   Timestamp(milliseconds: before).day < Timestamp(milliseconds: newest).day {
                    kept = [latest, state]
                } else {
                    kept = kept.dropLast() + [state]
                }
            }
            let saved = try! store.readTables { try FoldSnapshot.headers($0).map(\.header.seq) }
            #expect(saved.sorted() == kept.map(\.lastSeq).sorted(), "seed \(seed)")
            #expect(try! store.readTables { try FoldSnapshot.savedSeq($0) } == kept.last?.lastSeq)
            let records = RandomLog.records(seed: seed, count: 300)
            // Moments just after each kept state's newest event, where only it (or the earlier one) may start.
            let moments = kept.compactMap(\.newestAt) + (0..<3).map { _ in records[random.below(300)].at }
            for view in moments.map({ LogView.asOf(Timestamp(milliseconds: $0)) }) + [.atSeq(Int64(random.below(301)))] {
                let fromSaved = try! engine.fold(view, fromSavedState: true), fromStart = try! engine.fold(view)
                #expect(compare.tables(fromSaved) == compare.tables(fromStart), "seed \(seed), \(view), kept \(saved)")
                #expect(compare.answers(fromSaved) == compare.answers(fromStart), "seed \(seed), \(view)")
            }
            // The earlier state is read back whole, and is what a view that ends before the
            // latest's day starts from.
            if kept.count == 2, let moment = kept[0].newestAt {
                let earlier = try! store.readTables { try FoldSnapshot.load($0) { ($0.newestAt ?? .min) <= moment } }
                #expect(earlier?.lastSeq == kept[0].lastSeq, "seed \(seed)")
            }
            // A writer continues from the latest, and a rebuild keeps only its own.
            #expect(try! store.readTables { try FoldSnapshot.load($0, atMost: .max) }?.lastSeq == kept.last?.lastSeq)
            _ = try! engine.write(ReadModelName.allCases, try! engine.fold())
            #expect(try! store.readTables { try FoldSnapshot.headers($0).map(\.header.seq) } == [300])
        }
    }

    @Test func aStateMissingAPartIsSetAside() throws {
        let folder = TemporaryDirectory()
        let store = try store(seed: 12, count: 300, in: folder)
        _ = try ReadModelEngine(store: store).catchUp()
        let length = try store.readTables { try FoldSnapshot.headers($0)[0].header.length }
        let first = try store.readTables { try $0.row("SELECT length(bytes) FROM rm_fold_state WHERE part = 1")![0].int }
        try store.writeTables { try $0.delete(from: FoldSnapshot.table, key: [.integer(1)]) }
        #expect(throws: FoldSnapshotError.incomplete(seq: 300, expected: length, found: length - first)) {
            try store.readTables { try FoldSnapshot.load($0, atMost: .max) }
        }
    }

    /// A part of the right length that is text, not bytes (as an UPDATE in `sqlite3` could
    /// leave it): refused, not read as the state's bytes.
    @Test func aPartThatIsNotBytesIsSetAside() throws {
        let folder = TemporaryDirectory()
        let store = try store(seed: 18, count: 300, in: folder)
        _ = try ReadModelEngine(store: store).catchUp()
        try store.writeTables { tx in
            guard case .blob(let bytes) = try tx.row("SELECT bytes FROM rm_fold_state WHERE part = 1")![0] else { return }
            try tx.delete(from: FoldSnapshot.table, key: [.integer(1)])
            try tx.insert([.integer(1), .text(String(repeating: "x", count: bytes.count))], into: FoldSnapshot.table)
        }
        #expect(throws: FoldSnapshotError.malformed("a part that is not bytes")) {
            try store.readTables { try FoldSnapshot.load($0, atMost: .max) }
        }
    }

    @Test func partsThatDisagreeWithTheHeaderAreSetAsideBeforeAnythingIsAllocated() throws {
        let folder = TemporaryDirectory()
        let store = try store(seed: 17, count: 300, in: folder)
        _ = try ReadModelEngine(store: store).catchUp()
        let length = try store.readTables { try FoldSnapshot.headers($0)[0].header.length }
        try store.writeTables { try $0.insert([.integer(99), .blob([1, 2, 3])], into: FoldSnapshot.table) }
        #expect(throws: FoldSnapshotError.incomplete(seq: 300, expected: length, found: length + 3)) {
            try store.readTables { try FoldSnapshot.load($0, atMost: .max) }
        }
    }

    /// Each half is saved in parts of the part size or one value more, never cut inside a value
    /// and never copied whole into one piece.
    @Test func aStateIsSavedInPartsOfAboutThePartSizeEachHalfOnItsOwn() throws {
        let folder = TemporaryDirectory()
        let store = try store(seed: 19, count: 300, in: folder)
        let state = try ReadModelEngine(store: store).fold().state
        let halves = state.encodedHalves(chunkSize: 100)
        for half in [halves.people, halves.rest] {
            #expect(half.count > 3)
            #expect(half.dropLast().allSatisfy { $0.count >= 100 && $0.count < 100 + 64 })
            #expect(half.last.map { $0.count > 0 && $0.count < 100 + 64 } == true)
        }
        let whole = state.encodedHalves(chunkSize: FoldSnapshot.partSize)
        #expect(whole.people.count == 1 && whole.rest.count == 1)
        #expect(Array(halves.people.joined()) == whole.people[0])
        #expect(Array(halves.rest.joined()) == whole.rest[0])
        try store.writeTables { try FoldSnapshot.Encoded(state, partSize: 100).save(in: $0) }
        let parts = try store.readTables { try $0.row("SELECT COUNT(*) FROM rm_fold_state WHERE part > 0")![0].int }
        #expect(parts == halves.people.count + halves.rest.count)
        let split = try store.readTables { try FoldSnapshot.headers($0)[0].header.split }
        #expect(split == halves.people.reduce(0) { $0 + $1.count })
    }

    @Test func aStateAheadOfTheTablesIsNotUsed() throws {
        let folder = TemporaryDirectory()
        let store = try store(seed: 13, count: 200, in: folder)
        let state = try ReadModelEngine(store: store).fold().state
        try store.writeTables { try FoldSnapshot.save(state, in: $0) }
        #expect(try store.readTables { try FoldSnapshot.load($0, atMost: 199) } == nil)
        #expect(try store.readTables { try FoldSnapshot.load($0, atMost: 200) }?.lastSeq == 200)
    }

    @Test func bytesThatDoNotReadAsAStateAreRefusedNotTrusted() throws {
        let folder = TemporaryDirectory()
        let state = try ReadModelEngine(store: try store(seed: 16, count: 60, in: folder)).fold().state
        let halves = state.encodedHalves(chunkSize: FoldSnapshot.partSize)
        let (people, rest) = (Array(halves.people.joined()), Array(halves.rest.joined()))
        // Either half cut short anywhere: an error, never a trap or a state.
        for (half, bytes) in [people, rest].enumerated() {
            for length in 0..<bytes.count {
                let prefix = Array(bytes.prefix(length))
                #expect(throws: FoldSnapshotError.self, "half \(half) cut at \(length)") {
                    try prefix.withUnsafeBytes { cut in
                        try (half == 0 ? rest : people).withUnsafeBytes { whole in
                            _ = try CommunityState.decoded(people: half == 0 ? cut : whole, rest: half == 0 ? whole : cut)
                        }
                    }
                }
            }
        }
    }

    /// Each device's users are a chain through their sign-ups (`FirstSignUp.previousOnDevice`):
    /// one that loops, leads to a user of another device or leaves one of its users out is
    /// refused, not walked forever or answered short.
    @Test func signUpChainsThatLoopOrCrossDevicesAreRefused() throws {
        var log = TestLog()
        log.signUp("u1", name: "U1", device: "d1")
        log.signUp("u2", name: "U2", device: "d1")
        log.signUp("v1", name: "V1", device: "d2")
        let state = log.models().state
        let (u1, u2, v1) = (state.userKeys.key("u1")!, state.userKeys.key("u2")!, state.userKeys.key("v1")!)
        #expect(state.firstSignUps[u2].previousOnDevice == Int32(u1))
        #expect(throws: Never.self) { try Self.decode(state) }
        var looping = state
        looping.firstSignUps[u1].previousOnDevice = Int32(u2)
        #expect(throws: FoldSnapshotError.self) { try Self.decode(looping) }
        var crossing = state
        crossing.firstSignUps[u1].previousOnDevice = Int32(v1)
        #expect(throws: FoldSnapshotError.self) { try Self.decode(crossing) }
        var short = state
        short.firstSignUps[u2].previousOnDevice = 0
        #expect(throws: FoldSnapshotError.self) { try Self.decode(short) }
    }

    /// A saved set (a post's voters, the blocks, the product hearts) is read straight into its
    /// table: an element written twice is refused, where making a set of it would drop one
    /// and the counts kept beside it would no longer match.
    @Test func aSetWithAnElementTwiceIsRefused() throws {
        func read(_ elements: [Int]) throws -> Set<IDKey> {
            var writer = StateWriter(chunkSize: 1 << 10)
            writer.write(elements) { $0.write($1) }
            return try writer.chunks.flatMap { $0 }.withUnsafeBytes { bytes in
                var reader = StateReader(bytes)
                return try reader.readSet { IDKey(try $0.readCount()) }
            }
        }
        #expect(try read([3, 1, 2]) == [IDKey(1), IDKey(2), IDKey(3)])
        #expect(throws: FoldSnapshotError.malformed("an element of a set twice")) { try read([3, 1, 3]) }
    }

    /// `state` saved as bytes and read back.
    static func decode(_ state: CommunityState) throws {
        let halves = state.encodedHalves(chunkSize: FoldSnapshot.partSize)
        let (people, rest) = (Array(halves.people.joined()), Array(halves.rest.joined()))
        try people.withUnsafeBytes { people in
            try rest.withUnsafeBytes { rest in _ = try CommunityState.decoded(people: people, rest: rest) }
        }
    }

    @Test func aWriterThatFoldedFarPastTheSavedStateSavesItsOwnForTheNextOne() throws {
        let folder = TemporaryDirectory()
        let store = try SQLiteStore(path: folder.file("log.gtio"))
        let events = RandomLog.events(seed: 21, count: 22_200)
        var appended = 0
        func append(_ count: Int) throws {
            let batch = events[appended..<(appended + count)].enumerated().map { ($0.offset, $0.element) }
            _ = try store.append(EventBatch(source: "gen", events: batch))
            appended += count
        }
        func saved() throws -> Int64? { try store.readTables { try FoldSnapshot.savedSeq($0) } }
        try append(1_000)
        let writer = try LiveReadModels(store: store)
        try writer.catchUp()
        #expect(try saved() == 1_000)
        // One long-lived writer applies 11,000 more: not an eighth of the log, nor 50,000 events.
        for _ in 0..<11 {
            try append(1_000)
            try writer.catchUp()
        }
        #expect(try saved() == 1_000)
        // The next writer folds those 11,000 again before its own 100, and saves for the one after.
        try append(100)
        try LiveReadModels(store: store).catchUp()
        #expect(try saved() == 12_100)
        // 9,000 past the saved state are fewer than 10,000: the writer after them leaves it.
        let second = try LiveReadModels(store: store)
        for _ in 0..<9 {
            try append(1_000)
            try second.catchUp()
        }
        try append(100)
        try LiveReadModels(store: store).catchUp()
        #expect(try saved() == 12_100)
        #expect(FoldSnapshot.isWorthSaving(folded: 312_499, lastSeq: 20_000_000) == false)
        #expect(FoldSnapshot.isWorthSaving(folded: 312_500, lastSeq: 20_000_000))
    }

    @Test func aWriterSavesWhenAnEighthOfTheLogCameAfterTheSavedState() {
        #expect(FoldSnapshot.isDue(lastSeq: 49_999, saved: nil) == false)
        #expect(FoldSnapshot.isDue(lastSeq: 50_000, saved: nil))
        #expect(FoldSnapshot.isDue(lastSeq: 1_000_000, saved: 900_000) == false)
        #expect(FoldSnapshot.isDue(lastSeq: 1_000_000, saved: 875_000))
        #expect(FoldSnapshot.isDue(lastSeq: 20_000_000, saved: 19_000_000) == false)
    }
}
