import GTIOCatalog
import GTIOInsights
import GTIOSimulation
import GTIOTables
import Testing

/// `retention` against a plain reading of INSIGHTS.md on generated logs: every event looked at,
/// each user's first start found by sorting, each period checked by walking the events again.
@Suite struct RetentionPropertyTests {
    @Test(arguments: 1...12) func agreesWithTheContractReadPlainly(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let log = InsightLog()
        var events: [Plain] = []
        let types = ["user.signed_up", "post.hearted", "post.voted", "app.opened"]
        let first = Timestamp(date: "2012-04-01")!.milliseconds
        for _ in 0..<(120 + Int(random.next() % 120)) {
            let type = types[Int(random.next() % 4)]
            // Times fall in any order against seq: late events are the rule here, not the exception.
            let at = first + Int64(random.next() % (50 * 86_400_000))
            let user: String? = type == "app.opened" && random.next() % 3 == 0 ? nil : "u\(random.next() % 9)"
            let verdict = random.next() % 2 == 0 ? "wear_it" : "change_it"
            let data = switch type {
            case "user.signed_up": #"{"provider":"google","name":"N"}"#
            case "post.hearted": #"{"post":"p1"}"#
            case "post.voted": #"{"post":"p1","verdict":"\#(verdict)"}"#
            default: #"{"first_launch":false}"#
            }
            log.add(type, Timestamp(milliseconds: at).description, user: user, device: "d1", data)
            events.append(Plain(seq: Int64(events.count + 1), type: type, at: at, user: user, verdict: type == "post.voted" ? verdict : nil))
        }
        let selectors = ["user.signed_up", "*", "post.hearted,post.voted", "post.voted[verdict=wear_it]", "app.opened"]
        let reader = try log.reader()
        // The same store read in segments of a few seqs, on two threads.
        var segmented = reader
        segmented.scanSegment = 1 + Int64(random.next() % 9)
        for _ in 0..<6 {
            let from = Timestamp(date: "2012-04-01")!.day + Int64(random.next() % 40)
            let window = InsightWindow(from: from, to: from + Int64(random.next() % 20))
            var retention = RetentionInsight(
                start: try EventSelector(selectors[Int(random.next() % 5)]), comeback: try EventSelector(selectors[Int(random.next() % 5)]))
            retention.interval = random.next() % 2 == 0 ? .day : .week
            retention.periods = random.next() % 3 == 0 ? nil : 1 + Int(random.next() % 9)
            let expected = Self.plainly(retention, events, window)
            let question = "retention --start \(retention.start) --return \(retention.comeback) --interval \(retention.interval)"
                + " --periods \(retention.periods.map(String.init) ?? "-") --from \(window.from) --to \(window.to)"
            #expect(try retention.run(reader, window: window).lines == expected, "seed \(seed): \(question)")
            #expect(try retention.run(segmented, window: window).lines == expected, "seed \(seed), in segments: \(question)")
        }
    }

    /// An event as the plain reading sees it.
    struct Plain {
        var seq: Int64, type: String, at: Int64, user: String?, verdict: String?

        func matches(_ selector: EventSelector) -> Bool {
            if let types = selector.types, !types.contains(where: { $0.rawValue == type }) { return false }
            return selector.filters.isEmpty || verdict == "wear_it"
        }
    }

    static func plainly(_ retention: RetentionInsight, _ events: [Plain], _ window: InsightWindow) -> [String] {
        let periods = retention.periods ?? (retention.interval == .day ? 7 : 4)
        let length: Int64 = retention.interval == .day ? 1 : 7
        func interval(_ at: Int64) -> Int64 {
            let day = Timestamp(milliseconds: at).day
            return retention.interval == .day ? day : day - ((day + 3) % 7 + 7) % 7
        }
        var firsts: [String: Plain] = [:]
        for event in events.sorted(by: { ($0.at, $0.seq) < ($1.at, $1.seq) })
        where event.user != nil && window.times.contains(event.at) && event.matches(retention.start) && firsts[event.user!] == nil {
            firsts[event.user!] = event
        }
        var lines: [String] = []
        for cohort in Set(firsts.values.map { interval($0.at) }).sorted() {
            let users = firsts.filter { interval($0.value.at) == cohort }.map(\.key)
            for period in 1...periods {
                let retained = users.filter { user in
                    events.contains { $0.user == user && $0.matches(retention.comeback) && interval($0.at) == cohort + length * Int64(period) }
                }.count
                lines.append("\(Timestamp.dateString(ofDay: cohort)),\(users.count),\(period),\(retained),\(Cell.number(Double(retained) / Double(users.count)).plainText)")
            }
        }
        return lines
    }
}
