import GTIOCatalog
import GTIOSimulation
import PropertyBased
import Testing
@testable import GTIOProjections

@Suite struct EngagementRuleTests {
    static let day: Int64 = 86_400_000

    @Test func activeUsersCountAnyEventAppliedOrIgnored() {
        var log = TestLog()
        let start = log.clock
        log.add(.track, "a", value: "Feed", at: start)
        log.add(.postHearted, "b", subject: "missing", at: start)   // ignored, still activity
        log.add(.track, nil, value: "Splash", device: "d1", at: start)
        log.add(.track, "c", value: "Feed", at: start + 3 * Self.day)
        log.add(.track, "a", value: "Feed", at: start + 10 * Self.day)
        log.add(.track, "d", value: "Feed", at: start + 40 * Self.day)
        let models = log.models()
        let first = Timestamp(milliseconds: start).day
        #expect(models.engagement(on: first).dau == 2)
        #expect(models.engagement(on: first).devices == 1)
        #expect(models.engagement(on: first + 6).wau == 3)
        #expect(models.engagement(on: first + 7).wau == 1)
        #expect(models.engagement(on: first + 29).mau == 3)
        #expect(models.engagement(on: first + 30).mau == 2)
        #expect(models.engagement(on: first + 40).mau == 1)
    }

    @Test func signUpsCountAUsersFirstSignUpOnlyByProviderAndDay() {
        var log = TestLog()
        log.signUp("a", name: "A", provider: "google")
        log.signUp("a", name: "A again", provider: "twitter")
        log.signUp("b", name: "B", provider: "google")
        let models = log.models()
        #expect(models.engagement(on: models.today).signups == ["google": 2])
    }

    @Test func actionsPerDayCountOnlyWhatTheRulesApplied() {
        var log = TestLog()
        log.post("p", by: "a")
        log.heart("p", by: "b")
        log.heart("p", by: "b")
        log.vote("p", by: "b", "wear_it")
        log.vote("p", by: "b", "wear_it")
        log.review("r", on: "p", by: "c")
        log.flag("p", by: "c")
        log.flag("p", by: "c")
        log.add(.postShared, "c", subject: "p", value: "twitter")
        log.add(.postShared, "c", subject: "nope", value: "twitter")
        log.add(.inviteSent, "c", value: "sms")
        log.add(.productSuggested, "c", subject: "x", value: "gtio")
        let models = log.models()
        let actions = models.engagement(on: models.today).actions
        #expect(actions == [.posts: 1, .hearts: 1, .votes: 1, .reviews: 1, .flags: 1, .shares: 1, .invites: 1, .suggestions: 1])
        #expect(models.engagement(on: models.today).events == 12)
    }

    @Test func anomaliesAreCountedByTypeAndReason() {
        var log = TestLog()
        log.post("p", by: "a", voting: false)
        log.vote("p", by: "b", "wear_it")
        log.vote("p", by: "c", "wear_it")
        log.delete("p", by: "b")
        let counts = log.models().anomalies()
        #expect(counts == [
            AnomalyCount(type: .postVoted, anomaly: .votingOff, count: 2),
            AnomalyCount(type: .postDeleted, anomaly: .notAuthor, count: 1),
        ])
    }
}

@Suite struct EngagementWindowTests {
    /// WAU and MAU as the definition says: users with any event in the 7 (30) days to a day.
    @Test func eachDaysWindowsCountTheUsersActiveInThem() {
        let records = RandomLog.records(seed: 5, count: 2_000)
        let models = LogView.latest.readModels(from: records)
        var active: [String: Set<Int64>] = [:]
        for record in records { if let user = record.user { active[user, default: []].insert(Timestamp(milliseconds: record.at).day) } }
        let days = models.state.eventsByDay.keys.sorted()
        #expect(days.count > 3)
        for day in (days.first! - 2)...(days.last! + 31) {
            let wau = active.values.filter { $0.contains { (day - 6...day).contains($0) } }.count
            let mau = active.values.filter { $0.contains { (day - 29...day).contains($0) } }.count
            let figures = models.engagement(on: day)
            #expect(figures.wau == wau && figures.mau == mau, "day \(day)")
        }
    }

