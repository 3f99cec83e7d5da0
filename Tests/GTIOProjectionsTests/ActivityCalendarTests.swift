import GTIOSimulation
import PropertyBased
import Testing
@testable import GTIOProjections

@Suite struct ActivityCalendarTests {
    @Test func aKeysDaysComeBackAscendingAcrossSpansLateDaysAndDaysBefore1970() {
        var calendar = ActivityCalendar()
        // 20_000 and 20_063 share a span, 20_064 starts the next; -1 and -64 are 1969's.
        for day: Int64 in [20_064, 20_000, 20_063, -1, -64, 20_000] { _ = calendar.mark(7, on: day) }
        #expect(calendar.days(of: 7) == [-64, -1, 20_000, 20_063, 20_064])
        #expect(calendar.contains(7, on: 20_063) && calendar.contains(7, on: -1))
        #expect(!calendar.contains(7, on: 20_001) && !calendar.contains(7, on: 30_000) && !calendar.contains(6, on: 20_000))
        #expect(calendar.days(of: 6) == [])
        #expect(calendar.days(of: 100_000) == [])
    }

    @Test func onlyTheFirstMarkOfAKeyAndDayIsNew() {
        var calendar = ActivityCalendar()
        #expect(calendar.mark(3, on: 19_000) == true)
        #expect(calendar.mark(3, on: 19_000) == false)
        #expect(calendar.mark(4, on: 19_000) == true)
        #expect(calendar.mark(3, on: 19_001) == true)
        #expect(calendar.mark(3, on: 18_999) == true)
        #expect(calendar.mark(3, on: 19_000) == false)
    }

    @Test func growingToMoreKeysKeepsEveryMark() {
        var calendar = ActivityCalendar()
        _ = calendar.mark(1, on: 10)
        _ = calendar.mark(1, on: 100)
        _ = calendar.mark(5_000, on: 10)
        _ = calendar.mark(70_000, on: 200)
        #expect(calendar.days(of: 1) == [10, 100])
        #expect(calendar.days(of: 5_000) == [10])
        #expect(calendar.days(of: 70_000) == [200])
    }

    @Test func marksAgreeWithASetOfPairsOnRandomDaysAndKeys() async {
        await propertyCheck(count: 30, input: Gen.uint64(in: 1...UInt64.max)) { seed in
            var random = SeededGenerator(seed: seed)
            var calendar = ActivityCalendar()
            var pairs: Set<[Int64]> = []
            for _ in 0..<2_000 {
                let key = Int.random(in: 1...600, using: &random)
                let day = Int64.random(in: -200...400, using: &random)
                #expect(calendar.mark(key, on: day) == pairs.insert([Int64(key), day]).inserted)
                #expect(calendar.contains(key, on: day))
            }
            var expected: [Int: [Int64]] = [:]
            for pair in pairs { expected[Int(pair[0]), default: []].append(pair[1]) }
            for (key, days) in expected { #expect(calendar.days(of: key) == days.sorted()) }
            // The nearest days within a month either side, across spans and in older ones.
            for _ in 0..<200 {
                // A key with marks, near one of them: most keys have one or two.
                let key = expected.keys.sorted()[Int.random(in: 0..<expected.count, using: &random)]
                let days = expected[key]!
                let day = days[Int.random(in: 0..<days.count, using: &random)] + Int64.random(in: -31...31, using: &random)
                let before = days.filter { $0 < day && $0 >= day - 29 }.max(), after = days.filter { $0 > day && $0 <= day + 29 }.min()
                let nearest = calendar.nearestDays(of: key, around: day, within: 29)
                #expect(nearest.before == before && nearest.after == after, "key \(key), day \(day)")
            }
        }
    }
}
