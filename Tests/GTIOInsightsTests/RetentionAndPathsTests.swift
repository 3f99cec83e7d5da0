import GTIOInsights
import Testing

@Suite struct RetentionAndPathsTests {
    @Test func cohortsByFirstStartAndReturnsInTheIntervalsAfter() throws {
        let log = InsightLog()
        log.add("user.signed_up", "2012-04-23T10:00", user: "a", #"{"provider":"google","name":"A"}"#)
        log.add("user.signed_up", "2012-04-23T11:00", user: "b", #"{"provider":"google","name":"B"}"#)
        log.add("user.signed_up", "2012-04-24T11:00", user: "c", #"{"provider":"google","name":"C"}"#)
        log.add("post.hearted", "2012-04-23T23:00", user: "a", #"{"post":"p1"}"#)  // in the cohort's own day: not a return
        log.add("post.hearted", "2012-04-24T01:00", user: "a", #"{"post":"p1"}"#)
        log.add("post.hearted", "2012-04-25T01:00", user: "b", #"{"post":"p1"}"#)
        log.add("post.hearted", "2012-04-30T01:00", user: "c", #"{"post":"p1"}"#)  // after --to: still counts
        var retention = RetentionInsight(start: try EventSelector("user.signed_up"), comeback: try EventSelector("post.hearted"))
        retention.periods = 2
        let table = try retention.run(try log.reader(), window: InsightLog.days("2012-04-23", "2012-04-24"))
        #expect(table.columns == ["cohort", "size", "period", "retained", "share"])
        #expect(table.lines == [
            "2012-04-23,2,1,1,0.5", "2012-04-23,2,2,1,0.5",
            "2012-04-24,1,1,0,0.0", "2012-04-24,1,2,0,0.0",
        ])
        retention.interval = .week
        retention.periods = nil
        let weeks = try retention.run(try log.reader(), window: InsightLog.days("2012-04-23", "2012-04-24"))
        #expect(weeks.lines == ["2012-04-23,3,1,1,0.3333333333333333", "2012-04-23,3,2,0,0.0", "2012-04-23,3,3,0,0.0",
                                "2012-04-23,3,4,0,0.0"])
    }

    @Test func periodsPastTheNewestEventAreListedRetainingNoOne() throws {
        let log = InsightLog()
        log.add("user.signed_up", "2012-04-24T11:00", user: "c", #"{"provider":"google","name":"C"}"#)
        log.add("post.hearted", "2012-04-30T01:00", user: "c", #"{"post":"p1"}"#)
        var retention = RetentionInsight(start: try EventSelector("user.signed_up"), comeback: try EventSelector("post.hearted"))
        retention.periods = 100_000
        let table = try retention.run(try log.reader(), window: InsightLog.days("2012-04-24", "2012-04-24"))
        #expect(table.rows.count == 100_000)
        #expect(table.lines[4...6] == ["2012-04-24,1,5,0,0.0", "2012-04-24,1,6,1,1.0", "2012-04-24,1,7,0,0.0"])
        #expect(table.lines.last == "2012-04-24,1,100000,0,0.0")
        retention.periods = 3_652_059
        #expect(throws: InsightError.self) { try retention.run(try log.reader(), window: InsightLog.days("2012-04-24", "2012-04-24")) }
    }

    /// A screen named with é (U+00E9) then with e + U+0301 is no repeat: names compare as exact text.
    @Test func namesThatDifferOnlyInNormalizationAreTwoScreens() throws {
        let log = InsightLog()
        log.track("Caf\u{E9}", "2012-04-23T10:00", user: "a")
        log.track("Cafe\u{301}", "2012-04-23T10:01", user: "a")
        let lines = try PathsInsight().run(try log.reader(), window: InsightLog.days("2012-04-23", "2012-04-23")).lines
        #expect(lines.map { Array($0.utf8) } == [Array("1,Caf\u{E9},Cafe\u{301},1,1".utf8)])
    }

    @Test func pathsFollowSessionsSkippingRepeatsFromTheStart() throws {
        let log = InsightLog()
        // a: Feed, Feed (skipped), Look, then exactly 30 minutes later Shop (same session).
        log.track("Feed", "2012-04-23T10:00", user: "a")
        log.track("Feed", "2012-04-23T10:01", user: "a")
        log.track("Look", "2012-04-23T10:02", user: "a")
        log.track("Shop", "2012-04-23T10:32", user: "a")
        // More than 30 minutes later: a new session.
        log.track("Feed", "2012-04-23T11:03", user: "a")
        log.track("Look", "2012-04-23T11:04", user: "a")
        log.track("Splash", "2012-04-23T10:00", user: "b")
        log.track("Feed", "2012-04-23T10:01", user: "b")
        log.track("Look", "2012-04-23T10:02", user: "b")
        let window = InsightLog.days("2012-04-23", "2012-04-23")
        var paths = PathsInsight()
        let all = try paths.run(try log.reader(), window: window)
        #expect(all.columns == ["step", "from", "to", "actors", "paths"])
        #expect(all.lines == ["1,Feed,Look,1,2", "1,Splash,Feed,1,1", "2,Feed,Look,1,1", "2,Look,Shop,1,1"])
        paths.start = try EventSelector("track[name=Feed]")
        paths.depth = 2
        #expect(try paths.run(try log.reader(), window: window).lines == ["1,Feed,Look,2,3"])
        paths.depth = 3
        paths.top = 1
        #expect(try paths.run(try log.reader(), window: window).lines == ["1,Feed,Look,2,3", "2,Look,Shop,1,1"])
    }
}
