import GTIOTables

/// An insight's answer as a self-contained SVG file (`--chart FILE.svg`), drawn by the report's
/// own chart code: a trend or a retention as lines, a funnel or a breakdown as bars.
public enum InsightChart {
    /// The SVG document for `table`, an insight's long form, titled `title`; nil for a shape
    /// with no figure.
    public static func svg(_ table: ResultTable, title: String) -> String? {
        let body: String?
        switch table.columns.first {
        case "bucket": body = trend(table, title: title)
        case "cohort": body = retention(table, title: title)
        case "step" where table.columns.contains("conversion"): body = funnel(table, title: title)
        case "group": body = bars(table.rows.map { ($0[0].plainText, $0[1]) }, title: title, xLabel: "value", yLabel: "group")
        case "step": body = bars(table.rows.map { ("\($0[1].plainText) → \($0[2].plainText)", $0[4]) }, title: title,
                                 xLabel: "paths", yLabel: "transition")
        default: body = nil
        }
        return body.map { "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + $0 + "\n" }
    }

    /// A whole number for the chart's integer scale, within its largest value either way.
    private static func whole(_ cell: Cell) -> Int {
        let largest = SVGChart.largest
        switch cell {
        case .integer(let value): return Int(max(Int64(-largest), min(Int64(largest), value)))
        case .number(let value):
            guard !value.isNaN else { return 0 }
            return Int(max(Double(-largest), min(Double(largest), value.rounded())))
        default: return 0
        }
    }

    /// A trend: one line per group over the buckets.
    private static func trend(_ table: ResultTable, title: String) -> String {
        lines(table, x: 0, series: 1, value: 2, title: title, xLabel: "bucket", yLabel: "value", seriesNoun: "series", xNoun: "buckets")
    }

    /// A retention: one line per cohort, the users it retained in each period after its own.
    /// Counts, not shares, so that the figure shows the table's own whole numbers and a small
    /// cohort's 100 % does not dwarf a large one's.
    private static func retention(_ table: ResultTable, title: String) -> String {
        lines(table, x: 2, series: 0, value: 3, title: title, xLabel: "period", yLabel: "retained", seriesNoun: "cohorts", xNoun: "periods")
    }

    /// The long form's rows pivoted to lines: column `series` names the line, `x` the point on
    /// it (in order of first appearance), `value` its height.
    private static func lines(
        _ table: ResultTable, x: Int, series: Int, value: Int, title: String, xLabel: String, yLabel: String,
        seriesNoun: String, xNoun: String
    ) -> String {
        var points: [String] = [], names: [String] = []
        var values: [String: [String: Int]] = [:]
        for row in table.rows {
            let point = row[x].plainText, name = row[series].plainText
            if !points.contains(point) { points.append(point) }
            if !names.contains(name) { names.append(name) }
            values[name, default: [:]][point] = whole(row[value])
        }
        let chart = SVGChart(id: "insight", title: title, summary: "\(names.count) \(seriesNoun) over \(points.count) \(xNoun).",
                             xLabel: xLabel, yLabel: yLabel)
        return chart.lines(points, names.map { name in (name: name, values: points.map { values[name]?[$0] ?? 0 }) })
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
