import GTIOCatalog
import GTIOTables

/// The matching events of a selector, counted by group (the values of a `--by` property, or
/// `all`) and by time bucket: what `trend`, `breakdown` and `top` are made of.
struct GroupedEvents {
    /// Tallies by bucket start day, then group. Groups are told apart by their bytes, as values
    /// compare as exact text (`ExactText`).
    private var byBucket: [Int64: [ExactText: Tally]] = [:]
    /// Tallies by group over the whole window, and over all groups.
    private var totals: [ExactText: Tally] = [:]
    var overall = Tally()

    /// The tally of `group` over the whole window (empty when no event had it).
    func total(_ group: String) -> Tally { totals[ExactText(group)] ?? Tally() }

    /// The tally of `group` in the bucket starting on `bucket` (empty when none).
    func tally(_ group: String, in bucket: Int64) -> Tally { byBucket[bucket]?[ExactText(group)] ?? Tally() }

    /// The figures in the bucket starting on `bucket` of the groups `order` gives a place, added
    /// in that order (a sum of doubles depends on it); a group without events there adds nothing.
    ///
    /// It walks the bucket's own groups rather than those of `order`: a long window cut to its
    /// top groups leaves thousands out, and a bucket holds a few of them.
    func sum(in bucket: Int64, of order: [ExactText: Int], _ measure: InsightMeasure) -> Double {
        guard let groups = byBucket[bucket] else { return 0 }
        var figures: [(place: Int, value: Double)] = []
        for (group, tally) in groups {
            if let place = order[group], let value = tally.value(measure) { figures.append((place, value)) }
        }
        figures.sort { $0.place < $1.place }
        return figures.reduce(0.0) { $0 + $1.value }
    }

    /// Every group with its tally over the whole window.
    var groupTotals: [(group: String, tally: Tally)] { totals.map { ($0.key.text, $0.value) } }

    /// Reads the events of `selector` in `window` that pass `filters`, grouped by `by`.
    init(
        _ reader: InsightReader, selector: EventSelector, filters: [PropertyFilter], by: InsightProperty?,
        measure: InsightMeasure, window: InsightWindow, interval: InsightInterval?
    ) throws {
        let filters = selector.filters + filters
        let properties = (by.map { [$0] } ?? []) + filters.map(\.property)
        let offset = by == nil ? 0 : 1
        var byBucket: [Int64: [ExactText: Tally]] = [:], totals: [ExactText: Tally] = [:], overall = Tally()
        try reader.read(
            types: selector.types, times: window.times, properties: properties, numeric: measure.numeric, actor: measure.actor
        ) { event in
            for (index, filter) in filters.enumerated() where !filter.keeps(event.values[offset + index]) { return }
            let groups = by == nil ? ["all"] : (event.values[0].isEmpty ? [InsightProperty.none] : event.values[0])
            let bucket = interval?.start(of: Timestamp(milliseconds: event.at).day)
            for group in groups.lazy.map(ExactText.init) {
                if let bucket { byBucket[bucket, default: [:]][group, default: Tally()].add(event, measure) }
                totals[group, default: Tally()].add(event, measure)
            }
            overall.add(event, measure)
        }
        self.byBucket = byBucket
        self.totals = totals
        self.overall = overall
    }

    /// The groups by their window total, largest first (ties: group order), split into the
    /// `top` kept (0: all) and the rest.
    func ranked(_ measure: InsightMeasure, top: Int, leaving excluded: Set<String> = []) -> (kept: [String], cut: [String]) {
        let ordered = totals.filter { !excluded.contains($0.key.text) }.sorted { a, b in
            let x = a.value.value(measure) ?? -.infinity, y = b.value.value(measure) ?? -.infinity
            if x != y { return x > y }
            return groupPrecedes(a.key.text, b.key.text)
        }.map(\.key.text)
        guard top > 0, ordered.count > top else { return (ordered, []) }
        return (Array(ordered.prefix(top)), Array(ordered.dropFirst(top)))
    }
}

/// A figure as a cell: counts as integers; sums and averages as integers when whole.
func figureCell(_ value: Double?, _ measure: InsightMeasure) -> Cell {
    guard let value else { return .null }
    switch measure {
    case .events, .users, .devices: return .integer(Int64(value))
    default: return value == value.rounded() && abs(value) < 9e15 ? .integer(Int64(value)) : .number(value)
    }
}
