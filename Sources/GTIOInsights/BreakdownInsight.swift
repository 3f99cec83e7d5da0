import GTIOCatalog
import GTIOTables

/// `breakdown SELECTOR --by PROP [--measure M] [--top N]`, and `top DIMENSION`: one number per
/// value of a property over the whole window, with its share (INSIGHTS.md §3).
public struct BreakdownInsight: Sendable {
    public var selector: EventSelector
    public var by: InsightProperty
    public var measure: InsightMeasure = .events
    /// Rows kept (0: all).
    public var top = 20
    public var filters: [PropertyFilter] = []
    /// `top`: the `(none)` group is left out of the rows and of the shares.
    public var leavesOutNone = false

    public init(selector: EventSelector, by: InsightProperty) {
        self.selector = selector
        self.by = by
    }

    public static let columns = ["group", "value", "share"]

    public func run(_ reader: InsightReader, window: InsightWindow) throws -> ResultTable {
        var selector = self.selector
        if leavesOutNone, let types = by.types {
            // The other types read (none), which is left out: they need not be read at all.
            selector.types = selector.types.map { $0.intersection(types) } ?? types
        }
        let events = try GroupedEvents(reader, selector: selector, filters: filters, by: by, measure: measure, window: window,
                                       interval: nil)
        let excluded: Set<String> = leavesOutNone ? [InsightProperty.none] : []
        let (kept, cut) = events.ranked(measure, top: top, leaving: excluded)
        // What a share is of: the total over all groups, or the distinct actors over them.
        let denominator: Double?
        switch measure {
        case .events, .sum:
            denominator = events.groupTotals.filter { !excluded.contains($0.group) }.reduce(0) { $0 + ($1.tally.value(measure) ?? 0) }
        case .users, .devices:
            var actors = Set<Int>()
            for (group, tally) in events.groupTotals where !excluded.contains(group) { actors.formUnion(tally.actors) }
            denominator = Double(actors.count)
        case .average:
            denominator = nil
        }
        func share(_ value: Double?) -> Cell {
            guard let value, let denominator, denominator != 0 else { return .null }
            return .number(value / denominator)
        }
        var rows = kept.map { group -> [Cell] in
            let value = events.total(group).value(measure)
            return [.text(group), figureCell(value, measure), share(value)]
        }
        if measure.keepsOther, !cut.isEmpty {
            let value = cut.reduce(0.0) { $0 + (events.total($1).value(measure) ?? 0) }
            rows.append([.text(otherGroup), figureCell(value, measure), share(value)])
        }
        return ResultTable(columns: Self.columns, rows: rows)
    }
}
