/// Numbers as the report prints them: the same text on every machine and in every locale
/// (no Foundation formatters, whose output follows the locale).
enum ReportText {
    /// 12345 → "12,345".
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out += "," }
            out.append(digit)
        }
        return (value < 0 ? "−" : "") + out
    }

    /// Axis ticks: thousands as "k" (20000 → "20k"), other numbers grouped.
    static func compact(_ value: Int) -> String {
        value >= 1000 && value % 1000 == 0 ? grouped(value / 1000) + "k" : grouped(value)
    }

    /// A signed difference: "+12", "−3", "±0".
    static func signed(_ value: Int) -> String {
        value > 0 ? "+" + grouped(value) : value == 0 ? "±0" : grouped(value)
    }

    /// `value` with `places` decimals, rounded half away from zero: 0.125 → "0.13" (places 2).
    static func fixed(_ value: Double, _ places: Int = 1) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = Int64((value.magnitude * scale).rounded())
        let sign = value < 0 && scaled != 0 ? "-" : ""
        guard places > 0 else { return sign + String(scaled) }
        let whole = scaled / Int64(scale), fraction = String(scaled % Int64(scale))
        return sign + String(whole) + "." + String(repeating: "0", count: places - fraction.count) + fraction
    }

    /// A share as a percentage with one decimal: 0.1234 → "12.3 %"; nil → "–".
    static func percent(_ share: Double?) -> String {
        share.map { fixed($0 * 100) + " %" } ?? "–"
    }

    /// The change of a headline figure: "+12 (+3.4 %)"; "–" without an earlier figure.
    static func change(from earlier: Int?, to value: Int) -> String {
        guard let earlier else { return "–" }
        let (difference, percent) = HeadlineFigure.change(from: earlier, to: value)
        guard let percent else { return signed(difference) }
        return signed(difference) + " (" + (percent > 0 ? "+" : percent < 0 ? "−" : "") + fixed(percent.magnitude) + " %)"
    }

    /// Hours with one decimal, or "–".
    static func hours(_ value: Double?) -> String { value.map { fixed($0) + " h" } ?? "–" }
}
