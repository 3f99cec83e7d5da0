import Foundation
import GTIOAnalytics
import GTIOCatalog
import GTIOSimulation
import GTIOStore
import GTIOStoreSQLite
import GTIOTestSupport
import PropertyBased
import Testing
@testable import GTIOProjections

@Suite struct ReadModelPropertyTests {
    /// Every table row of every read model, for comparing two folds exactly.
    func tables(_ models: ReadModels) -> [String: [[StoreValue]]] {
        var all: [String: [[StoreValue]]] = [:]
        for model in ReadModelName.allCases { all.merge(ReadModelTables.rows(of: model, models)) { a, _ in a } }
        return all
    }

    func answers(_ models: ReadModels) -> String {
        var text = ""
        for tab in LooksTab.allCases { text += "\(tab): \(models.looks(tab, limit: nil).map { "\($0.post) \($0.score)" })\n" }
        for user in RandomLog.users {
            text += "\(user): \(models.followers(of: user)) \(models.following(of: user)) "
            text += "\(models.allSuggestions(for: user).map { "\($0.user) \($0.mutual)" })\n"
        }
        let days = models.today - 3...models.today
        for day in days {
            let figures = models.engagement(on: day)
            // Dictionaries print in hash order, which differs between equal dictionaries: sort them.
            text += "\(day): \(figures.dau) \(figures.wau) \(figures.mau) \(figures.devices) \(figures.events) "
            text += "\(figures.signups.sorted { $0.key < $1.key }) \(figures.actions.map { "\($0.key) \($0.value)" }.sorted()) "
            text += "\((models.state.anomaliesByDay[day] ?? [:]).map { "\($0.key.type) \($0.key.anomaly) \($0.value)" }.sorted())\n"
        }
        return text
    }

    @Test func catchingUpInRandomBatchesGivesExactlyWhatOneRebuildGives() async throws {
        await propertyCheck(count: 25, input: Gen.uint64(in: 1...UInt64.max)) { seed in
            let folder = TemporaryDirectory()
            let events = RandomLog.events(seed: seed, count: 300)
            let store = try! SQLiteStore(path: folder.file("log.gtio"))
            let engine = ReadModelEngine(store: store)
            try! RandomLog.append(events, to: store, seed: seed) { _ = try engine.catchUp() }
            let rebuilt = try! engine.fold()
            #expect(try! engine.check(ReadModelName.allCases).values.allSatisfy(\.isEmpty), "seed \(seed)")
            let oneShot = LogView.latest.readModels(from: RandomLog.records(seed: seed, count: 300))
            #expect(tables(rebuilt) == tables(oneShot), "seed \(seed)")
            #expect(answers(rebuilt) == answers(oneShot), "seed \(seed)")
        }
    }

    @Test func oneLiveInstanceCatchingUpBatchByBatchKeepsTablesExact() async throws {
        await propertyCheck(count: 25, input: Gen.uint64(in: 1...UInt64.max)) { seed in
            expectOneLiveInstanceExact(RandomLog.events(seed: seed, count: 300), seed: seed) { $0.below(40) }
        }
    }

    /// Appends `events` in batches of 1 + `extra` events, one live instance catching up after
    /// each, and expects its tables to be exactly a rebuild's.
    func expectOneLiveInstanceExact(_ events: [ValidatedEvent], seed: UInt64, extra: (inout SeededGenerator) -> Int) {
        let folder = TemporaryDirectory()
        let store = try! SQLiteStore(path: folder.file("log.gtio"))
        let live = try! LiveReadModels(store: store)
        var random = SeededGenerator(seed: ~seed)
        // Catch-ups read the log in windows, and write the tables in steps: of a few events
        // here, so that most span several.
        live.window = Int64(1 + random.below(4))
        live.eventsPerWrite = Int64(1 + random.below(12))
        var start = 0
        var latest: ReadModels?
        while start < events.count {
            let end = min(events.count, start + 1 + extra(&random))
            _ = try! store.append(EventBatch(source: "gen", events: events[start..<end].enumerated().map { ($0.offset, $0.element) }))
            latest = try! live.catchUp()
            start = end
            // The desk's totals, kept flag by flag and decision by decision, are a recount's.
            let state = latest!.state
            #expect(state.desk == DeskTotals(items: state.items.values, decisions: state.decisions), "seed \(seed)")
        }
        let engine = ReadModelEngine(store: store)
        #expect(try! engine.check(ReadModelName.allCases).values.allSatisfy(\.isEmpty), "seed \(seed)")
        #expect(tables(latest!) == tables(try! engine.fold()), "seed \(seed)")
    }

