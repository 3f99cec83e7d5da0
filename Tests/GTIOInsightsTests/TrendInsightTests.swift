import GTIOInsights
import Testing

@Suite struct TrendInsightTests {
    func heart(_ log: InsightLog, _ at: String, _ user: String = "u1") { log.add("post.hearted", at, user: user, #"{"post":"p1"}"#) }

    func trend(_ selector: String, _ change: (inout TrendInsight) throws -> Void = { _ in }) throws -> TrendInsight {
        var trend = TrendInsight(selector: try EventSelector(selector))
        try change(&trend)
        return trend
    }

    @Test func everyBucketOfTheWindowIsListedZerosIncluded() throws {
        let log = InsightLog()
        heart(log, "2012-04-23T10:00")
        heart(log, "2012-04-23T11:00")
        heart(log, "2012-04-23T12:00", "u2")
        heart(log, "2012-04-25T23:59")
        log.add("post.voted", "2012-04-23T10:00", #"{"post":"p1","verdict":"wear_it"}"#)
        let window = InsightLog.days("2012-04-22", "2012-04-25")
        let table = try trend("post.hearted").run(try log.reader(), window: window)
        #expect(table.columns == ["bucket", "group", "value"])
        #expect(table.lines == ["2012-04-22,all,0", "2012-04-23,all,3", "2012-04-24,all,0", "2012-04-25,all,1"])
        let users = try trend("post.hearted") { $0.measure = .users }.run(try log.reader(), window: window)
        #expect(users.lines[1] == "2012-04-23,all,2")
        let both = try trend("post.hearted,post.voted").run(try log.reader(), window: window)
        #expect(both.lines[1] == "2012-04-23,all,4")
    }

    @Test func weeksAreISOWeeksLabelledByTheirMondayAndMonthsByYearAndMonth() throws {
        let log = InsightLog()
        heart(log, "2012-04-22T23:59")  // a Sunday: the week of Monday 16th
        heart(log, "2012-04-23T00:00")
        heart(log, "2012-04-30T12:00")
        let weeks = try trend("post.hearted") { $0.interval = .week }
            .run(try log.reader(), window: InsightLog.days("2012-04-20", "2012-04-30"))
        #expect(weeks.lines == ["2012-04-16,all,1", "2012-04-23,all,1", "2012-04-30,all,1"])
        let months = try trend("post.hearted") { $0.interval = .month }
            .run(try log.reader(), window: InsightLog.days("2012-03-30", "2012-04-23"))
        #expect(months.lines == ["2012-03,all,0", "2012-04,all,2"])
    }

    @Test func monthsReachTheLastMonthTheCalendarShows() throws {
        let log = InsightLog()
        heart(log, "9999-12-31T23:59")
        let months = try trend("post.hearted") { $0.interval = .month }
            .run(try log.reader(), window: InsightLog.days("9999-11-15", "9999-12-31"))
        #expect(months.lines == ["9999-11,all,0", "9999-12,all,1"])
    }

    @Test func groupsBeyondTheTopAreSummedIntoOtherForCountsAndDroppedForUsers() throws {
        let log = InsightLog()
        for (channel, user) in [("facebook", "a"), ("facebook", "b"), ("facebook", "a"), ("twitter", "a"), ("twitter", "c")] {
            log.add("post.shared", "2012-04-23T10:00", user: user, #"{"post":"p1","channel":"\#(channel)"}"#)
        }
        log.add("post.shared", "2012-04-24T10:00", user: "a", #"{"post":"p1","channel":"twitter"}"#)
        let window = InsightLog.days("2012-04-23", "2012-04-24")
        let events = try trend("post.shared") { $0.by = try InsightProperty("channel"); $0.top = 1 }.run(try log.reader(), window: window)
        #expect(events.lines == ["2012-04-23,facebook,3", "2012-04-23,(other),2", "2012-04-24,facebook,0", "2012-04-24,(other),1"])
        let users = try trend("post.shared") { $0.by = try InsightProperty("channel"); $0.top = 1; $0.measure = .users }
            .run(try log.reader(), window: window)
        // twitter and facebook have 2 users each: the tie goes to the name.
        #expect(users.lines == ["2012-04-23,facebook,2", "2012-04-24,facebook,0"])
        let all = try trend("post.shared") { $0.by = try InsightProperty("channel"); $0.top = 0 }.run(try log.reader(), window: window)
        #expect(all.lines == ["2012-04-23,facebook,3", "2012-04-23,twitter,2", "2012-04-24,twitter,1", "2012-04-24,facebook,0"])
        let none = try trend("post.voted") { $0.by = try InsightProperty("verdict") }.run(try log.reader(), window: window)
        #expect(none.rows.isEmpty)
    }

    /// `(other)` adds the cut groups' figures in their rank order, whichever order a bucket keeps
    /// them in: a sum of doubles depends on it (1e16 + 1 is 1e16 again; added after −1e16 it
    /// would count).
    @Test func otherAddsTheCutGroupsInTheirRankOrder() throws {
        let log = InsightLog()
        for (group, n) in [("k", "1e17"), ("b1", "1e16"), ("b2", "1"), ("b3", "-1e16")] {
            log.add("track", "2012-04-23T10:00", #"{"name":"Splash","props":{"g":"\#(group)","n":\#(n)}}"#)
        }
        let table = try trend("track") {
            $0.by = try InsightProperty("props.g"); $0.top = 1; $0.measure = try InsightMeasure("sum:props.n")
        }.run(try log.reader(), window: InsightLog.days("2012-04-23", "2012-04-23"))
        #expect(table.lines.last == "2012-04-23,(other),0")
    }

    @Test func sumsAndAveragesReadNumbersOnlyAndAnEmptyAverageIsEmpty() throws {
        let log = InsightLog()
        log.add("post.created", "2012-04-23T10:00", #"{"post":"p1","kind":"product","voting":true,"price":10}"#)
        log.add("post.created", "2012-04-23T11:00", #"{"post":"p2","kind":"product","voting":true,"price":2.5}"#)
        log.add("post.created", "2012-04-23T12:00", #"{"post":"p3","kind":"outfit","voting":true}"#)
        let window = InsightLog.days("2012-04-23", "2012-04-24")
        let sum = try trend("post.created") { $0.measure = try InsightMeasure("sum:price") }.run(try log.reader(), window: window)
        #expect(sum.lines == ["2012-04-23,all,12.5", "2012-04-24,all,0"])
        let average = try trend("post.created") { $0.measure = try InsightMeasure("avg:price") }.run(try log.reader(), window: window)
        #expect(average.lines == ["2012-04-23,all,6.25", "2012-04-24,all,"])
    }

    @Test func filtersCompareTextAndAbsentReadsNone() throws {
        let log = InsightLog()
        log.add("post.created", "2012-04-23T10:00", #"{"post":"p1","kind":"product","voting":true,"price":0}"#)
        log.add("post.created", "2012-04-23T10:00", #"{"post":"p2","kind":"product","voting":true,"price":120.0}"#)
        log.add("post.created", "2012-04-23T10:00", #"{"post":"p3","kind":"product","voting":false}"#)
        log.add("post.created", "2012-04-23T10:00", #"{"post":"p4","kind":"outfit","voting":true}"#)
        let window = InsightLog.days("2012-04-23", "2012-04-23")
        func count(_ selector: String, where filters: [String] = []) throws -> String {
            try trend(selector) { $0.filters = try filters.map { try PropertyFilter($0) } }.run(try log.reader(), window: window).lines[0]
        }
        #expect(try count("post.created[kind=product,price!=0]") == "2012-04-23,all,2")  // no price is not 0
        #expect(try count("post.created[price=120]") == "2012-04-23,all,1")  // a whole number reads without a fraction
        #expect(try count("post.created[price=(none)]") == "2012-04-23,all,2")
        #expect(try count("post.created[voting=false]") == "2012-04-23,all,1")
        #expect(try count("post.created", where: ["kind=outfit"]) == "2012-04-23,all,1")
        #expect(try count("post.created[kind=Product]") == "2012-04-23,all,0")  // case-sensitive
    }

    @Test func aListCountsOnceUnderEachDistinctElementAndNoneWhenEmpty() throws {
        let log = InsightLog()
        log.add("post.created", "2012-04-23T10:00", #"{"post":"p1","kind":"outfit","voting":true,"brands":["Zara","Gap","Zara"]}"#)
        log.add("post.created", "2012-04-23T10:00", #"{"post":"p2","kind":"outfit","voting":true,"brands":[]}"#)
        log.add("post.created", "2012-04-23T10:00", #"{"post":"p3","kind":"outfit","voting":true,"location":{"name":"Soho"}}"#)
        let window = InsightLog.days("2012-04-23", "2012-04-23")
        let brands = try trend("post.created") { $0.by = try InsightProperty("brands") }.run(try log.reader(), window: window)
        #expect(brands.lines == ["2012-04-23,(none),2", "2012-04-23,Gap,1", "2012-04-23,Zara,1"])
        let places = try trend("post.created") { $0.by = try InsightProperty("location") }.run(try log.reader(), window: window)
        #expect(places.lines == ["2012-04-23,(none),2", "2012-04-23,Soho,1"])
        #expect(try trend("post.created[brands!=Zara]").run(try log.reader(), window: window).lines == ["2012-04-23,all,2"])
    }

    /// "Café" with é (U+00E9) and with e + U+0301 are equal Swift strings but two values for the
    /// contract, which compares values as exact text: two groups, and a filter matches one.
    @Test func valuesThatDifferOnlyInNormalizationAreTwoValues() throws {
        let composed = "Caf\u{E9}", decomposed = "Cafe\u{301}"
        let log = InsightLog()
        log.add("post.created", "2012-04-23T10:00", #"{"post":"p1","kind":"outfit","voting":true,"brands":["Caf\u00e9","Cafe\u0301","Caf\u00e9"]}"#)
        log.add("post.created", "2012-04-23T10:00", #"{"post":"p2","kind":"outfit","voting":true,"brands":["Cafe\u0301"]}"#)
        let window = InsightLog.days("2012-04-23", "2012-04-23")
        let brands = try trend("post.created") { $0.by = try InsightProperty("brands") }.run(try log.reader(), window: window)
        #expect(brands.lines.map { Array($0.utf8) } == ["2012-04-23,\(decomposed),2", "2012-04-23,\(composed),1"].map { Array($0.utf8) })
        let filtered = try trend("post.created[brands=\(composed)]").run(try log.reader(), window: window)
        #expect(filtered.lines == ["2012-04-23,all,1"])
    }

    @Test func timePartsPropsAndTheSignUpOfTheActingUser() throws {
        let log = InsightLog()
        log.add("user.signed_up", "2012-04-22T08:00", user: "a", #"{"provider":"google","name":"A"}"#)
        log.add("user.signed_up", "2012-04-22T09:00", user: "a", #"{"provider":"twitter","name":"A"}"#)  // not the first
        log.track("Shop", "2012-04-23T09:30", user: "a", props: #"{"tab":"sale","n":12.5,"new":true,"tags":["x","y"]}"#)
        log.track("Shop", "2012-04-23T21:00", user: "b", props: #"{"tab":"all","n":3}"#)
        let window = InsightLog.days("2012-04-23", "2012-04-23")
        func groups(_ property: String) throws -> [String] {
            try trend("track") { $0.by = try InsightProperty(property); $0.top = 0 }.run(try log.reader(), window: window)
                .rows.map { $0[1].plainText }.sorted()
        }
        #expect(try groups("hour") == ["09", "21"])
        #expect(try groups("weekday") == ["Mon"])
        #expect(try groups("props.tab") == ["all", "sale"])
        #expect(try groups("props.n") == ["12.5", "3"])
        #expect(try groups("props.new") == ["(none)", "true"])
        #expect(try groups("props.tags") == ["(none)", "x", "y"])
        #expect(try groups("user.provider") == ["(none)", "google"])
        #expect(try groups("user.signup_day") == ["(none)", "2012-04-22"])
        #expect(try groups("screen") == ["(none)"])
        let sum = try trend("track") { $0.measure = try InsightMeasure("sum:props.n") }.run(try log.reader(), window: window)
        #expect(sum.lines == ["2012-04-23,all,15.5"])
    }

    @Test func unknownNamesAreRefusedWithTheKnownOnes() {
        #expect(throws: InsightError.self) { try InsightProperty("chanel") }
        #expect((try? InsightProperty("chanel")) == nil)
        do {
            _ = try InsightProperty("chanel")
        } catch {
            #expect(error.description.hasPrefix("unknown property \"chanel\" (did you mean channel?)"))
        }
        do {
            _ = try EventSelector("post.hearts")
        } catch {
            #expect(error.description.hasPrefix("unknown event type \"post.hearts\" (did you mean post.hearted?)"))
        }
        #expect(throws: InsightError.self) { try EventSelector("*,post.hearted") }
        #expect(throws: InsightError.self) { try InsightProperty("seq") }
    }

    @Test func aCommaInsideBracketsStartsAFilterOnlyBeforeAName() throws {
        let selector = try EventSelector("track[name=Outfit, Detail,screen=1.2]")
        #expect(selector.filters.map(\.value) == ["Outfit, Detail", "1.2"])
        #expect(selector.filters.map { $0.property.description } == ["name", "screen"])
    }
}
