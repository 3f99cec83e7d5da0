import GTIOAnalytics
import GTIOCatalog
import GTIOSimulation
import GTIOStore
import PropertyBased
import Testing
@testable import GTIOProjections

/// The funnel, retention and quick-add acceptance rules of EVENTS.md (Engagement).
@Suite struct OnboardingRuleTests {
    static let day: Int64 = 86_400_000
    static let minute: Int64 = 60_000

    @Test func funnelStepsCountInOrderWithinSevenDaysOfTheFirstOpen() throws {
        var log = TestLog()
        let t0 = log.clock
        // d1 goes all the way, one minute a step.
        log.add(.appOpened, nil, flag: true, device: "d1", at: t0)
        log.signUp("u1", name: "U1", device: "d1")
        log.add(.userProfileCompleted, "u1")
        log.follow("u1", "x", via: "quickadd")
        // d2 signs up after its 7 days.
        log.add(.appOpened, nil, flag: true, device: "d2", at: t0)
        log.add(.userSignedUp, "u2", value: "aol", text: "U2", device: "d2", at: t0 + 7 * Self.day + 1)
        // d3 follows via quick-add before completing its profile: it stops at the profile step.
        log.add(.appOpened, nil, flag: true, device: "d3", at: t0)
        log.add(.userSignedUp, "u3", value: "aol", text: "U3", device: "d3", at: t0 + Self.minute)
        log.add(.userFollowed, "u3", subject: "x", value: "quickadd", at: t0 + 2 * Self.minute)
        log.add(.userProfileCompleted, "u3", at: t0 + 3 * Self.minute)
        log.add(.userFollowed, "u3", subject: "y", value: "profile", at: t0 + 4 * Self.minute)
        // d4's first open arrives late (a smaller `at`, a later seq): its window starts there, so
        // a sign-up 7.5 days after the other open is still 6.5 days after the first.
        log.add(.appOpened, nil, flag: false, device: "d4", at: t0 + Self.day)
        log.add(.appOpened, nil, flag: true, device: "d4", at: t0)
        log.add(.userSignedUp, "u4", value: "aol", text: "U4", device: "d4", at: t0 + Self.day * 13 / 2)
        // A sign-up on a device never opened is outside the funnel; a second sign-up does not move u1.
        log.add(.userSignedUp, "u5", value: "aol", text: "U5", device: "d5", at: t0)
        log.add(.userSignedUp, "u1", value: "aol", text: "U1 again", device: "d4", at: t0 + 10 * Self.minute)
        let models = try log.models().stored()
        let funnel = try models.onboardingFunnel()
        #expect(funnel.reached == [4, 3, 2, 1])
        #expect(funnel.stepConversion(1) == 0.75)
        #expect(funnel.overallConversion(3) == 0.25)
        let first = Timestamp(milliseconds: t0).day
        #expect(try models.onboardingFunnel(firstOpenedOn: (first + 1)...(first + 9)).reached == [0, 0, 0, 0])
        let byDay = try models.onboardingFunnelByDay(first...(first + 1))
        #expect(byDay.map(\.funnel.reached) == [[4, 3, 2, 1], [0, 0, 0, 0]])
    }

    @Test func aDeviceCountsTheFurthestStepOfAnyUserWhoFirstSignedUpOnIt() throws {
        var log = TestLog()
        let t0 = log.clock
        log.add(.appOpened, nil, flag: true, device: "d1", at: t0)
        log.add(.appOpened, nil, flag: true, device: "d2", at: t0)
        // d1: its first user goes all the way, the two after stop sooner.
        log.signUp("u1", name: "U1", device: "d1")
        log.add(.userProfileCompleted, "u1")
        log.follow("u1", "x", via: "quickadd")
        log.signUp("u2", name: "U2", device: "d1")
        log.add(.userProfileCompleted, "u2")
        log.signUp("u3", name: "U3", device: "d1")
        // d2: its last user gets furthest; u1 signing up again there does not count for it.
        log.signUp("v1", name: "V1", device: "d2")
        log.signUp("v2", name: "V2", device: "d2")
        log.add(.userProfileCompleted, "v2")
        log.signUp("u1", name: "U1 again", device: "d2")
        let models = try log.models().stored()
        #expect(try models.onboardingFunnel().reached == [2, 2, 2, 1])
    }

