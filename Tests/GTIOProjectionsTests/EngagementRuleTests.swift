import GTIOCatalog
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
    @Test func oneDaysWindowsEqualTheSweepOverAllDays() {
        let models = LogView.latest.readModels(from: RandomLog.records(seed: 5, count: 2_000))
        let days = models.state.eventsByDay.keys.sorted()
        #expect(days.count > 3)
        for day in (days.first! - 2)...(days.last! + 31) {
            let single = models.windowsByUser(on: day), swept = models.windows(on: day)
            #expect(single.wau == swept.wau && single.mau == swept.mau, "day \(day)")
        }
    }
}
