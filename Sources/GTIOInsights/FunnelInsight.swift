import GTIOCatalog
import GTIOTables

/// `funnel STEP STEP [STEP …] [--within D] [--by PROP] [--actor user|device]`: how many actors
/// go through the steps in order (INSIGHTS.md §3 and §5).
public struct FunnelInsight: Sendable {
    public var steps: [EventSelector]
    /// How long after entering the later steps may come, inclusive (ms).
    public var within: Int64 = 7 * 86_400_000
    public var by: InsightProperty?
    public var actor: InsightActor = .user
    public var filters: [PropertyFilter] = []

    public init(steps: [EventSelector]) throws(InsightError) {
        guard steps.count >= 2 else { throw .tooFewSteps }
        self.steps = steps
    }

    public static let columns = ["step", "selector", "group", "actors", "conversion", "from_previous", "median_hours"]

    private struct Hit {
        var at: Int64
        var seq: Int64
        /// Bit k: it matches step k.
        var steps: UInt64
        var groups: [String]
    }

    public func run(_ reader: InsightReader, window: InsightWindow) throws -> ResultTable {
        let stepFilters = steps.map { $0.filters + filters }
        let allFilters = stepFilters.flatMap { $0 }
        let properties = (by.map { [$0] } ?? []) + allFilters.map(\.property)
        let offset = by == nil ? 0 : 1
        let types: Set<EventType>? = steps.contains { $0.types == nil } ? nil : Set(steps.flatMap { $0.types! })
        // Later steps may come after the window, up to `within` after an entry on its last day.
        let times = window.times.lowerBound...(window.times.upperBound + within)
        var hits: [Int: [Hit]] = [:]
        try reader.read(types: types, times: times, properties: properties, actor: actor) { event in
            guard let actor = event.actor(actor) else { return }
            var mask: UInt64 = 0, index = offset
            for (step, selector) in steps.enumerated() {
                var matches = selector.takes(event.type)
                for filter in stepFilters[step] {
                    if matches && !filter.keeps(event.values[index]) { matches = false }
                    index += 1
                }
                if matches { mask |= 1 << UInt64(step) }
            }
            guard mask != 0 else { return }
            let groups = by == nil ? ["all"] : (event.values[0].isEmpty ? [InsightProperty.none] : event.values[0])
            hits[actor, default: []].append(Hit(at: event.at, seq: event.seq, steps: mask, groups: groups))
        }
        // Per group: actors reaching each step, and the hours each took from the step before.
        // Groups told apart by their bytes, as values compare as exact text.
        var reached: [ExactText: [Int]] = [:]
        var hours: [ExactText: [[Double]]] = [:]
        let windowEnd = window.times.upperBound
        for (_, events) in hits {
            let ordered = events.sorted { ($0.at, $0.seq) < ($1.at, $1.seq) }
            guard let entry = ordered.firstIndex(where: { $0.steps & 1 != 0 && $0.at <= windowEnd }) else { continue }
            let deadline = ordered[entry].at + within
            var times = [ordered[entry].at]
            var position = entry
            for step in 1..<steps.count {
                guard let next = ordered[(position + 1)...].firstIndex(where: { $0.steps & (1 << UInt64(step)) != 0 }),
                      ordered[next].at <= deadline
                else { break }
                times.append(ordered[next].at)
                position = next
            }
            for group in ordered[entry].groups.lazy.map(ExactText.init) {
                // Changed where they are kept: a copy taken out and put back would copy the
                // group's spans at every actor, a cost that grows with the square of the actors.
                if reached[group] == nil {
                    reached[group] = Array(repeating: 0, count: steps.count)
                    hours[group] = Array(repeating: [], count: steps.count)
                }
                for step in times.indices {
                    reached[group]![step] += 1
                    if step > 0 { hours[group]![step].append(Double(times[step] - times[step - 1]) / 3_600_000) }
                }
            }
        }
        if by == nil, reached.isEmpty {
            reached[ExactText("all")] = Array(repeating: 0, count: steps.count)
            hours[ExactText("all")] = Array(repeating: [], count: steps.count)
        }
        let groups = reached.keys.sorted { a, b in
            if reached[a]![0] != reached[b]![0] { return reached[a]![0] > reached[b]![0] }
            return groupPrecedes(a.text, b.text)
        }
        func ratio(_ part: Int, _ whole: Int) -> Cell { whole == 0 ? .null : .number(Double(part) / Double(whole)) }
        var rows: [[Cell]] = []
        for group in groups {
            let counts = reached[group]!
            for step in steps.indices {
                rows.append([
                    .integer(Int64(step + 1)), .text(steps[step].text), .text(group.text), .integer(Int64(counts[step])),
                    ratio(counts[step], counts[0]), step == 0 ? .integer(1) : ratio(counts[step], counts[step - 1]),
                    step == 0 ? .null : median(hours[group]![step]).map(Cell.number) ?? .null,
                ])
            }
        }
        return ResultTable(columns: Self.columns, rows: rows)
    }
}

/// The middle value, or the mean of the two middle values; nil for none.
func median(_ values: [Double]) -> Double? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted(), n = sorted.count
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
}
