import GTIOCatalog
import GTIOTables

/// Insights' answers made readable on a terminal: the long forms that CSV and JSON keep are
/// for programs; a person reads a trend as buckets down and groups across, with a sparkline.
public enum InsightTables {
    /// Sparkline blocks, lowest to highest.
    static let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// A trend's `bucket,group,value` rows pivoted: one row per bucket, one column per group
    /// (in the order they first appear), then a `total` row (for counts and sums) and a
    /// sparkline row.
    public static func pivoted(_ trend: ResultTable, totals: Bool) -> ResultTable {
        // Groups told apart by their bytes, as the trend itself keeps them.
        var groups: [ExactText] = [], buckets: [String] = []
        var values: [String: [ExactText: Cell]] = [:]
        // Seen sets beside the ordered lists: a century of daily buckets is 36,525 of them.
        var seenGroups: Set<ExactText> = []
        for row in trend.rows {
            let bucket = row[0].plainText, group = ExactText(row[1].plainText)
            if values[bucket] == nil { buckets.append(bucket) }
            if seenGroups.insert(group).inserted { groups.append(group) }
            values[bucket, default: [:]][group] = row[2]
        }
        func number(_ cell: Cell?) -> Double? {
            switch cell {
            case .integer(let value)?: Double(value)
            case .number(let value)?: value
            default: nil
            }
        }
        // Groups across by their window total, as --top ranks them; (other) last.
        let total = Dictionary(uniqueKeysWithValues: groups.map { group in
            (group, buckets.reduce(0.0) { $0 + (number(values[$1]?[group]) ?? 0) })
        })
        groups.sort { a, b in
            if (a.text == otherGroup) != (b.text == otherGroup) { return b.text == otherGroup }
            if total[a]! != total[b]! { return total[a]! > total[b]! }
            return groupPrecedes(a.text, b.text)
        }
        var rows = buckets.map { bucket in [Cell.text(bucket)] + groups.map { values[bucket]?[$0] ?? .null } }
        if totals {
            rows.append([.text("total")] + groups.map { group in
                let sum = buckets.reduce(0.0) { $0 + (number(values[$1]?[group]) ?? 0) }
                return Int64(exactly: sum).map(Cell.integer) ?? .number(sum)
            })
        }
        rows.append([.text("trend")] + groups.map { group in .text(sparkline(buckets.map { number(values[$0]?[group]) })) })
        return ResultTable(columns: ["bucket"] + groups.map(\.text), rows: rows)
    }

    /// The most blocks a sparkline has: past it, each block shows the largest of a run of
    /// buckets. The sparkline shares its column with the numbers, which a table right-aligns to
    /// its width: one block a bucket over a century of days padded every number to 36,525
    /// columns (a 1.3 GB answer).
    static let longestSparkline = 120

    /// One block per value, scaled to the largest; a space for a missing one. Values at or
    /// below 0 take the lowest block; with an infinite largest (a sum past the doubles), only
    /// the infinite ones take the highest. More than `longestSparkline` values are taken in
    /// equal runs, each shown by its largest (a space when the run has none).
    static func sparkline(_ values: [Double?]) -> String {
        if values.count > longestSparkline {
            let run = (values.count + longestSparkline - 1) / longestSparkline
            return sparkline(stride(from: 0, to: values.count, by: run).map { start in
                values[start..<min(start + run, values.count)].compactMap { $0 }.max()
            })
        }
        let top = values.compactMap { $0 }.max() ?? 0
        return String(values.map { value -> Character in
            guard let value else { return " " }
            guard top > 0, value > 0 else { return blocks[0] }
            let share = top.isInfinite ? (value.isInfinite ? 1 : 0) : value / top
            return blocks[min(blocks.count - 1, Int((share * Double(blocks.count - 1)).rounded()))]
        })
    }

    /// A funnel with a bar per step: its conversion as a run of blocks, 20 for all.
    public static func withBars(_ funnel: ResultTable) -> ResultTable {
        guard let conversion = funnel.columns.firstIndex(of: "conversion") else { return funnel }
        return ResultTable(columns: funnel.columns + ["bar"], rows: funnel.rows.map { row in
            let share: Double = switch row[conversion] {
            case .number(let value): value
            case .integer(let value): Double(value)
            default: 0
            }
            return row + [.text(String(repeating: "█", count: Int((share * 20).rounded())))]
        })
    }
}