    /// A store in `folder` and live read models over it that give way, waiting up to `patience`
    /// each time, to the commit of the activity returned, which has begun and never ends.
    func modelsBesideACommitThatNeverEnds(
        in folder: TemporaryDirectory, patience: TimeInterval, window: Int64
    ) throws -> (SQLiteStore, LiveReadModels, CommitActivity) {
        let store = try SQLiteStore(path: folder.file("log.gtio"))
        let live = try LiveReadModels(store: store)
        let commits = CommitActivity()
        commits.begin()
        var giveWay = LiveReadModels.GiveWay(to: commits, whileBehindLessThan: .max)
        giveWay.patience = patience
        live.giveWay = giveWay
        live.window = window
        return (store, live, commits)
    }

    /// A catch-up that gives way to commits waits for each at most its patience: beside a
    /// commit that never ends it still applies every event, and its tables are a rebuild's.
    @Test func catchUpsThatGiveWayToACommitThatNeverEndsStillCatchUpExactly() throws {
        let folder = TemporaryDirectory()
        let (store, live, commits) = try modelsBesideACommitThatNeverEnds(in: folder, patience: 0.000_5, window: 64)
        let events = RandomLog.events(seed: 7, count: 300)
        for start in stride(from: 0, to: events.count, by: 100) {
            let slice = events[start..<min(events.count, start + 100)]
            _ = try store.append(EventBatch(source: "gen", events: slice.enumerated().map { ($0.offset, $0.element) }))
            #expect(try live.catchUp().state.lastSeq == (try store.lastSeq()))
        }
        commits.end()
        let engine = ReadModelEngine(store: store)
        #expect(try engine.check(ReadModelName.allCases).values.allSatisfy(\.isEmpty))
        #expect(tables(try live.catchUp()) == tables(try engine.fold()))
    }

    /// A caller waiting for the catch-up in progress (a moderator's decision) is not kept
    /// waiting while it gives way: here each wait for the commit, which never ends, would last
    /// 2 s, and the catch-up gives way dozens of times.
    @Test func aCatchUpSomeoneWaitsForGivesWayToNothing() throws {
        let folder = TemporaryDirectory()
        let (store, live, commits) = try modelsBesideACommitThatNeverEnds(in: folder, patience: 2, window: 16)
        let events = RandomLog.events(seed: 11, count: 300)
        _ = try store.append(EventBatch(source: "gen", events: events.enumerated().map { ($0.offset, $0.element) }))
        // The projector's catch-up starts and gives way at once; the decision's call comes while
        // it waits (or, on a slow start, before it: then the projector is the one waiting).
        let projectorDone = DispatchSemaphore(value: 0)
        Thread {
            _ = try? live.catchUp()
            projectorDone.signal()
        }.start()
        Thread.sleep(forTimeInterval: 0.05)
        let asked = ContinuousClock.now
        #expect(try live.catchUp().state.lastSeq == (try store.lastSeq()))
        // Far more than the catch-up takes, far less than one wait.
        #expect(ContinuousClock.now - asked < .seconds(1))
        projectorDone.wait()
        commits.end()
        #expect(try ReadModelEngine(store: store).check(ReadModelName.allCases).values.allSatisfy(\.isEmpty))
    }

    /// Tables created empty are a fold of nothing, the desk's one row included: a live
    /// instance writes that row only when a flag or a decision changes it.
    @Test func tablesBegunEmptyAreExactBeforeTheFirstFlag() throws {
        let folder = TemporaryDirectory()
        let store = try SQLiteStore(path: folder.file("log.gtio"))
        let live = try LiveReadModels(store: store)
        _ = try live.catchUp()
        _ = try store.append(batch([heart("a"), heart("b", user: "u2")]))
        _ = try live.catchUp()
        let differences = try ReadModelEngine(store: store).check(ReadModelName.allCases)
        #expect(differences.filter { !$0.value.isEmpty }.isEmpty, "\(differences.filter { !$0.value.isEmpty })")
    }

    /// A catch-up rewrites the day rows of the month after each day it touched and the days the
    /// log gained: events weeks late, and weeks without events, must leave every row exact.
    @Test func catchingUpEventsWeeksLateOrAfterWeeksOfSilenceKeepsEveryDayExact() async throws {
        await propertyCheck(count: 25, input: Gen.uint64(in: 1...UInt64.max)) { seed in
            // Single events (a day or two to rewrite) as well as batches spanning months.
            expectOneLiveInstanceExact(RandomLog.events(seed: seed, count: 300, weeks: true), seed: seed) {
                $0.chance(0.5) ? 0 : $0.below(40)
            }
        }
    }

