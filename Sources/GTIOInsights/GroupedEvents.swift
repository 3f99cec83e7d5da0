import GTIOCatalog
import GTIOTables

/// The matching events of a selector, counted by group (the values of a `--by` property, or
/// `all`) and by time bucket: what `trend`, `breakdown` and `top` are made of.
struct GroupedEvents {
    /// Tallies by bucket start day, then group.
    var byBucket: [Int64: [String: Tally]] = [:]
    /// Tallies by group over the whole window, and over all groups.
    var totals: [String: Tally] = [:]
    var overall = Tally()

    /// Reads the events of `selector` in `window` that pass `filters`, grouped by `by`.
    init(
        _ reader: InsightReader, selector: EventSelector, filters: [PropertyFilter], by: InsightProperty?,
        measure: InsightMeasure, window: InsightWindow, interval: InsightInterval?
    ) throws {
        let filters = selector.filters + filters
        let properties = (by.map { [$0] } ?? []) + filters.map(\.property)
        let offset = by == nil ? 0 : 1
        var byBucket: [Int64: [String: Tally]] = [:], totals: [String: Tally] = [:], overall = Tally()
        try reader.read(
            types: selector.types, times: window.times, properties: properties, numeric: measure.numeric, actor: measure.actor
        ) { event in
            for (index, filter) in filters.enumerated() where !filter.keeps(event.values[offset + index]) { return }
            let groups = by == nil ? ["all"] : (event.values[0].isEmpty ? [InsightProperty.none] : event.values[0])
            let bucket = interval?.start(of: Timestamp(milliseconds: event.at).day)
            for group in groups {
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
        let ordered = totals.keys.filter { !excluded.contains($0) }.sorted { a, b in
            let x = totals[a]!.value(measure) ?? -.infinity, y = totals[b]!.value(measure) ?? -.infinity
            if x != y { return x > y }
            return groupPrecedes(a, b)
        }
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
