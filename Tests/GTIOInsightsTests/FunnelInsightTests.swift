import GTIOInsights
import Testing

@Suite struct FunnelInsightTests {
    let window = InsightLog.days("2012-04-23", "2012-04-23")

    func funnel(_ steps: [String], _ change: (inout FunnelInsight) throws -> Void = { _ in }) throws -> FunnelInsight {
        var funnel = try FunnelInsight(steps: try steps.map { try EventSelector($0) })
        try change(&funnel)
        return funnel
    }

    @Test func stepsComeInOrderGreedilyWithinTheLimitInclusive() throws {
        let log = InsightLog()
        // a: created, hearted 1 h later, shared 2 h after that.
        log.add("post.created", "2012-04-23T10:00", user: "a", #"{"post":"p1","kind":"outfit","voting":true}"#)
        log.add("post.hearted", "2012-04-23T11:00", user: "a", #"{"post":"p1"}"#)
        log.add("post.shared", "2012-04-23T13:00", user: "a", #"{"post":"p1","channel":"twitter"}"#)
        // b: a heart before creating counts for nothing; the share comes exactly at the limit.
        log.add("post.hearted", "2012-04-23T09:00", user: "b", #"{"post":"p1"}"#)
        log.add("post.created", "2012-04-23T10:00", user: "b", #"{"post":"p2","kind":"outfit","voting":true}"#)
        log.add("post.hearted", "2012-04-23T12:00", user: "b", #"{"post":"p1"}"#)
        log.add("post.shared", "2012-04-24T10:00", user: "b", #"{"post":"p1","channel":"twitter"}"#)  // past --to: still counts
        // c: enters, nothing more; d: enters the day after the window: not an entry.
        log.add("post.created", "2012-04-23T10:00", user: "c", #"{"post":"p3","kind":"outfit","voting":true}"#)
        log.add("post.created", "2012-04-24T10:00", user: "d", #"{"post":"p4","kind":"outfit","voting":true}"#)
        let table = try funnel(["post.created", "post.hearted", "post.shared"]) { $0.within = 24 * 3_600_000 }
            .run(try log.reader(), window: window)
        #expect(table.columns == ["step", "selector", "group", "actors", "conversion", "from_previous", "median_hours"])
        #expect(table.lines == [
            "1,post.created,all,3,1.0,1,",
            "2,post.hearted,all,2,0.6666666666666666,0.6666666666666666,1.5",
            "3,post.shared,all,2,0.6666666666666666,1.0,12.0",
        ])
        let tight = try funnel(["post.created", "post.hearted", "post.shared"]) { $0.within = 24 * 3_600_000 - 1 }
            .run(try log.reader(), window: window)
        #expect(tight.lines[2] == "3,post.shared,all,1,0.3333333333333333,0.5,2.0")
    }

    @Test func aDurationLongerThanTheCalendarIsTheCalendar() throws {
        #expect(try InsightDuration.milliseconds("90s") == 90_000)
        #expect(try InsightDuration.milliseconds("1.5h") == 5_400_000)
        let span: Int64 = 253_402_300_799_999 + 62_135_596_800_000
        // 1e300 days, and 1e14 days (past 2^63 ms), were a conversion that stopped the process.
        #expect(try InsightDuration.milliseconds("1e300d") == span)
        #expect(try InsightDuration.milliseconds("99999999999999d") == span)
        #expect(try InsightDuration.milliseconds("3652058d") == 3_652_058 * 86_400_000)
        #expect(throws: InsightError.self) { try InsightDuration.milliseconds("infd") }
        let log = InsightLog()
        log.add("post.hearted", "2012-04-23T10:00", user: "a", #"{"post":"p1"}"#)
        log.add("post.shared", "9999-12-31T23:59", user: "a", #"{"post":"p1","channel":"twitter"}"#)
        let table = try funnel(["post.hearted", "post.shared"]) { $0.within = try InsightDuration.milliseconds("1e300d") }
            .run(try log.reader(), window: window)
        #expect(table.lines[1].hasPrefix("2,post.shared,all,1,1.0,1.0,"))
    }

    @Test func anEventReachesOneStepOnly() throws {
        let log = InsightLog()
        log.add("post.hearted", "2012-04-23T10:00", user: "a", #"{"post":"p1"}"#)
        log.add("post.hearted", "2012-04-23T10:00", user: "b", #"{"post":"p1"}"#)
        log.add("post.hearted", "2012-04-23T11:00", user: "b", #"{"post":"p2"}"#)
        let table = try funnel(["post.hearted", "post.hearted"]).run(try log.reader(), window: window)
        #expect(table.lines.map { $0.split(separator: ",")[3] } == ["2", "1"])
    }

    @Test func groupsComeFromTheEntryEventAndNoEntryGivesZeroRows() throws {
        let log = InsightLog()
        log.add("post.created", "2012-04-23T10:00", user: "a", #"{"post":"p1","kind":"product","voting":true}"#)
        log.add("post.created", "2012-04-23T10:00", user: "b", #"{"post":"p2","kind":"outfit","voting":true}"#)
        log.add("post.created", "2012-04-23T10:00", user: "c", #"{"post":"p3","kind":"outfit","voting":true}"#)
        log.add("post.hearted", "2012-04-23T11:00", user: "b", #"{"post":"p1"}"#)
        let byKind = try funnel(["post.created", "post.hearted"]) { $0.by = try InsightProperty("kind") }.run(try log.reader(), window: window)
        #expect(byKind.lines == [
            "1,post.created,outfit,2,1.0,1,", "2,post.hearted,outfit,1,0.5,0.5,1.0",
            "1,post.created,product,1,1.0,1,", "2,post.hearted,product,0,0.0,0.0,",
        ])
        let nothing = try funnel(["post.shared", "post.hearted"]).run(try log.reader(), window: window)
        #expect(nothing.lines == ["1,post.shared,all,0,,1,", "2,post.hearted,all,0,,,"])
        #expect(try funnel(["post.shared", "post.hearted"]) { $0.by = try InsightProperty("kind") }.run(try log.reader(), window: window).rows.isEmpty)
        #expect(throws: InsightError.self) { try FunnelInsight(steps: [try EventSelector("post.created")]) }
    }
}