    @Test func aChangeSetRewritesTheChangedDaysTheWindowsTheyMovedAndTheDaysGained() {
        var changes = ChangeSet(decisions: 0, daysBefore: 100...200)
        #expect(changes.dayRows(within: 100...200) == [])
        changes.touch(day: 150)
        changes.touch(day: 150)
        changes.touch(day: 190)
        changes.touch(windowDays: 150...179)
        changes.touch(windowDays: 156...185)
        changes.touch(windowDays: 195...224)
        // The changed days, and the windows moved (merged where they meet), cut at the log's last day.
        #expect(changes.windowDays == [150...185, 195...224])
        #expect(changes.dayRows(within: 100...200) == Array(150...185) + [190] + Array(195...200))
        // A day before the log's first day, and a last day moved weeks on: the month after the
        // former last day moves from rm_days_after into the span (201…229); the other days
        // gained had no event and nobody active in the month before, so they get no row.
        changes.touch(day: 40)
        #expect(changes.dayRows(within: 40...260) == [40] + Array(150...185) + [190] + Array(195...229))
        #expect(ChangeSet(decisions: 0, daysBefore: nil).dayRows(within: 5...7) == [])
    }

    /// One event dated far from the others (a phone's clock years off; the contract allows any
    /// year from 0001 to 9999) must not give `rm_days` a row for every day between: only days
    /// with events and the month after each have one, whether written by catch-ups or by a
    /// rebuild.
    @Test func aDayFarFromTheOthersAddsItsOwnRowsNotTheDaysBetween() throws {
        let lines = [
            ("a", "2012-04-23T10:00:00Z"), ("b", "2012-04-24T10:00:00Z"), ("a", "2099-12-31T23:00:00Z"),
            ("c", "2012-06-15T10:00:00Z"), ("b", "1970-01-01T00:00:00Z"),
        ]
        let events = lines.enumerated().map { index, line in
            let json = #"{"id":"e\#(index)","type":"track","at":"\#(line.1)","user":"\#(line.0)","data":{"name":"Feed"}}"#
            guard case .success(let event) = EventValidator.validate(json) else { fatalError(json) }
            return event
        }
        for seed in UInt64(1)...2 { expectOneLiveInstanceExact(events, seed: seed) { $0.below(3) } }
        let models = LogView.latest.readModels(from: events.enumerated().map { LogRecord(seq: Int64($0.offset + 1), $0.element) })
        let days = try #require(tables(models)["rm_days"]).map { $0[0].string ?? "" }
        // Each day with events and the 29 after it, within the log's span: of 47,482 days.
        #expect(days.count == 30 + 31 + 30 + 1)
        #expect(days.first == "1970-01-01")
        #expect(days.contains("2012-05-23") && !days.contains("2012-05-24"))
        #expect(days.last == "2099-12-31")
        let stored = try models.stored()
        #expect(try stored.engagement(on: Timestamp(date: "2012-06-01")!.day) == .quiet(Timestamp(date: "2012-06-01")!.day))
        #expect(try stored.engagement(on: Timestamp(date: "2012-05-20")!.day).mau == 2)
    }

    /// Two writers of one store (a server and an ingest, say), each catching up when it appends:
    /// either may find the tables moved by the other since its own last catch-up.
    @Test(arguments: StoreBackend.all)
    func twoLiveInstancesTakingTurnsInAnyOrderKeepTablesExact(backend: StoreBackend) async throws {
        await propertyCheck(count: backend.name == "SQLite" ? 25 : 5, input: Gen.uint64(in: 1...UInt64.max)) { seed in
            let folder = TemporaryDirectory()
            let events = RandomLog.events(seed: seed, count: 300)
            let store = try! backend.open(in: folder)
            let writers = [try! LiveReadModels(store: store), try! LiveReadModels(store: store)]
            var random = SeededGenerator(seed: seed &+ 1)
            var start = 0
            while start < events.count {
                let end = min(events.count, start + 1 + random.below(40))
                _ = try! store.append(EventBatch(source: "gen", events: events[start..<end].enumerated().map { ($0.offset, $0.element) }))
                let writer = writers[random.below(2)]
                do {
                    _ = try writer.catchUp()
                } catch {
                    Issue.record("seed \(seed): catch-up after seq \(end) failed: \(error)")
                    return
                }
                start = end
            }
            let engine = ReadModelEngine(store: store)
            #expect(try! engine.check(ReadModelName.allCases).values.allSatisfy(\.isEmpty), "seed \(seed)")
            for writer in writers {
                #expect(tables(try! writer.catchUp()) == tables(try! engine.fold()), "seed \(seed)")
            }
        }
    }

