import Foundation
import GTIOCatalog
import GTIOStore
import GTIOTestSupport
import Testing

/// What every store backend must do, through the store protocols alone: each test runs once
/// per backend of `StoreBackend.all`.
@Suite struct StoreContractTests {
    let folder = TemporaryDirectory()

    // MARK: The log

    @Test(arguments: StoreBackend.all)
    func appendAssignsGaplessSeqAndSkipsIDsAlreadyInTheLog(_ backend: StoreBackend) throws {
        let store = try backend.open(in: folder)
        let first = try store.append(batch([heart("a"), heart("b"), heart("c")]))
        #expect(first.appended == 3)
        #expect(first.firstSeq == 1)
        #expect(first.lastSeq == 3)
        let second = try store.append(batch([heart("b"), heart("d"), heart("a"), heart("e")]))
        #expect(second.appended == 2)
        #expect(second.duplicates == 2)
        #expect(second.firstSeq == 4)
        #expect(second.lastSeq == 5)
        // Which of the batch were duplicates, so that a collector can give each event its seq.
        #expect(first.duplicateIndexes == [])
        #expect(second.duplicateIndexes == [0, 2])
        var ids: [String] = []
        try store.readEvents(in: 1...99) { ids.append($0.event.id) }
        #expect(ids == ["a", "b", "c", "d", "e"])
        #expect(try store.lastSeq() == 5)
        // The new events of a batch that also held old ones are chained as any others.
        guard case .intact = try store.verify() else { Issue.record("the log is intact"); return }
    }

    @Test(arguments: StoreBackend.all)
    func aResentIDWithDifferentContentKeepsTheFirst(_ backend: StoreBackend) throws {
        let store = try backend.open(in: folder)
        let outcome = try store.append(batch([heart("x", user: "first"), heart("x", user: "second")]))
        #expect(outcome.appended == 1)
        #expect(outcome.duplicates == 1)
        #expect(outcome.duplicateIndexes == [1])
        #expect(try store.event(at: 1)?.event.user == "first")
    }

    @Test(arguments: StoreBackend.all)
    func everyExampleComesBackAsItWentIn(_ backend: StoreBackend) throws {
        let store = try backend.open(in: folder)
        let lines = SharedFiles.exampleLines
        let events = try lines.map { try EventValidator.validate($0).get() }
        #expect(try store.append(batch(events)).appended == 37)
        for (index, line) in lines.enumerated() {
            let stored = try #require(try store.event(at: Int64(index + 1)))
            #expect(stored.event == events[index])
            #expect(stored.event.original == line)
        }
        var filter = EventFilter()
        filter.types = [.quickaddShown]
        let shown = try #require(try store.events(matching: filter).first)
        #expect(shown.event.list == ["u797d76de", "ua4b66f8c"])
    }

    @Test(arguments: StoreBackend.all)
    func scansGiveTheTypedColumnsInSeqOrderWithinTheirScope(_ backend: StoreBackend) throws {
        let store = try backend.open(in: folder)
        let events = try SharedFiles.exampleLines.map { try EventValidator.validate($0).get() }
        _ = try store.append(batch(events))
        var records: [LogRecord] = []
        try store.scan(LogScope(afterSeq: 0)) { records.append($0) }
        #expect(records.map(\.seq) == Array(1...37))
        let created = try #require(records.first { $0.type == .postCreated })
        #expect(created.user == "ua4b66f8c")
        #expect(created.subject == "p2545f4914f6d")
        #expect(created.value == "outfit")
        #expect(created.flag == true)
        #expect(created.at == Timestamp(rfc3339: "2012-04-24T12:10:50.283Z")!.milliseconds)
        #expect(records.first { $0.type == .quickaddShown }?.list == ["u797d76de", "ua4b66f8c"])

        // The raw rows say the same, column for column.
        var rows: [LogRecord] = []
        try store.scanRows(LogScope(afterSeq: 0)) { row in
            rows.append(LogRecord(
                seq: row.seq, type: row.type, at: row.at, user: row.text(.user), device: row.text(.device),
                subject: row.text(.subject), object: row.text(.object), value: row.text(.value), flag: row.flag,
                text: row.text(.text), list: try row.listed()))
        }
        #expect(rows == records)

        var middle: [Int64] = []
        try store.scan(LogScope(afterSeq: 10, throughSeq: 12)) { middle.append($0.seq) }
        #expect(middle == [11, 12])
        let cutoff = records[19].at
        var early: [Int64] = []
        var scope = LogScope(afterSeq: 0)
        scope.atMost = cutoff
        try store.scan(scope) { early.append($0.seq) }
        #expect(early == records.filter { $0.at <= cutoff }.map(\.seq))
    }

    /// What a writer keeps of its appends (`AppendedRecords`) is what a scan reads back, record
    /// for record: the catch-up that follows an ingest applies one in place of the other.
    @Test(arguments: StoreBackend.all)
    func theRecordsAWriterKeepsAreThoseAScanReadsBack(_ backend: StoreBackend) throws {
        let store = try backend.open(in: folder)
        let events = try SharedFiles.exampleLines.map { try EventValidator.validate($0).get() }
        var kept = AppendedRecords()
        // Every type, in three batches; the second repeats two of the first (left out, as the log leaves them).
        for part in [Array(events[0..<13]), [events[2]] + Array(events[13..<26]) + [events[5]], Array(events[26...])] {
            let appending = batch(part)
            kept.add(appending, try store.append(appending))
        }
        var scanned: [LogRecord] = []
        try store.scan(LogScope()) { scanned.append($0) }
        #expect(scanned.count == 37)
        #expect(kept.firstSeq == 1)
        #expect(kept.lastSeq == 37)
        var fromMemory: [LogRecord] = []
        while let next = kept.records(from: Int64(fromMemory.count + 1), through: 37) { fromMemory += next }
        #expect(fromMemory == scanned)
    }

    /// Appends the examples in three batches, so that a later one brings events to days an
    /// earlier one began; returns them as the log holds them.
    func appendExamplesInThreeBatches(to store: any EventStore) throws -> [LogRecord] {
        let events = try SharedFiles.exampleLines.map { try EventValidator.validate($0).get() }
        for part in stride(from: 0, to: events.count, by: 13) {
            _ = try store.append(batch(Array(events[part..<min(part + 13, events.count)])))
        }
        var records: [LogRecord] = []
        try store.scan(LogScope()) { records.append($0) }
        return records
    }