    @Test func retentionCountsCohortsActiveOnDayOneSevenAndThirty() throws {
        var log = TestLog()
        let t0 = log.clock
        log.add(.userSignedUp, "a", value: "aol", text: "A", at: t0)
        log.add(.userSignedUp, "b", value: "aol", text: "B", at: t0 + 5 * Self.minute)
        log.add(.track, "a", value: "Feed", at: t0 + Self.day)
        log.add(.track, "a", value: "Feed", at: t0 + 7 * Self.day)
        log.add(.userSignedUp, "c", value: "google", text: "C", at: t0 + Self.day)
        log.add(.track, "b", value: "Feed", at: t0 + 30 * Self.day)
        log.add(.userSignedUp, "b", value: "google", text: "B again", at: t0 + 30 * Self.day)  // not a second sign-up
        let models = try log.models().stored()
        let cohorts = try models.retention()
        let first = Timestamp(milliseconds: t0).day
        #expect(cohorts.map(\.day) == [first, first + 1])
        #expect(cohorts[0].users == 2)
        #expect(cohorts[0].retained == [1, 1, 1])
        #expect(cohorts[0].rate(0) == 0.5)
        #expect(cohorts[1].users == 1)
        #expect(cohorts[1].retained == [0, 0, nil])  // day 31 has not begun
        let second = try models.retention(cohorts: (first + 1)...(first + 1))
        #expect(second.map(\.day) == [first + 1])
    }

    /// The daily sums the funnel and retention read, kept as events move devices and users,
    /// equal the sums of each device's step and each user's cohort row counted afresh: after
    /// every event of random logs with late opens, late sign-ups, and activity before sign-ups.
    @Test func theDailySumsAreTheSumsOfTheDevicesAndUsersAfterEveryEvent() async {
        await propertyCheck(count: 25, input: Gen.uint64(in: 1...UInt64.max)) { seed in
            var state = CommunityState()
            // Over months for half the seeds, so that days 7 and 30 after sign-ups come.
            let events = RandomLog.events(seed: seed, count: 400, weeks: seed % 2 == 0)
            for record in events.enumerated().map({ LogRecord(seq: Int64($0.offset + 1), $0.element) }) {
                state.apply(record)
                let models = ReadModels(state: state)
                var funnel: [Int64: [Int]] = [:]
                for (key, opened) in models.openedDevices {
                    let step = state.onboardingStep(ofDevice: key, openedAt: opened)
                    let day = Timestamp(milliseconds: opened).day
                    var reached = funnel[day] ?? [0, 0, 0, 0]
                    for index in 0...step { reached[index] += 1 }
                    funnel[day] = reached
                }
                #expect(state.onboardingByDay.mapValues(\.reached) == funnel, "seed \(seed), seq \(record.seq)")
                var cohorts: [Int64: [Int]] = [:]
                for key in state.signedUpUsers {
                    let user = state.userKeys[key], day = Timestamp(milliseconds: state.signup(ofUser: key)!.at).day
                    var counts = cohorts[day] ?? [0, 0, 0, 0]
                    counts[0] += 1
                    for (index, offset) in ReadModels.retentionOffsets.enumerated() where state.wasActive(user, on: day + offset) {
                        counts[index + 1] += 1
                    }
                    cohorts[day] = counts
                }
                #expect(state.cohortsByDay.mapValues { [$0.users] + $0.retained } == cohorts, "seed \(seed), seq \(record.seq)")
            }
        }
    }

    @Test func quickAddAcceptanceCountsShownPairsFollowedViaQuickAddAfterwards() throws {
        var log = TestLog()
        log.setPrivate("p", true)
        log.follow("u", "q", via: "quickadd")  // before it was shown: does not accept it
        log.block("z", "v")
        log.add(.quickaddShown, "v", list: ["x", "y", "z", "p"])
        log.add(.quickaddShown, "u", list: ["q"])
        log.add(.quickaddShown, "v", list: ["x"])  // shown again: the same pair
        log.follow("v", "x", via: "quickadd")
        log.follow("v", "x", via: "quickadd")  // a repeat accepts nothing more
        log.follow("v", "y", via: "profile")
        log.follow("v", "z", via: "quickadd")  // blocked: no edge
        log.follow("v", "p", via: "quickadd")  // requested counts
        log.follow("w", "x", via: "quickadd")  // never shown to w
        let models = try log.models().stored()
        #expect(try models.quickAddAcceptance() == QuickAddAcceptance(shown: 5, accepted: 2))
        #expect(try models.quickAddAcceptance().rate == 0.4)
        #expect(try models.quickAddAcceptance(shownOn: models.today...models.today) == QuickAddAcceptance(shown: 5, accepted: 2))
        #expect(try models.quickAddAcceptance(shownOn: (models.today + 1)...(models.today + 1)) == QuickAddAcceptance(shown: 0, accepted: 0))
    }

    @Test func anomaliesAreAlsoCountedByTheDayOfTheirEvent() {
        var log = TestLog()
        let t0 = log.clock
        log.add(.postHearted, "a", subject: "missing", at: t0)
        log.add(.postHearted, "a", subject: "missing", at: t0 + Self.day)
        log.add(.userFollowed, "a", subject: "a", at: t0 + Self.day)
        let byDay = log.models().state.anomaliesByDay
        let first = Timestamp(milliseconds: t0).day
        #expect(byDay[first]?.values.reduce(0, +) == 1)
        #expect(byDay[first + 1]?[CommunityState.AnomalyKey(type: .userFollowed, anomaly: .selfFollow)] == 1)
    }
}
