/// Inline SVG charts for the report: each has a title and a description for screen readers,
/// axis labels, and scales with its container (viewBox). Bars are `rect.bar`, points `circle.point`.
struct SVGChart {
    var id: String
    var title: String
    /// The chart in one sentence, read out instead of the picture.
    var summary: String
    var xLabel: String
    var yLabel: String

    /// The width of a report card's inside (980 px of page less margins and padding), so that
    /// a chart fills its card with text at its own size.
    static let width = 920.0
    private static let font = "font-size=\"14\""

    /// A line with a point per value, labels under every seventh point counted back from the last.
    func line(_ points: [(label: String, value: Int)]) -> String {
        lines(points.map(\.label), [(name: "", values: points.map(\.value))])
    }

    /// Colours of the series of a chart with several lines, in order.
    static let palette = ["#2563eb", "#dc2626", "#16a34a", "#d97706", "#7c3aed", "#0891b2", "#db2777", "#4b5563", "#65a30d", "#9333ea"]

    /// One line per series over the same labels, with a legend when there are several.
    func lines(_ labels: [String], _ series: [(name: String, values: [Int])]) -> String {
        let legend = series.count > 1 ? 24.0 * Double((series.count + 3) / 4) : 0
        let (left, right, top, bottom) = (78.0, 28.0, 14.0 + legend, 52.0)
        let height = 250.0 + legend, plotWidth = Self.width - left - right, plotHeight = height - top - bottom
        let (maximum, step) = Self.scale(series.flatMap(\.values).max() ?? 0)
        func x(_ index: Int) -> Double {
            labels.count == 1 ? left + plotWidth / 2 : left + plotWidth * Double(index) / Double(labels.count - 1)
        }
        func y(_ value: Int) -> Double { top + plotHeight * (1 - Double(value) / Double(maximum)) }
        var out = open(height: height)
        out += grid(left: left, right: Self.width - right, maximum: maximum, step: step, y: y)
        for index in labels.indices where (labels.count - 1 - index) % 7 == 0 {
            out += "<text x=\"\(n(x(index)))\" y=\"\(n(top + plotHeight + 18))\" text-anchor=\"middle\" \(Self.font)>\(HTML.escape(labels[index]))</text>"
        }
        for (number, line) in series.enumerated() {
            let color = Self.palette[number % Self.palette.count]
            if series.count > 1 {
                let (column, row) = (number % 4, number / 4)
                let lx = left + Double(column) * 200, ly = 14.0 + Double(row) * 24
                out += "<rect x=\"\(n(lx))\" y=\"\(n(ly))\" width=\"14\" height=\"14\" fill=\"\(color)\"/>"
                out += "<text x=\"\(n(lx + 20))\" y=\"\(n(ly + 12))\" \(Self.font)>\(HTML.escape(line.name))</text>"
            }
            let path = line.values.indices.map { "\(n(x($0))),\(n(y(line.values[$0])))" }.joined(separator: " ")
            out += "<polyline class=\"series\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\" points=\"\(path)\"/>"
            for (index, value) in line.values.enumerated() {
                let label = (line.name.isEmpty ? "" : line.name + ", ") + labels[index] + ": " + ReportText.grouped(value)
                out += "<circle class=\"point\" cx=\"\(n(x(index)))\" cy=\"\(n(y(value)))\" r=\"3\" fill=\"\(color)\"><title>\(HTML.escape(label))</title></circle>"
            }
        }
        out += axisLabels(left: left, plotWidth: plotWidth, top: top, plotHeight: plotHeight, height: height)
        return out + "</svg>"
    }

    /// Horizontal bars from zero, labelled on the left, each with its value (and a note) at its end.
    func bars(_ bars: [(label: String, value: Int, note: String)]) -> String {
        let (left, right, top, bottom, row) = (150.0, 110.0, 26.0, 44.0, 30.0)
        let plotWidth = Self.width - left - right, plotHeight = row * Double(bars.count)
        let height = top + plotHeight + bottom
        let (maximum, step) = Self.scale(bars.map(\.value).max() ?? 0)
        func x(_ value: Int) -> Double { left + plotWidth * Double(value) / Double(maximum) }
        var out = open(height: height)
        var tick = 0
        while tick <= maximum {
            out += "<line x1=\"\(n(x(tick)))\" y1=\"\(n(top))\" x2=\"\(n(x(tick)))\" y2=\"\(n(top + plotHeight))\" stroke=\"#e5e7eb\"/>"
            out += "<text x=\"\(n(x(tick)))\" y=\"\(n(top + plotHeight + 16))\" text-anchor=\"middle\" \(Self.font)>\(ReportText.compact(tick))</text>"
            tick += step
        }
        for (index, bar) in bars.enumerated() {
            let middle = top + row * Double(index) + row / 2
            out += "<text x=\"\(n(left - 8))\" y=\"\(n(middle + 4))\" text-anchor=\"end\" \(Self.font)>\(HTML.escape(bar.label))</text>"
            out += "<rect class=\"bar\" x=\"\(n(left))\" y=\"\(n(middle - 10))\" width=\"\(n(x(bar.value) - left))\" height=\"20\" fill=\"#2563eb\"><title>\(HTML.escape("\(bar.label): \(ReportText.grouped(bar.value))"))</title></rect>"
            let text = ReportText.grouped(bar.value) + (bar.note.isEmpty ? "" : " · " + bar.note)
            out += "<text x=\"\(n(x(bar.value) + 6))\" y=\"\(n(middle + 4))\" \(Self.font)>\(HTML.escape(text))</text>"
        }
        out += valueLabel(center: left + plotWidth / 2, height: height) + categoryLabel(left: left)
        return out + "</svg>"
    }