    /// The examples' times run back and forth against their seqs (15 of 36 steps go back), so a
    /// time range's events are not one run of seqs: every one must come, whole, lists included.
    @Test(arguments: StoreBackend.all)
    func aTimeRangeGivesEachEventInItWhateverItsSeq(_ backend: StoreBackend) throws {
        let store = try backend.open(in: folder)
        let records = try appendExamplesInThreeBatches(to: store)
        let times = records.map(\.at).sorted()
        for (low, high) in [(times[5], times[30]), (times[20], nil), (times[0], times[0]), (times[36] + 1, nil)] {
            var found: [LogRecord] = []
            try store.scan(LogScope(atMost: high, atLeast: low)) { found.append($0) }
            #expect(found == records.filter { $0.at >= low && $0.at <= (high ?? .max) }, "from \(low) to \(String(describing: high))")
            found = []
            try store.scan(LogScope(afterSeq: 3, throughSeq: 20, atMost: high, atLeast: low)) { found.append($0) }
            #expect(found == records.filter { $0.seq > 3 && $0.seq <= 20 && $0.at >= low && $0.at <= (high ?? .max) })
            // The span a reader may split the scan by holds every one of its events.
            if let span = try store.seqSpan(LogScope(afterSeq: 3, throughSeq: 20, atMost: high, atLeast: low)) {
                #expect(found.allSatisfy { span.contains($0.seq) } && span.lowerBound > 3 && span.upperBound <= 20)
            } else {
                #expect(found.isEmpty)
            }
        }
        #expect(try store.seqSpan(LogScope(atLeast: times[36] + 86_400_000 * 2)) == nil)
        #expect(try store.seqSpan(LogScope(afterSeq: 30)) == 31...Int64(records.count))
        #expect(times[5] != times[30] && records.firstIndex { $0.at >= times[5] }! > 0)
    }

    /// A scan read in pages gives every event of its scope once, in seq order, whatever the
    /// pages' bounds: a scope beginning or ending inside a page, and pages that hold none of the
    /// types asked for, or none of the times.
    @Test(arguments: StoreBackend.all)
    func aScanInPagesGivesEachEventOfItsScopeOnce(_ backend: StoreBackend) throws {
        let store = try backend.open(in: folder)
        let records = try appendExamplesInThreeBatches(to: store)
        #expect(records.count == 37)
        let picked = records.filter { $0.type == .postVoted || $0.type == .quickaddShown }
        #expect(picked.count == 2)
        let late = records.map(\.at).sorted()[30]
        let scopes: [(LogScope, [LogRecord])] = [
            (LogScope(), records),
            (LogScope(afterSeq: 5, throughSeq: 18), records.filter { $0.seq > 5 && $0.seq <= 18 }),
            (LogScope(afterSeq: 36), [records[36]]),
            (LogScope(afterSeq: 37), []),
            (LogScope(throughSeq: 1_000), records),
            (LogScope(atLeast: late), records.filter { $0.at >= late }),
            (LogScope(types: [.postVoted, .quickaddShown]), picked),
        ]
        for pageSize in [1, 4, 7, 100] {
            for (scope, expected) in scopes {
                let found = try backend.scan(store, scope, pageSize: pageSize)
                #expect(found == expected, "pages of \(pageSize), after \(scope.afterSeq) through \(String(describing: scope.throughSeq))")
            }
        }
    }

    /// A listing by user or type, alone, together or with times and seqs, gives exactly the
    /// events a filter of the whole log would, oldest first; with a limit the first ones, or the
    /// last ones when asked newest first (`events --tail`), and each whole, lists included.
    @Test(arguments: StoreBackend.all)
    func aListingByUserOrTypeGivesTheEventsAWholeFilterWould(_ backend: StoreBackend) throws {
        let store = try backend.open(in: folder)
        _ = try appendExamplesInThreeBatches(to: store)
        // Hearts by three users in turn, one of them a user of the examples.
        let user = "ua4b66f8c"
        let hearts = (0..<24).map { heart("h\($0)", user: ["u1", "u2", user][$0 % 3], post: "p\($0 % 5)", second: 59 - 2 * $0) }
        _ = try store.append(batch(hearts))
        var records: [LogRecord] = []
        try store.scan(LogScope()) { records.append($0) }
        let byUser = records.filter { $0.user == user }
        #expect(byUser.count == 13)
        let late = records.map(\.at).sorted()[30]
        func listed(_ change: (inout EventFilter) -> Void) throws -> [Int64] {
            var filter = EventFilter()
            change(&filter)
            return try store.events(matching: filter).map(\.seq)
        }
        let cases: [(String, (inout EventFilter) -> Void, [LogRecord])] = [
            ("user", { $0.user = user }, byUser),
            ("types", { $0.types = [.postVoted, .quickaddShown] }, records.filter { $0.type == .postVoted || $0.type == .quickaddShown }),
            ("user and type", { $0.user = user; $0.types = [.postCreated] }, byUser.filter { $0.type == .postCreated }),
            ("user since", { $0.user = user; $0.since = Timestamp(milliseconds: late) }, byUser.filter { $0.at >= late }),
            ("user until", { $0.user = user; $0.until = Timestamp(milliseconds: late) }, byUser.filter { $0.at <= late }),
            ("user within seqs", { $0.user = user; $0.afterSeq = 12; $0.throughSeq = 50 }, byUser.filter { $0.seq > 12 && $0.seq <= 50 }),
            ("user, first three", { $0.user = user; $0.limit = 3 }, Array(byUser.prefix(3))),
            ("user, last three", { $0.user = user; $0.limit = 3; $0.newestFirst = true }, Array(byUser.suffix(3))),
            ("user and post", { $0.user = user; $0.post = "p2545f4914f6d" },
             byUser.filter { $0.subject == "p2545f4914f6d" || ($0.type == .reviewAdded && $0.object == "p2545f4914f6d") }),
            ("nobody", { $0.user = "nobody" }, []),
        ]
        for (name, change, expected) in cases {
            #expect(try listed(change) == expected.map(\.seq), "\(name)")
        }
        var shown = EventFilter()
        shown.user = "u5e1ea978"
        shown.types = [.quickaddShown]
        let events = try store.events(matching: shown)
        #expect(events.map(\.event.list) == [["u797d76de", "ua4b66f8c"]])
        #expect(events.first?.event.original == SharedFiles.exampleLines[Int(events.first?.seq ?? 1) - 1])
    }