    /// Writers that catch up from the records of their own appends (`AppendedRecords`), reading
    /// back only the other's events, keep the tables exactly a rebuild's; so does a writer whose
    /// first fold takes them (a new process after its ingest).
    @Test(arguments: StoreBackend.all)
    func writersCatchingUpFromWhatTheyAppendedKeepTablesExact(backend: StoreBackend) async throws {
        await propertyCheck(count: backend.name == "SQLite" ? 20 : 5, input: Gen.uint64(in: 1...UInt64.max)) { seed in
            let folder = TemporaryDirectory()
            let events = RandomLog.events(seed: seed, count: 300)
            let store = try! backend.open(in: folder)
            var random = SeededGenerator(seed: seed &+ 2)
            var kept = [AppendedRecords(capacity: 1 + random.below(120)), AppendedRecords(capacity: 1 + random.below(120))]
            var writers: [LiveReadModels?] = [nil, nil]
            var start = 0
            while start < events.count {
                let end = min(events.count, start + 1 + random.below(40))
                // Some batches repeat an event already in the log: it takes no seq.
                let repeated = start > 0 && random.below(3) == 0 ? [events[random.below(start)]] : []
                let batch = EventBatch(source: "gen", events: (Array(events[start..<end]) + repeated).enumerated().map { ($0.offset, $0.element) })
                let who = random.below(2)
                kept[who].add(batch, try! store.append(batch))
                if writers[who] == nil || random.below(4) == 0 {
                    writers[who] = try! LiveReadModels(store: store, appended: kept[who])
                }
                let live = writers[who]!
                live.window = Int64(1 + random.below(16))
                do {
                    _ = try live.catchUp(from: kept[who])
                } catch {
                    Issue.record("seed \(seed): catch-up after event \(end) failed: \(error)")
                    return
                }
                start = end
            }
            let engine = ReadModelEngine(store: store)
            #expect(try! engine.check(ReadModelName.allCases).values.allSatisfy(\.isEmpty), "seed \(seed)")
            #expect(tables(try! writers.compactMap { $0 }[0].catchUp()) == tables(try! engine.fold()), "seed \(seed)")
        }
    }

    @Test func atSeqGivesExactlyARebuildOfTheLogCutThere() async {
        await propertyCheck(count: 50, input: Gen.uint64(in: 1...UInt64.max), Gen.int(in: 0...400)) { seed, cut in
            let records = RandomLog.records(seed: seed, count: 400)
            let viewed = LogView.atSeq(Int64(cut)).readModels(from: records)
            let truncated = LogView.latest.readModels(from: Array(records.prefix(cut)))
            #expect(tables(viewed) == tables(truncated), "seed \(seed), cut \(cut)")
            #expect(answers(viewed) == answers(truncated), "seed \(seed), cut \(cut)")
        }
    }

    @Test func asOfTakesEventsUpToTheTimeInSeqOrder() async {
        await propertyCheck(count: 50, input: Gen.uint64(in: 1...UInt64.max), Gen.int(in: 0...399)) { seed, index in
            let records = RandomLog.records(seed: seed, count: 400)
            let moment = records[index].at
            let viewed = LogView.asOf(Timestamp(milliseconds: moment)).readModels(from: records)
            let filtered = records.filter { $0.at <= moment }
            let expected = ReadModels(state: LogView.latest.readModels(from: filtered).state, now: moment)
            #expect(tables(viewed) == tables(expected), "seed \(seed)")
            #expect(answers(viewed) == answers(expected), "seed \(seed)")
        }
    }

    @Test func theStoreFoldMatchesTheInMemoryFold() throws {
        let folder = TemporaryDirectory()
        let events = RandomLog.events(seed: 99, count: 500)
        let store = try SQLiteStore(path: folder.file("log.gtio"))
        _ = try store.append(EventBatch(source: "gen", events: events.enumerated().map { ($0.offset, $0.element) }))
        let engine = ReadModelEngine(store: store)
        let records = RandomLog.records(seed: 99, count: 500)
        for view in [LogView.latest, .atSeq(250), .asOf(Timestamp(milliseconds: records[300].at))] {
            let folded = try engine.fold(view), expected = view.readModels(from: records)
            #expect(tables(folded) == tables(expected))
            // Quick-add lists come from a second cursor beside the events; an as-of view skips
            // some events, and their lists must be skipped with them.
            #expect(folded.state.quickAddShownByDay == expected.state.quickAddShownByDay)
            #expect(folded.state.quickAddAcceptedByDay == expected.state.quickAddAcceptedByDay)
            #expect(expected.state.quickAddShownByDay.values.reduce(0, +) > 5)
        }
    }
}
