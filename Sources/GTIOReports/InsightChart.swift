import GTIOTables

/// An insight's answer as a self-contained SVG file (`--chart FILE.svg`), drawn by the report's
/// own chart code: a trend as lines, a funnel or a breakdown as bars.
public enum InsightChart {
    /// The SVG document for `table`, an insight's long form, titled `title`; nil for a shape
    /// with no figure.
    public static func svg(_ table: ResultTable, title: String) -> String? {
        let body: String?
        switch table.columns.first {
        case "bucket": body = trend(table, title: title)
        case "step" where table.columns.contains("conversion"): body = funnel(table, title: title)
        case "group": body = bars(table.rows.map { ($0[0].plainText, $0[1]) }, title: title, xLabel: "value", yLabel: "group")
        case "step": body = bars(table.rows.map { ("\($0[1].plainText) → \($0[2].plainText)", $0[4]) }, title: title,
                                 xLabel: "paths", yLabel: "transition")
        default: body = nil
        }
        return body.map { "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + $0 + "\n" }
    }

    /// A whole number for the chart's integer scale.
    private static func whole(_ cell: Cell) -> Int {
        switch cell {
        case .integer(let value): Int(value)
        case .number(let value): value.isFinite ? Int(value.rounded()) : 0
        default: 0
        }
    }

    private static func trend(_ table: ResultTable, title: String) -> String {
        var buckets: [String] = [], groups: [String] = []
        var values: [String: [String: Int]] = [:]
        for row in table.rows {
            let bucket = row[0].plainText, group = row[1].plainText
            if !buckets.contains(bucket) { buckets.append(bucket) }
            if !groups.contains(group) { groups.append(group) }
            values[group, default: [:]][bucket] = whole(row[2])
        }
        let chart = SVGChart(id: "insight", title: title, summary: "\(groups.count) series over \(buckets.count) buckets.",
                             xLabel: "bucket", yLabel: "value")
        return chart.lines(buckets, groups.map { group in (name: group, values: buckets.map { values[group]?[$0] ?? 0 }) })
    }

    private static func funnel(_ table: ResultTable, title: String) -> String {
        bars(table.rows.map { row in
            let group = row[2].plainText
            return ((group == "all" ? "" : group + ": ") + "\(row[0].plainText). \(row[1].plainText)", row[3])
        }, title: title, xLabel: "actors", yLabel: "step")
    }

    private static func bars(_ rows: [(String, Cell)], title: String, xLabel: String, yLabel: String) -> String {
        let chart = SVGChart(id: "insight", title: title, summary: rows.map { "\($0.0) \($0.1.plainText)" }.joined(separator: ", "),
                             xLabel: xLabel, yLabel: yLabel)
        return chart.bars(rows.map { (label: $0.0, value: whole($0.1), note: "") })
    }
}