    /// Activity in any order (late days between, before and after a user's other days) gives
    /// every day the WAU and MAU of the definition.
    @Test func windowsOfActivityInAnyOrderMatchTheDefinition() async {
        await propertyCheck(count: 40, input: Gen.uint64(in: 1...UInt64.max)) { seed in
            var random = SeededGenerator(seed: seed)
            var log = TestLog()
            let start = log.clock
            var active: [String: Set<Int64>] = [:]
            for _ in 0..<150 {
                let user = "u\(Int.random(in: 1...12, using: &random))", offset = Int64.random(in: 0...120, using: &random)
                log.add(.track, user, value: "Feed", at: start + offset * EngagementRuleTests.day)
                active[user, default: []].insert(offset)
            }
            let models = log.models()
            let first = Timestamp(milliseconds: start).day
            for offset: Int64 in -2...155 {
                let wau = active.values.filter { $0.contains { (offset - 6...offset).contains($0) } }.count
                let mau = active.values.filter { $0.contains { (offset - 29...offset).contains($0) } }.count
                let figures = models.engagement(on: first + offset)
                #expect(figures.wau == wau && figures.mau == mau, "seed \(seed), day \(offset)")
            }
        }
    }

    /// Late events (a day before days already counted) move the windows they fall in, and
    /// only those.
    @Test func aLateDayFillsTheGapBetweenTwoLaterOnes() {
        var log = TestLog()
        let start = log.clock, day = EngagementRuleTests.day
        log.add(.track, "a", value: "Feed", at: start)
        log.add(.track, "a", value: "Feed", at: start + 20 * day)
        log.add(.track, "a", value: "Feed", at: start + 10 * day)
        log.add(.track, "b", value: "Feed", at: start + 25 * day)
        let models = log.models()
        let first = Timestamp(milliseconds: start).day
        #expect((0...40).map { models.engagement(on: first + $0).wau } == (0...40).map { offset -> Int in
            let a = [0, 10, 20].contains { (offset - 6...offset).contains($0) } ? 1 : 0
            return a + ((25...31).contains(offset) ? 1 : 0)
        })
        #expect(models.engagement(on: first + 29).mau == 2)
        #expect(models.engagement(on: first + 49).mau == 2)
        #expect(models.engagement(on: first + 50).mau == 1)
    }

    /// Activity ten thousand years apart (years 0001 and 9999, both valid) keeps the counts of
    /// the days near each, and what the fold state saves of them is the spans near each, not
    /// every day between.
    @Test func windowsFarApartKeepOnlyTheSpansNearEach() throws {
        var windows = ActiveWindows()
        let first = Timestamp(rfc3339: "0001-01-01T00:00:00Z")!.day, last = Timestamp(rfc3339: "9999-12-31T00:00:00Z")!.day
        #expect(windows.add(day: first, before: nil, after: nil) == first...(first + 29))
        #expect(windows.add(day: last, before: nil, after: nil) == last...(last + 29))
        #expect(windows.add(day: first + 3, before: nil, after: nil) == (first + 3)...(first + 32))  // someone else
        #expect(windows.figures(on: first + 5) == (wau: 2, mau: 2))
        #expect(windows.figures(on: first + 31) == (wau: 0, mau: 1))
        #expect(windows.figures(on: first + 33) == (wau: 0, mau: 0))
        #expect(windows.figures(on: last + 29) == (wau: 0, mau: 1))
        #expect(windows.figures(on: (first + last) / 2) == (wau: 0, mau: 0))
        var writer = StateWriter(chunkSize: 1 << 20)
        windows.write(to: &writer)
        let bytes = writer.chunks.flatMap { $0 }
        // The spans of 64 days that the windows reach: one or two near each end, 128 counts each.
        #expect(bytes.count < 4 * (128 + 4))
        let read = try bytes.withUnsafeBytes { buffer in
            var reader = StateReader(buffer)
            return try ActiveWindows(from: &reader)
        }
        for day in [first, first + 5, first + 31, first + 33, last, last + 29, last + 30] {
            #expect(read.figures(on: day) == windows.figures(on: day), "day \(day)")
        }
    }
}
