import GTIOCatalog
@testable import GTIOInsights
import GTIOSimulation
import GTIOTables
import Testing

/// A read in segments on two threads gives every insight the answer of one scan: the same
/// events, in the same order, each actor under one key whichever thread read it.
@Suite struct SegmentedReadTests {
    @Test(arguments: 1...4) func everyInsightAnswersAsFromOneScan(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let log = InsightLog()
        let first = Timestamp(date: "2012-04-01")!.milliseconds
        let screens = ["Feed", "Look", "Profile", "Shop"], brands = ["Zara", "Gap", "Uniqlo"]
        for _ in 0..<400 {
            let at = Timestamp(milliseconds: first + Int64(random.below(20 * 86_400_000))).description
            let person = random.below(12), user = "u\(person)", device = "d\(random.below(7))"
            switch random.below(4) {
            case 0:
                // Screens in the user's hour of a day, so that they make sessions and paths.
                let hour = first + Int64(random.below(20)) * 86_400_000 + Int64(person) * 3_600_000
                log.add("track", Timestamp(milliseconds: hour + Int64(random.below(3_600_000))).description,
                        user: random.below(3) == 0 ? nil : user, device: device,
                        #"{"name":"\#(screens[random.below(4)])"}"#)
            case 1:
                log.add("post.created", at, user: user, device: device,
                        #"{"post":"p\#(random.below(50))","kind":"outfit","voting":true,"brands":["\#(brands[random.below(3)])"]}"#)
            case 2:
                log.add("post.voted", at, user: user, device: device,
                        #"{"post":"p1","verdict":"\#(random.below(2) == 0 ? "wear_it" : "change_it")"}"#)
            default:
                log.add("app.opened", at, user: random.below(2) == 0 ? nil : user, device: device, #"{"first_launch":false}"#)
            }
        }
        let window = InsightLog.days("2012-04-03", "2012-04-15")
        var trend = TrendInsight(selector: try EventSelector("*"))
        trend.by = try InsightProperty("name")
        trend.measure = .users
        var devices = TrendInsight(selector: try EventSelector("post.voted,app.opened"))
        devices.measure = .devices
        devices.by = try InsightProperty("verdict")
        let breakdown = BreakdownInsight(selector: try EventSelector("post.created"), by: try InsightProperty("brands"))
        var funnel = try FunnelInsight(steps: [try EventSelector("app.opened"), try EventSelector("post.created"), try EventSelector("post.voted")])
        funnel.actor = .device
        var paths = PathsInsight()
        paths.depth = 3
        var retention = RetentionInsight(start: try EventSelector("post.created"), comeback: try EventSelector("*"))
        retention.periods = 5
        let insights: [(String, (InsightReader) throws -> ResultTable)] = [
            ("trend", { try trend.run($0, window: window) }), ("devices", { try devices.run($0, window: window) }),
            ("breakdown", { try breakdown.run($0, window: window) }), ("funnel", { try funnel.run($0, window: window) }),
            ("paths", { try paths.run($0, window: window) }), ("retention", { try retention.run($0, window: window) }),
        ]
        let whole = try log.reader()
        for segment: Int64 in [1, 7, 50] {
            var parts = try log.reader()
            parts.scanSegment = segment
            for (name, run) in insights {
                let expected = try run(whole)
                #expect(!expected.rows.isEmpty, "\(name)")
                #expect(try run(parts).lines == expected.lines, "seed \(seed), \(name) in segments of \(segment)")
            }
        }
    }

    @Test func anInsightThatStopsStopsBothThreads() throws {
        let log = InsightLog()
        let ten = Timestamp(rfc3339: "2012-04-03T10:00:00Z")!.milliseconds
        for minute in 0..<200 { log.add("post.hearted", Timestamp(milliseconds: ten + Int64(minute) * 60_000).description, #"{"post":"p1"}"#) }
        var reader = try log.reader()
        reader.scanSegment = 4
        struct Stop: Error {}
        var seen: [Int64] = []
        #expect(throws: Stop.self) {
            try reader.read(types: nil, times: InsightLog.days("2012-04-03", "2012-04-03").times, properties: [], actor: .user) { event in
                seen.append(event.seq)
                if seen.count == 30 { throw Stop() }
            }
        }
        #expect(seen == Array(1...30))
    }
}
