import GTIOCatalog
import GTIOTables

/// `trend SELECTOR [--measure M] [--by PROP] [--interval day|week|month] [--top N]`: a number
/// per time bucket, split by a property (INSIGHTS.md §3).
public struct TrendInsight: Sendable {
    public var selector: EventSelector
    public var measure: InsightMeasure = .events
    public var by: InsightProperty?
    public var interval: InsightInterval = .day
    /// Groups kept (0: all).
    public var top = 10
    public var filters: [PropertyFilter] = []

    public init(selector: EventSelector) {
        self.selector = selector
    }

    public static let columns = ["bucket", "group", "value"]

    /// The long form: `bucket,group,value`, by bucket, then value desc, then group.
    public func run(_ reader: InsightReader, window: InsightWindow) throws -> ResultTable {
        let events = try GroupedEvents(reader, selector: selector, filters: filters, by: by, measure: measure, window: window,
                                       interval: interval)
        var rows: [[Cell]] = []
        let buckets = interval.starts(window.from, window.to)
        if by == nil {
            for bucket in buckets {
                let tally = events.tally("all", in: bucket)
                rows.append([.text(interval.label(bucket)), .text("all"), figureCell(tally.value(measure), measure)])
            }
            return ResultTable(columns: Self.columns, rows: rows)
        }
        let (kept, cut) = events.ranked(measure, top: top)
        let other = measure.keepsOther && !cut.isEmpty
        let cutOrder = other ? Dictionary(uniqueKeysWithValues: cut.enumerated().map { (ExactText($1), $0) }) : [:]
        for bucket in buckets {
            var lines = kept.map { group in (group, events.tally(group, in: bucket).value(measure)) }
            lines.sort { a, b in
                let x = a.1 ?? -.infinity, y = b.1 ?? -.infinity
                if x != y { return x > y }
                return groupPrecedes(a.0, b.0)
            }
            if other { lines.append((otherGroup, events.sum(in: bucket, of: cutOrder, measure))) }
            for (group, value) in lines { rows.append([.text(interval.label(bucket)), .text(group), figureCell(value, measure)]) }
        }
        return ResultTable(columns: Self.columns, rows: rows)
    }
}