    /// One bar per row split into the wear-it share (green) and the change-it share (red), 0–100 %.
    func shares(_ rows: [(label: String, wear: Int, change: Int)]) -> String {
        let (left, right, top, bottom, row) = (166.0, 74.0, 26.0, 44.0, 28.0)
        let plotWidth = Self.width - left - right, plotHeight = row * Double(rows.count)
        let height = top + plotHeight + bottom
        var out = open(height: height)
        for percent in stride(from: 0, through: 100, by: 25) {
            let x = left + plotWidth * Double(percent) / 100
            out += "<line x1=\"\(n(x))\" y1=\"\(n(top))\" x2=\"\(n(x))\" y2=\"\(n(top + plotHeight))\" stroke=\"#e5e7eb\"/>"
            out += "<text x=\"\(n(x))\" y=\"\(n(top + plotHeight + 16))\" text-anchor=\"middle\" \(Self.font)>\(percent) %</text>"
        }
        for (index, entry) in rows.enumerated() {
            let middle = top + row * Double(index) + row / 2
            let votes = entry.wear + entry.change
            let wear = votes == 0 ? 0 : plotWidth * Double(entry.wear) / Double(votes)
            let change = votes == 0 ? 0 : plotWidth - wear
            out += "<text x=\"\(n(left - 8))\" y=\"\(n(middle + 4))\" text-anchor=\"end\" \(Self.font)>\(HTML.escape(entry.label))</text>"
            out += "<rect class=\"bar wear\" x=\"\(n(left))\" y=\"\(n(middle - 9))\" width=\"\(n(wear))\" height=\"18\" fill=\"#16a34a\"><title>\(HTML.escape("\(entry.label): \(entry.wear) wear it"))</title></rect>"
            out += "<rect class=\"bar change\" x=\"\(n(left + wear))\" y=\"\(n(middle - 9))\" width=\"\(n(change))\" height=\"18\" fill=\"#dc2626\"><title>\(HTML.escape("\(entry.label): \(entry.change) change it"))</title></rect>"
            let text = votes == 0 ? "no votes" : "\(entry.wear) / \(entry.change)"
            out += "<text x=\"\(n(left + plotWidth + 6))\" y=\"\(n(middle + 4))\" \(Self.font)>\(text)</text>"
        }
        out += valueLabel(center: left + plotWidth / 2, height: height) + categoryLabel(left: left)
        return out + "</svg>"
    }

    // MARK: Parts

    private func open(height: Double) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(n(Self.width)) \(n(height))\" role=\"img\" aria-labelledby=\"\(id)-title \(id)-desc\" font-family=\"system-ui, sans-serif\">"
            + "<title id=\"\(id)-title\">\(HTML.escape(title))</title><desc id=\"\(id)-desc\">\(HTML.escape(summary))</desc>"
    }

    private func grid(left: Double, right: Double, maximum: Int, step: Int, y: (Int) -> Double) -> String {
        var out = ""
        var tick = 0
        while tick <= maximum {
            out += "<line x1=\"\(n(left))\" y1=\"\(n(y(tick)))\" x2=\"\(n(right))\" y2=\"\(n(y(tick)))\" stroke=\"#e5e7eb\"/>"
            out += "<text x=\"\(n(left - 6))\" y=\"\(n(y(tick) + 4))\" text-anchor=\"end\" \(Self.font)>\(ReportText.compact(tick))</text>"
            tick += step
        }
        return out
    }

    /// The label of the value axis of horizontal bars, under its ticks.
    private func valueLabel(center: Double, height: Double) -> String {
        "<text x=\"\(n(center))\" y=\"\(n(height - 6))\" text-anchor=\"middle\" \(Self.font) font-weight=\"bold\">\(HTML.escape(xLabel))</text>"
    }

    /// The label of the category axis of horizontal bars, above the category names.
    private func categoryLabel(left: Double) -> String {
        "<text x=\"\(n(left - 8))\" y=\"16\" text-anchor=\"end\" \(Self.font) font-weight=\"bold\">\(HTML.escape(yLabel))</text>"
    }

    private func axisLabels(left: Double, plotWidth: Double, top: Double, plotHeight: Double, height: Double) -> String {
        "<text x=\"\(n(left + plotWidth / 2))\" y=\"\(n(height - 8))\" text-anchor=\"middle\" \(Self.font) font-weight=\"bold\">\(HTML.escape(xLabel))</text>"
            + "<text x=\"16\" y=\"\(n(top + plotHeight / 2))\" text-anchor=\"middle\" \(Self.font) font-weight=\"bold\" transform=\"rotate(-90 16 \(n(top + plotHeight / 2)))\">\(HTML.escape(yLabel))</text>"
    }

    /// An axis maximum at or above `value` in round steps of 1, 2 or 5 × 10ⁿ, at most five steps.
    /// The largest value an axis reaches: callers draw larger ones at it, so that the scale's
    /// arithmetic stays far from overflow.
    static let largest = 1_000_000_000_000_000

    static func scale(_ value: Int) -> (maximum: Int, step: Int) {
        guard value > 0 else { return (1, 1) }
        var magnitude = 1
        while magnitude * 10 <= value / 5 { magnitude *= 10 }
        let step = [1, 2, 5, 10].map { $0 * magnitude }.first { $0 * 5 >= value } ?? magnitude * 10
        return ((value + step - 1) / step * step, step)
    }

    private func n(_ value: Double) -> String { ReportText.fixed(value) }
}