    /// The earliest and latest `at` in view, for a view up to each seq and each time: the
    /// examples' times run back and forth against their seqs, and a day's last event may come
    /// in a later batch than its first.
    @Test(arguments: StoreBackend.all)
    func theTimeExtentIsTheEarliestAndLatestAtInView(_ backend: StoreBackend) throws {
        let store = try backend.open(in: folder)
        #expect(try store.timeExtent(throughSeq: nil, atMost: nil) == nil)
        let records = try appendExamplesInThreeBatches(to: store)
        let times = records.map(\.at).sorted()
        var checked = 0
        for through in [nil, 1, 2, 5, 13, 14, 20, 26, 30, Int64(records.count)] as [Int64?] {
            for atMost in [nil, times[0] - 1, times[0], times[3], times[17], times[17] - 1, times[36], times[36] + 86_400_000] as [Int64?] {
                let inView = records.filter { $0.seq <= (through ?? .max) && $0.at <= (atMost ?? .max) }.map(\.at)
                let expected = inView.min().map { $0...inView.max()! }
                #expect(try store.timeExtent(throughSeq: through, atMost: atMost) == expected,
                        "through \(String(describing: through)), at most \(String(describing: atMost))")
                if expected != nil { checked += 1 }
            }
        }
        #expect(checked == 70)
        #expect(try store.status().firstAt?.milliseconds == times[0])
        #expect(try store.status().lastAt?.milliseconds == times[36])
    }

    /// A day's seqs may hold an older day's event: the latest time before a moment on that day
    /// is then on the day before, not that older event's.
    @Test(arguments: StoreBackend.all)
    func theLatestTimeBeforeAMomentMaySkipADaysOlderEvents(_ backend: StoreBackend) throws {
        let store = try backend.open(in: folder)
        let lines = [("a", "2012-04-24T23:00:00Z"), ("c", "2012-04-25T12:00:00Z"), ("b", "2012-04-23T10:00:00Z"), ("e", "2012-04-25T13:00:00Z")]
        _ = try store.append(batch(try lines.map { id, at in
            try EventValidator.validate(#"{"id":"\#(id)","type":"post.hearted","at":"\#(at)","user":"u1","data":{"post":"p1"}}"#).get()
        }))
        let at = { (text: String) in Timestamp(rfc3339: text)!.milliseconds }
        #expect(try store.timeExtent(throughSeq: nil, atMost: at("2012-04-25T09:00:00Z"))
            == at("2012-04-23T10:00:00Z")...at("2012-04-24T23:00:00Z"))
        #expect(try store.timeExtent(throughSeq: 3, atMost: nil) == at("2012-04-23T10:00:00Z")...at("2012-04-25T12:00:00Z"))
        #expect(try store.timeExtent(throughSeq: 1, atMost: nil) == at("2012-04-24T23:00:00Z")...at("2012-04-24T23:00:00Z"))
    }

    @Test(arguments: StoreBackend.all)
    func aFailedWriteLeavesNoEventsAndAFailedTableWriteNoCheckpoints(_ backend: StoreBackend) throws {
        let store = try backend.open(in: folder)
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try store.write { tx in
                _ = try tx.append(batch([heart("a"), heart("b")]))
                throw Boom()
            }
        }
        #expect(try store.lastSeq() == 0)
        let seqs = try store.write { tx -> [Int64] in
            _ = try tx.append(batch([heart("a"), heart("b")]))
            var seen: [Int64] = []
            try tx.scan(LogScope(afterSeq: 0)) { seen.append($0.seq) }
            return seen
        }
        #expect(seqs == [1, 2], "a transaction sees its own appends")
        #expect(throws: Boom.self) {
            try store.writeTables { tx in
                try tx.setCheckpoint("looks", seq: 2)
                throw Boom()
            }
        }
        #expect(try store.checkpoint(named: "looks") == 0)
        try store.writeTables { try $0.setCheckpoint("looks", seq: 2) }
        #expect(try store.checkpoints(named: ["looks", "never"]) == ["looks": 2])
        #expect(try store.write { try $0.checkpoints(named: ["looks"]) } == ["looks": 2], "the log's writer reads the tables")
    }

    @Test(arguments: StoreBackend.all)
    func signedHeadsProveTheLogAndAnUnsignedAppendIsNamed(_ backend: StoreBackend) throws {
        let signer = BatchSigner()
        let store = try backend.open(in: folder, signer: signer)
        _ = try store.append(batch([heart("a"), heart("b")]))
        _ = try store.write { try $0.append(batch([heart("c")])) }
        let last = try #require(try store.lastSignature())
        #expect(last.batch == 2)
        #expect(last.lastSeq == 3)
        #expect(last.isValid(by: signer.publicKey))
        guard case .intact(_, let head, let signatures, _) = try store.verify(LogAudit(key: signer.publicKey)) else {
            Issue.record("a log appended with the key is proven by it")
            return
        }
        #expect(head == last.head)
        #expect(signatures == SignatureFindings(signedBatches: 2, lastSignedSeq: 3, checked: true))

        _ = try backend.open(in: folder).append(batch([heart("d")]))
        #expect(try store.verify(LogAudit(key: signer.publicKey)) == .broken(seq: 4, problem: """
            unsigned: seq 4 carries no head signed by key \(signer.publicKey.shortName) \
            (appended without the signing key, or forged); the log is proven up to seq 3
            """))
    }

    /// The collector commits several requests' batches in one transaction: each is still a batch
    /// of its own, numbered, chained, signed and counted as if appended alone, an id of an earlier
    /// one a duplicate in a later one, a corrected line settling its quarantine entry.
    @Test(arguments: StoreBackend.all)
    func batchesAppendedTogetherAreAppendedAsOneAfterAnother(_ backend: StoreBackend) throws {
        let signer = BatchSigner()
        let bad = RejectedLine(line: 2, reason: "bad", original: Array("nope".utf8))
        let batches = [
            batch([heart("a"), heart("b")], source: "one"),
            EventBatch(source: "two", events: [(1, heart("c")), (3, heart("a"))], rejected: [bad]),
            EventBatch(source: "fixed", events: [(1, heart("d")), (2, heart("e"))]),
            batch([heart("c"), heart("b")], source: "three"),
        ]
        var logs: [[String]] = []
        var outcomes: [[AppendOutcome]] = []
        for together in [false, true] {
            let folder = TemporaryDirectory()
            let store = try backend.open(in: folder, signer: signer)
            _ = try store.append(EventBatch(source: "fixed", rejected: [RejectedLine(line: 2, reason: "old", original: [1])]))
            outcomes.append(together
                ? try store.write { try $0.append(batches) }
                : try batches.map { batch in try store.write { try $0.append(batch) } })
            let events = try store.readOnlySQL("SELECT seq, id, batch FROM events ORDER BY seq", limits: SQLLimits())
            let records = try store.readOnlySQL(
                "SELECT batch, source, first_line, last_line, first_seq, last_seq, read, appended, duplicates, rejected FROM batches ORDER BY batch",
                limits: SQLLimits())
            let quarantine = try store.quarantineEntries(includeSettled: true).map { "\($0.source):\($0.line) \($0.status) \($0.seq ?? 0)" }
            logs.append((events.rows + records.rows).map { "\($0)" } + quarantine)
            guard case .intact(_, _, let signatures, _) = try store.verify(LogAudit(key: signer.publicKey)) else {
                Issue.record("batches appended together chain and sign as appended apart")
                continue
            }
            #expect(signatures == SignatureFindings(signedBatches: 5, lastSignedSeq: 5, checked: true))
        }
        #expect(logs[1] == logs[0])
        #expect(outcomes[1] == outcomes[0])
        #expect(outcomes[1].map(\.appended) == [2, 1, 2, 0])
        #expect(outcomes[1].map(\.duplicateIndexes) == [[], [1], [], [0, 1]])
        #expect(outcomes[1].map(\.settled) == [0, 0, 1, 0])
        #expect(outcomes[1].map(\.quarantined) == [0, 1, 0, 0])
        #expect(logs[1].last == "two:2 open 0")
    }

    @Test(arguments: StoreBackend.all)
    func verifyFindsTheChainIntactAndReopeningKeepsTheLog(_ backend: StoreBackend) throws {
        _ = try backend.open(in: folder).append(batch([heart("a"), heart("b")]))
        let reopened = try backend.open(in: folder)
        #expect(try reopened.status().events == 2)
        #expect(try reopened.append(batch([heart("b"), heart("c")])).appended == 1)
        guard case .intact(let events, let head, _, _) = try reopened.verify() else {
            Issue.record("the chain of an untouched log is intact")
            return
        }
        #expect(events == 3)
        #expect(head.count == 32)
    }

    @Test(arguments: StoreBackend.all)
    func guardsTakenAwayOrAddedAreNamedAndMadeAgain(_ backend: StoreBackend) throws {
        let store = try backend.open(in: folder)
        _ = try store.append(batch([heart("a"), heart("b")]))
        #expect(try store.guardFindings() == [])
        #expect(try store.restoreGuards() == [])

        // What someone with write access does before changing an event, and a trigger of their own.
        try backend.tamper(store, sqlite: [
            "DROP TRIGGER events_no_update",
            "CREATE TRIGGER sneaky AFTER INSERT ON quarantine BEGIN SELECT 1; END",
        ], postgres: [
            "ALTER TABLE events DISABLE TRIGGER events_no_change",
            "CREATE TRIGGER sneaky AFTER INSERT ON quarantine FOR EACH ROW EXECUTE FUNCTION gtio_refuse_change()",
        ])
        let expected = backend.name == StoreBackend.postgres.name
            ? [LogGuardFinding(name: "events_no_change", table: "events", problem: .disabled, refuses: "UPDATE and DELETE"),
               LogGuardFinding(name: "sneaky", table: "quarantine", problem: .foreign)]
            : [LogGuardFinding(name: "events_no_update", table: "events", problem: .missing,
                               refuses: "the event log is append-only: events cannot be updated"),
               LogGuardFinding(name: "sneaky", table: "quarantine", problem: .foreign)]
        #expect(try store.guardFindings() == expected)
        // The events themselves are as appended: the chain holds.
        guard case .intact(let events, _, _, _) = try store.verify() else { Issue.record("the events are untouched"); return }
        #expect(events == 2)

        #expect(try store.restoreGuards() == expected)
        #expect(try store.guardFindings() == [])
        #expect {
            try backend.tamper(store, sqlite: ["UPDATE events SET user = 'mallory' WHERE seq = 1"],
                               postgres: ["UPDATE events SET \"user\" = 'mallory' WHERE seq = 1"])
        } throws: { "\($0)".contains("the event log is append-only: events cannot be updated") }
        guard case .intact = try store.verify() else { Issue.record("still intact"); return }
    }

    /// A post with two brands and a place, and a heart: seqs 1 and 2.
    static let postLine = #"{"id":"p","type":"post.created","at":"2012-04-23T10:00:00Z","user":"u1","data":{"post":"p1","kind":"outfit","voting":true,"brands":["Zara","Gap"],"location":{"name":"Soho","lat":40.72,"lon":-74.0}}}"#

    @Test(arguments: StoreBackend.all)
    func verifyHoldsThePropertyRowsToTheOriginalLines(_ backend: StoreBackend) throws {
        let store = try backend.open(in: folder)
        guard case .success(let post) = EventValidator.validate(Self.postLine) else { Issue.record("the post is valid"); return }
        _ = try store.append(batch([post, heart("h", second: 1)]))
        guard case .intact = try store.verify() else { Issue.record("an untouched log is intact"); return }
        func tamper(_ sql: String) throws {
            // The triggers are what the attacker removes first.
            let triggers = ["no_update", "no_delete", "append"].map { "DROP TRIGGER IF EXISTS event_properties_\($0)" }
            try backend.tamper(store, sqlite: triggers + [sql], postgres: ["ALTER TABLE event_properties DISABLE TRIGGER USER", sql])
        }

        try tamper("UPDATE event_properties SET text = 'Gucci' WHERE seq = 1 AND name = 'brands' AND position = 1")
        #expect(try store.verify() == .broken(seq: 1, problem: """
            event_properties: brands[1] = "Gucci" where the original line gives "Gap" (insights by that property would be wrong)
            """))
        try tamper("UPDATE event_properties SET text = 'Gap' WHERE seq = 1 AND name = 'brands' AND position = 1")
        guard case .intact = try store.verify() else { Issue.record("the row put back"); return }

        try tamper("DELETE FROM event_properties WHERE seq = 1 AND name = 'location.lat'")
        #expect(try store.verify() == .broken(seq: 1, problem: """
            event_properties: location.lat[0] = 40.72 is missing (insights by that property would be wrong)
            """))
        try tamper("INSERT INTO event_properties (seq, name, position, text, number) VALUES (1, 'location.lat', 0, '40.72', 40.72)")
        #expect(try store.verify() == .broken(seq: 1, problem: """
            event_properties: location.lat[0] = "40.72" / 40.72 where the original line gives 40.72 (insights by that property would be wrong)
            """))
        try tamper("UPDATE event_properties SET text = NULL WHERE seq = 1 AND name = 'location.lat'")
        try tamper("INSERT INTO event_properties (seq, name, position, text) VALUES (2, 'brands', 0, 'Zara')")
        #expect(try store.verify() == .broken(seq: 2, problem: """
            event_properties: a row brands[0] that no property of this event's original line gives
            """))
    }

    /// The same check over a log of many pages: the pages of events and of property rows end
    /// at different seqs, and a change is found whichever page it falls in.
    @Test(arguments: StoreBackend.all)
    func verifyHoldsThePropertyRowsAcrossPages(_ backend: StoreBackend) throws {
        let store = try backend.open(in: folder)
        var events: [ValidatedEvent] = []
        for n in 1...6 {
            let line = Self.postLine.replacingOccurrences(of: #""id":"p""#, with: #""id":"p\#(n)""#)
                .replacingOccurrences(of: #""post":"p1""#, with: #""post":"p\#(n)""#)
            guard case .success(let post) = EventValidator.validate(line) else { Issue.record("post \(n) is valid"); return }
            events += [post, heart("h\(n)", second: n)]
        }
        _ = try store.append(batch(events))
        // Pages of one seq leave every heart's page without a post, and so without properties.
        let pageSizes = [1, 4]
        for size in pageSizes {
            guard case .intact = try backend.verify(store, pageSize: size) else { Issue.record("an untouched log is intact"); return }
        }
        func tamper(_ sql: String) throws {
            let triggers = ["no_update", "no_delete", "append"].map { "DROP TRIGGER IF EXISTS event_properties_\($0)" }
            try backend.tamper(store, sqlite: triggers + [sql], postgres: ["ALTER TABLE event_properties DISABLE TRIGGER USER", sql])
        }
        try tamper("UPDATE event_properties SET text = 'Gucci' WHERE seq = 9 AND name = 'brands' AND position = 0")
        for size in pageSizes {
            #expect(try backend.verify(store, pageSize: size) == .broken(seq: 9, problem: """
                event_properties: brands[0] = "Gucci" where the original line gives "Zara" (insights by that property would be wrong)
                """))
        }
        try tamper("UPDATE event_properties SET text = 'Zara' WHERE seq = 9 AND name = 'brands' AND position = 0")
        try tamper("INSERT INTO event_properties (seq, name, position, text) VALUES (12, 'brands', 0, 'Zara')")
        for size in pageSizes {
            #expect(try backend.verify(store, pageSize: size) == .broken(seq: 12, problem: """
                event_properties: a row brands[0] that no property of this event's original line gives
                """))
        }
    }

    /// The upkeep a collector moves off its commits changes nothing appends do or verify sees,
    /// while it runs and after it stops.
    @Test(arguments: StoreBackend.all)
    func appendsBesideTheUpkeepAsideAreAsAnyOthers(_ backend: StoreBackend) throws {
        let store = try backend.open(in: folder)
        let upkeep = try store.startUpkeepAside()
        for round in 0..<20 {
            let outcome = try store.append(batch((0..<50).map { heart("e\(round * 40 + $0)", second: round) }))
            #expect(outcome.appended == (round == 0 ? 50 : 40))
            upkeep?.committed()
        }
        upkeep?.stop()
        _ = try store.append(batch([heart("after")]))
        #expect(try store.lastSeq() == 50 + 19 * 40 + 1)
        guard case .intact(let events, _, _, _) = try store.verify() else { Issue.record("the log is intact"); return }
        #expect(events == 50 + 19 * 40 + 1)
    }

    // MARK: Quarantine

    @Test(arguments: StoreBackend.all)
    func quarantinesRejectedLinesOnceWithSourceLineAndReason(_ backend: StoreBackend) throws {
        let store = try backend.open(in: folder)
        let broken: [UInt8] = Array("{\"id\":".utf8) + [0xFF, 0xFE]
        let rejected = [
            RejectedLine(line: 2, reason: "type: missing", original: Array(#"{"id":"e9"}"#.utf8)),
            RejectedLine(line: 3, reason: "invalid JSON: unexpected non-ASCII byte at byte 7", original: broken),
        ]
        let outcome = try store.append(batch([heart("a")], rejected: rejected))
        #expect(outcome.rejected == 2)
        #expect(outcome.quarantined == 2)
        // The same input again (an interrupted ingest re-run): nothing is kept twice.
        let again = try store.append(batch([heart("a")], rejected: rejected))
        #expect(again.quarantined == 0)
        let entries = try store.quarantineEntries()
        #expect(entries.count == 2)
        #expect(entries[0].source == "test.jsonl")
        #expect(entries[0].line == 2)
        #expect(entries[0].reason == "type: missing")
        #expect(entries[0].originalText == #"{"id":"e9"}"#)
        #expect(entries[1].original == broken)
        #expect(try store.quarantineEntry(entries[1].entry)?.original == broken)
        #expect(try store.status().quarantined == 2)
    }

    @Test(arguments: StoreBackend.all)
    func aCorrectedLineAtTheSameSourceAndLineSettlesItsEntry(_ backend: StoreBackend) throws {
        let store = try backend.open(in: folder)
        _ = try store.append(EventBatch(source: "f.jsonl", rejected: [RejectedLine(line: 1, reason: "bad", original: [1])]))
        let outcome = try store.append(EventBatch(source: "f.jsonl", events: [(1, heart("fixed"))]))
        #expect(outcome.settled == 1)
        let entry = try #require(try store.quarantineEntries(includeSettled: true).first)
        #expect(entry.status == "appended")
        #expect(entry.seq == 1)
        #expect(entry.settled != nil)
        #expect(try store.quarantineEntries().isEmpty)
        // A copy keeps when the entry was settled, not when it was copied.
        Thread.sleep(forTimeInterval: 0.01)
        let other = TemporaryDirectory()
        let copy = try backend.open(in: other)
        #expect(try copy.copyQuarantine([entry]) == 1)
        #expect(try copy.quarantineEntries(includeSettled: true) == [entry])
        // A copy settles an entry still open, but never opens a settled one again.
        var reopened = entry
        reopened.status = "open"
        reopened.seq = nil
        reopened.settled = nil
        #expect(try copy.copyQuarantine([reopened]) == 0)
        #expect(try copy.quarantineEntries(includeSettled: true) == [entry])
    }

    @Test(arguments: StoreBackend.all)
    func aQuarantinedLineStaysAsItCameAndASettledEntryStaysSettled(_ backend: StoreBackend) throws {
        let store = try backend.open(in: folder)
        _ = try store.append(EventBatch(source: "f.jsonl", rejected: [
            RejectedLine(line: 1, reason: "bad", original: [1]), RejectedLine(line: 2, reason: "bad", original: [2]),
        ]))
        _ = try store.append(EventBatch(source: "f.jsonl", events: [(1, heart("fixed"))]))
        let before = try store.quarantineEntries(includeSettled: true)
        #expect(before.map(\.status) == ["appended", "open"])
        for (sqlite, postgres) in [
            ("DELETE FROM quarantine WHERE entry = 2", "DELETE FROM quarantine WHERE entry = 2"),
            ("UPDATE quarantine SET original = X'03' WHERE entry = 2", "UPDATE quarantine SET original = '\\x03' WHERE entry = 2"),
            ("UPDATE quarantine SET line = 9 WHERE entry = 2", "UPDATE quarantine SET line = 9 WHERE entry = 2"),
            ("UPDATE quarantine SET status = 'open', seq = NULL WHERE entry = 1", "UPDATE quarantine SET status = 'open', seq = NULL WHERE entry = 1"),
        ] {
            // Refused in the guards' words: "the quarantine keeps every rejected line …" (and on
            // PostgreSQL's delete, "… quarantine cannot be deleted").
            #expect("\(sqlite)") { try backend.tamper(store, sqlite: [sqlite], postgres: [postgres]) } throws: { "\($0)".contains("quarantine") }
        }
        #expect { try backend.tamper(store, sqlite: ["DELETE FROM quarantine"], postgres: ["TRUNCATE quarantine"]) } throws: {
            "\($0)".contains("quarantine")
        }
        #expect(try store.quarantineEntries(includeSettled: true) == before)
        // An open entry is still settled, and given a new reason when a retry fails again.
        try backend.tamper(store, sqlite: ["UPDATE quarantine SET reason = 'worse' WHERE entry = 2"],
                           postgres: ["UPDATE quarantine SET reason = 'worse' WHERE entry = 2"])
        #expect(try store.quarantineEntry(2)?.reason == "worse")
        #expect(try store.guardFindings() == [])
    }

    @Test(arguments: StoreBackend.all)
    func retryAppendsWhatIsNowValidAndKeepsTheRest(_ backend: StoreBackend) throws {
        let store = try backend.open(in: folder)
        let good = #"{"id":"ok","type":"post.hearted","at":"2012-04-23T00:00:00Z","user":"u","data":{"post":"p"}}"#
        _ = try store.append(EventBatch(source: "f.jsonl", rejected: [
            RejectedLine(line: 1, reason: "old reason", original: Array(good.utf8)),
            RejectedLine(line: 2, reason: "old reason", original: Array("nope".utf8)),
        ]))
        let outcome = try store.retryQuarantine { bytes in bytes.withUnsafeBufferPointer { EventValidator.validate($0) } }
        #expect(outcome == { var o = QuarantineRetryOutcome(); o.appended = 1; o.stillRejected = 1; return o }())
        #expect(try store.event(at: 1)?.event.id == "ok")
        let open = try store.quarantineEntries()
        #expect(open.map(\.line) == [2])
        #expect(open[0].reason == "invalid JSON: invalid literal (expected true, false or null) at byte 1")
    }

    // MARK: Tables

    static let scores = TableLayout(
        name: "rm_test_scores", columns: [("user", .text), ("day", .integer), ("score", .real), ("note", .text)],
        keyCount: 2, indexes: [["score DESC"]])

    /// Rows read a column at a time (walks that decide by numbers) give what whole rows give.
    @Test(arguments: StoreBackend.all)
    func rowsReadAColumnAtATimeGiveWhatWholeRowsGive(_ backend: StoreBackend) throws {
        let store = try backend.open(in: folder)
        try store.writeTables { tx in
            try tx.create(Self.scores)
            for row: [StoreValue] in [["b", .integer(1), .real(0.75), "été ☀︎"], ["a", .integer(-2), .real(-1.25), ""],
                                      ["c", .integer(9_007_199_254_740_993), .null, .null]] {
                try tx.insert(row, into: Self.scores)
            }
        }
        // Every column, and an expression of each kind besides (a blob, a real read as an integer).
        let blob = backend.name == "SQLite" ? "CAST(user AS BLOB)" : "convert_to(\"user\", 'UTF8')"
        let sql = "SELECT user, day, score, note, day * 2.5, \(blob) FROM rm_test_scores WHERE day > ? ORDER BY user"
        let whole = try store.readTables { try $0.rows(sql, [.integer(-5)]) }
        #expect(whole.count == 3)
        var read: [[StoreValue]] = [], numbers: [[Int64?]] = [], reals: [[Double?]] = []
        try store.readTables { tables in
            try tables.forEachRow(sql, [.integer(-5)], expecting: nil) { row in
                read.append(row.values(6))
                numbers.append((0..<6).map(row.int64))
                reals.append((0..<6).map(row.double))
                return true
            }
        }
        #expect(read == whole)
        #expect(numbers == whole.map { $0.map(\.int64) })
        #expect(reals == whole.map { $0.map(\.double) })
        // A walk that stops leaves the statement ready for the next one.
        var first: [Int64?] = []
        for _ in 0..<2 {
            try store.readTables { tables in
                try tables.forEachRow(sql, [.integer(0)], expecting: 1) { row in
                    first.append(row.int64(1))
                    return false
                }
            }
        }
        #expect(first == [1, 1])
    }

    @Test(arguments: StoreBackend.all)
    func tablesTakeRowsOneByOneAndInBulkAndGiveThemBack(_ backend: StoreBackend) throws {
        let store = try backend.open(in: folder)
        var packed = PackedRows(width: 4)
        for (user, day, score, note) in [("b", 1, 0.5, "été ☀︎"), ("a", 2, -1.25, ""), ("a", 1, 3.0, nil as String?)] {
            packed.append(user)
            packed.append(Int64(day))
            packed.append(score)
            packed.append(note)
        }
        try store.writeTables { tx in
            try tx.create(Self.scores)
            try tx.insert(packed, into: Self.scores)
            try tx.insert(["c", .integer(9), .real(2), .null], into: Self.scores)
            try tx.delete(from: Self.scores, key: ["b", .integer(1)])
            try tx.setCheckpoint("scores", seq: 4)
        }
        let rows = try store.readTables { try $0.rows(Self.scores.orderedSelectSQL) }
        #expect(rows == [
            ["a", .integer(1), .real(3), .null],
            ["a", .integer(2), .real(-1.25), ""],
            ["c", .integer(9), .real(2), .null],
        ])
        // '' stays text: NULL and the empty string are different answers.
        #expect(try store.readTables { try $0.row("SELECT COUNT(*) FROM rm_test_scores WHERE note = ''") }?[0] == .integer(1))
        #expect(try store.checkpoint(named: "scores") == 4)

        try store.writeTables { tx in try tx.delete(from: "rm_test_scores", where: "user", is: "a") }
        #expect(try store.readTables { try $0.rows("SELECT user FROM rm_test_scores") } == [["c"]])
        try store.writeTables { tx in try tx.deleteAll(from: "rm_test_scores") }
        #expect(try store.readTables { try $0.rows("SELECT * FROM rm_test_scores") }.isEmpty)

        // A load replaces every row, as a rebuild writes a table, and may be done again.
        for round in 1...2 {
            var loaded = PackedRows(width: 4)
            for (user, day) in [("e", round), ("d", 7)] {
                loaded.append(user)
                loaded.append(Int64(day))
                loaded.append(Double(day))
                loaded.append(nil as String?)
            }
            try store.writeTables { tx in try tx.load(loaded, into: Self.scores) }
            #expect(try store.readTables { try $0.rows("SELECT user, day FROM rm_test_scores ORDER BY score DESC") }
                == [["d", .integer(7)], ["e", .integer(Int64(round))]])
        }

        // A key given twice fails the load, even late in a statement of many rows or one sent
        // without waiting, with the database's own words on it, and the transaction leaves the
        // table as it was.
        var twice = PackedRows(width: 4)
        for index in 0..<200 {
            twice.append("u\(index == 150 ? 100 : index)")
            twice.append(Int64(1))
            twice.append(Double(index))
            twice.append(nil as String?)
        }
        let failure = #expect(throws: (any Error).self) {
            try store.writeTables { tx in
                try tx.load(twice, into: Self.scores)
                try tx.setCheckpoint("scores", seq: 5)
            }
        }
        #expect("\(failure.map { $0 } as Any)".contains("rm_test_scores"))
        #expect(try store.checkpoint(named: "scores") == 4)
        #expect(try store.readTables { try $0.rows("SELECT user, day FROM rm_test_scores ORDER BY score DESC") }
            == [["d", .integer(7)], ["e", .integer(2)]])
    }

    /// A catch-up's changed rows: each key's row as given, or gone when none is given.
    @Test(arguments: StoreBackend.all)
    func rewritingSetsEachKeysRowOrDeletesIt(_ backend: StoreBackend) throws {
        let store = try backend.open(in: folder)
        try store.writeTables { tx in
            try tx.create(Self.scores)
            for row: [StoreValue] in [["a", .integer(1), .real(1), "x"], ["b", .integer(1), .real(2), .null], ["c", .integer(1), .real(3), "z"]] {
                try tx.insert(row, into: Self.scores)
            }
        }
        try store.writeTables { tx in
            try tx.rewrite(Self.scores, keys: [["a", .integer(1)], ["b", .integer(1)], ["d", .integer(2)], ["e", .integer(9)]], rows: [
                ["a", .integer(1), .real(-1.5), ""],
                nil,
                ["d", .integer(2), .real(4), "été ☀︎"],
                nil,
            ])
            // Again in the same transaction: the statements are reused with new values.
            try tx.rewrite(Self.scores, keys: [["c", .integer(1)], ["d", .integer(2)]], rows: [
                ["c", .integer(1), .real(3), .null],
                ["d", .integer(2), .real(4), "été ☀︎"],
            ])
        }
        #expect(try store.readTables { try $0.rows(Self.scores.orderedSelectSQL) } == [
            ["a", .integer(1), .real(-1.5), ""],
            ["c", .integer(1), .real(3), .null],
            ["d", .integer(2), .real(4), "été ☀︎"],
        ])
        #expect(try store.readTables { try $0.row("SELECT COUNT(*) FROM rm_test_scores WHERE note = ''") }?[0] == .integer(1))
    }

    /// A parent's rows replaced whole (a post's brands): every row of the values named goes, the
    /// rows given come in, and no values named only inserts.
    @Test(arguments: StoreBackend.all)
    func replacingRemovesTheRowsOfTheValuesNamedAndInsertsTheRowsGiven(_ backend: StoreBackend) throws {
        let store = try backend.open(in: folder)
        try store.writeTables { tx in
            try tx.create(Self.scores)
            try tx.replace(Self.scores, where: "user", in: [], with: [
                ["a", .integer(1), .real(1), .null], ["a", .integer(2), .real(2), "x"], ["b", .integer(1), .real(3), ""],
                ["c", .integer(1), .real(4), .null],
            ])
            try tx.replace(Self.scores, where: "user", in: ["a", "c", "z"], with: [["a", .integer(3), .real(-1), "été"]])
        }
        #expect(try store.readTables { try $0.rows(Self.scores.orderedSelectSQL) } == [
            ["a", .integer(3), .real(-1), "été"],
            ["b", .integer(1), .real(3), ""],
        ])
    }

    @Test(arguments: StoreBackend.all)
    func readingStopsWhereTheReaderSaysSo(_ backend: StoreBackend) throws {
        let store = try backend.open(in: folder)
        try store.writeTables { tx in
            try tx.create(Self.scores)
            for day in 1...50 { try tx.insert(["u", .integer(Int64(day)), .real(Double(day)), .null], into: Self.scores) }
        }
        var seen: [Int64] = []
        try store.readTables { tables in
            try tables.forEachRow("SELECT day FROM rm_test_scores WHERE score > ? ORDER BY score DESC", [.real(10)]) { row in
                seen.append(row[0].int64 ?? 0)
                return seen.count < 3
            }
        }
        #expect(seen == [50, 49, 48])
    }

    @Test(arguments: StoreBackend.all)
    func placeholdersMayBeNumberedAndAFailedReadSaysWhy(_ backend: StoreBackend) throws {
        let store = try backend.open(in: folder)
        try store.writeTables { tx in
            try tx.create(Self.scores)
            for day in 1...5 { try tx.insert(["u", .integer(Int64(day)), .real(Double(day)), .null], into: Self.scores) }
        }
        // `?NNN` binds by number, as in SQLite: days 2…4, but not 1 + 2.
        let counted = try store.readTables { tables in
            try tables.row("SELECT COUNT(*) FROM rm_test_scores WHERE day > ?1 AND score < ?2 AND day <> ?1 + 2", [.integer(1), .real(5)])
        }
        #expect(counted?[0] == .integer(2))
        // The statement's own error, not one about what came after it (a cursor on a server).
        #expect {
            try store.readTables { tables in try tables.forEachRow("SELECT no_such_column FROM rm_test_scores", []) { _ in true } }
        } throws: { "\($0)".contains("no_such_column") }
        // And the next read is not hurt by it.
        #expect(try store.readTables { try $0.row("SELECT COUNT(*) FROM rm_test_scores") }?[0] == .integer(5))
    }

    @Test(arguments: StoreBackend.all)
    func tableNamesAreFoundByPrefixTakenLiterally(_ backend: StoreBackend) throws {
        let store = try backend.open(in: folder)
        try store.writeTables { tx in
            try tx.create(Self.scores)
            var other = Self.scores
            other.name = "rmxtest"
            other.indexes = []
            try tx.create(other)
        }
        // `_` is a wildcard in SQL's LIKE: a prefix must not match "rmx…".
        #expect(try store.readTables { try $0.tableNames(prefix: "rm_") } == ["rm_test_scores"])
        // A table is had by its whole name only.
        let had = try store.readTables { tables in
            try ["rm_test_scores", "rm_test_score", "rm_test", "rmxtest", "rm_test_scores2"].filter(tables.hasTable)
        }
        #expect(had == ["rm_test_scores", "rmxtest"])
        try store.writeTables { tx in
            #expect(try tx.hasTable("rm_test_scores"))
            try tx.drop(table: "rm_test_scores")
            #expect(try !tx.hasTable("rm_test_scores"))
        }
        #expect(try store.readTables { try $0.tableNames(prefix: "rm_") }.isEmpty)
        #expect(try store.readTables { try $0.hasTable("rm_test_scores") } == false)
    }

    @Test(arguments: StoreBackend.all)
    func scratchTablesAreApartFromTheStore(_ backend: StoreBackend) throws {
        let store = try backend.open(in: folder)
        let scratch = try store.scratchTables()
        try scratch.writeTables { tx in
            try tx.create(Self.scores)
            try tx.insert(["u", .integer(1), .real(1), .null], into: Self.scores)
            try tx.setCheckpoint("scores", seq: 9)
        }
        #expect(try scratch.readTables { try $0.rows("SELECT user FROM rm_test_scores") } == [["u"]])
        #expect(try store.readTables { try $0.tableNames(prefix: "rm_") }.isEmpty)
        #expect(try store.checkpoint(named: "scores") == 0)
    }

    // MARK: Read-only SQL

    @Test(arguments: StoreBackend.all)
    func sqlAnswersReadsAndRefusesWrites(_ backend: StoreBackend) throws {
        let store = try backend.open(in: folder)
        _ = try store.append(batch([heart("a", user: "ann"), heart("b", user: "bob")]))
        let answer = try store.readOnlySQL("SELECT user, COUNT(*) AS n FROM events GROUP BY user ORDER BY user")
        #expect(answer.columns == ["user", "n"])
        #expect(answer.rows == [["ann", .integer(1)], ["bob", .integer(1)]])
        for statement in ["DELETE FROM events", "UPDATE checkpoints SET seq = 0", "CREATE TABLE x (a integer)"] {
            #expect(throws: StoreError.writeRefused(String(statement.prefix(40)))) { try store.readOnlySQL(statement) }
        }
        #expect(throws: StoreError.badSQL("one statement at a time: there is more after the first ; (run each on its own)")) {
            try store.readOnlySQL("SELECT 1; DELETE FROM events")
        }
        let capped = try store.readOnlySQL("SELECT seq FROM events ORDER BY seq", limits: SQLLimits(rows: 1))
        #expect(capped.rows == [[.integer(1)]])
        #expect(capped.isTruncated)
        #expect(try !store.readOnlySQL("SELECT seq FROM events", limits: SQLLimits(rows: 2)).isTruncated)
        #expect(throws: StoreError.sqlTimedOut(seconds: 0.2)) {
            try store.readOnlySQL("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT COUNT(*) FROM c",
                                  limits: SQLLimits(rows: nil, seconds: 0.2))
        }
        #expect {
            try store.readOnlySQL("SELECT nope FROM events")
        } throws: { error in
            guard case StoreError.badSQL(let message) = error else { return false }
            return message.contains("nope")
        }
        #expect(try store.lastSeq() == 2)
    }

    // MARK: Following

    @Test(arguments: StoreBackend.all)
    func oneProcessLeadsARoleAtATimeAndTheLeadPassesOnWhenReleased(_ backend: StoreBackend) throws {
        let store = try backend.open(in: folder)
        let other = try backend.open(in: folder)
        #expect(try !store.isLed("projector"))
        let lease = try #require(try store.lead("projector"))
        #expect(lease.isHeld)
        #expect(try other.lead("projector") == nil)
        #expect(try other.isLed("projector"))
        // Another role is another lead.
        let reporter = try #require(try other.lead("reporter"))
        // Asking whether a role is led does not take it.
        #expect(try store.isLed("projector"))
        lease.release()
        #expect(!lease.isHeld)
        #expect(try !other.isLed("projector"))
        let taken = try #require(try other.lead("projector"))
        #expect(try store.lead("projector") == nil)
        taken.release()
        reporter.release()
    }

    @Test(arguments: StoreBackend.all)
    func aLeadWaitedForIsTakenOnceItsHolderLetsGo(_ backend: StoreBackend) throws {
        let store = try backend.open(in: folder)
        let other = try backend.open(in: folder)
        let lease = try #require(try store.lead("catch-up"))
        let started = Date()
        #expect(try other.lead("catch-up", waitingUpTo: 0.2) == nil)
        #expect(Date().timeIntervalSince(started) >= 0.2, "it waited the time given")
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { lease.release() }
        let taken = try #require(try other.lead("catch-up", waitingUpTo: 30))
        #expect(!lease.isHeld && taken.isHeld)
        #expect(try store.lead("catch-up") == nil)
        taken.release()
    }

    @Test(arguments: StoreBackend.all)
    func aWatchWakesWhenAnotherStoreObjectCommitsEvents(_ backend: StoreBackend) throws {
        let store = try backend.open(in: folder)
        let writer = try backend.open(in: folder)
        _ = try writer.append(batch([heart("a")]))
        let watch = try store.watchAppends()
        defer { watch.close() }
        // Nothing after seq 1: the wait ends at its timeout, with the log's end.
        #expect(try watch.wait(after: 1, timeout: 0.1) == 1)
        _ = try writer.append(batch([heart("b"), heart("c")]))
        #expect(try watch.wait(after: 1, timeout: 10) == 3)
        // A batch of duplicates only adds nothing: no word of it.
        _ = try writer.append(batch([heart("b")]))
        #expect(try watch.wait(after: 3, timeout: 0.1) == 3)
        // The watching store's own appends wake it too (a server's projector watches its commits).
        _ = try store.append(batch([heart("d")]))
        #expect(try watch.wait(after: 3, timeout: 10) == 4)
        // Two commits in a row: a wait may return with the first (the word of the second may
        // not have come yet), but the next wait does not miss the second.
        _ = try writer.append(batch([heart("e")]))
        _ = try store.append(batch([heart("f")]))
        var last = try watch.wait(after: 4, timeout: 10)
        #expect(last > 4)
        if last < 6 { last = try watch.wait(after: last, timeout: 10) }
        #expect(last == 6)
    }

    // MARK: Copying

    @Test(arguments: StoreBackend.all)
    func committedBatchesCopyExactlyAndAChangedEventIsRefused(_ backend: StoreBackend) throws {
        let store = try backend.open(in: folder)
        _ = try store.append(batch([heart("a"), heart("b")]))
        _ = try store.append(batch([heart("b")], rejected: [RejectedLine(line: 2, reason: "id: missing", original: Array("{}".utf8))]))
        _ = try store.append(batch(try SharedFiles.exampleLines.prefix(5).map { try EventValidator.validate($0).get() }))
        let batches = try store.committedBatches(after: 0, maxEvents: 100)
        #expect(batches.map(\.record.batch) == [1, 2, 3])
        #expect(batches.map(\.events.count) == [2, 0, 5])
        // At least one batch, however small the limit.
        #expect(try store.committedBatches(after: 0, maxEvents: 0).map(\.record.batch) == [1])
        #expect(try store.lastBatch() == 3)

        let other = TemporaryDirectory()
        let copy = try backend.open(in: other)
        var changed = batches
        changed[2].events[1].event.user = "mallory"
        #expect(throws: StoreError.notAContinuation(
            path: copy.location, reason: "the hash chain breaks at seq 4: the event's hash is not the link it makes (it was changed)")) {
            try copy.appendCommitted(changed)
        }
        #expect(try copy.lastSeq() == 0)
        #expect(throws: StoreError.notAContinuation(path: copy.location, reason: "batch 2 does not follow its last batch, 0")) {
            try copy.appendCommitted(Array(batches.dropFirst()))
        }
        try copy.appendCommitted(batches)
        #expect(try copy.committedBatches(after: 0, maxEvents: 100) == batches)
        #expect(try copy.verify() == store.verify())
        #expect(try copy.copyQuarantine(store.quarantineEntries(includeSettled: true)) == 1)
        #expect(try copy.quarantineEntries() == store.quarantineEntries())
    }
}
