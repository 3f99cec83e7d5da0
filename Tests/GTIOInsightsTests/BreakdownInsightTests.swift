import GTIOInsights
import Testing

@Suite struct BreakdownInsightTests {
    let window = InsightLog.days("2012-04-23", "2012-04-23")

    func flags(_ log: InsightLog) {
        for (reason, user) in [("spam", "a"), ("spam", "b"), ("spam", "a"), ("nudity", "a"), (nil, "c")] {
            let data = reason.map { #"{"post":"p1","reason":"\#($0)"}"# } ?? #"{"post":"p1"}"#
            log.add("post.flagged", "2012-04-23T10:00", user: user, data)
        }
    }

    @Test func sharesAreOfTheTotalOrOfTheDistinctActorsOverAllGroups() throws {
        let log = InsightLog()
        flags(log)
        var breakdown = BreakdownInsight(selector: try EventSelector("post.flagged"), by: try InsightProperty("reason"))
        let events = try breakdown.run(try log.reader(), window: window)
        #expect(events.columns == ["group", "value", "share"])
        #expect(events.lines == ["spam,3,0.6", "(none),1,0.2", "nudity,1,0.2"])
        breakdown.measure = .users
        #expect(try breakdown.run(try log.reader(), window: window).lines == ["spam,2,0.6666666666666666", "(none),1,0.3333333333333333",
                                                                                "nudity,1,0.3333333333333333"])
        breakdown.measure = .events
        breakdown.top = 1
        #expect(try breakdown.run(try log.reader(), window: window).lines == ["spam,3,0.6", "(other),2,0.4"])
    }

    @Test func topIsBreakdownOfEveryEventLeavingNoneOut() throws {
        let log = InsightLog()
        flags(log)
        log.add("post.shared", "2012-04-23T10:00", user: "a", #"{"post":"p1","channel":"twitter"}"#)
        var top = BreakdownInsight(selector: try EventSelector("*"), by: try InsightProperty("reason"))
        top.leavesOutNone = true
        #expect(try top.run(try log.reader(), window: window).lines == ["spam,3,0.75", "nudity,1,0.25"])
        top.by = try InsightProperty("user")
        top.filters = [try PropertyFilter("type=post.flagged")]
        #expect(try top.run(try log.reader(), window: window).lines == ["a,3,0.6", "b,1,0.2", "c,1,0.2"])
    }

    @Test func averagesHaveNoShare() throws {
        let log = InsightLog()
        log.add("post.created", "2012-04-23T10:00", #"{"post":"p1","kind":"product","voting":true,"price":10}"#)
        log.add("post.created", "2012-04-23T10:00", #"{"post":"p2","kind":"product","voting":true,"price":20}"#)
        var breakdown = BreakdownInsight(selector: try EventSelector("post.created"), by: try InsightProperty("kind"))
        breakdown.measure = try InsightMeasure("avg:price")
        #expect(try breakdown.run(try log.reader(), window: window).lines == ["product,15,"])
    }
}
