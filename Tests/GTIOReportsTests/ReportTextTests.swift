import Testing
@testable import GTIOReports

/// The report's number formats and escaping: the same text on every machine.
@Suite struct ReportTextTests {
    @Test func numbersPrintTheSameEverywhere() {
        #expect(ReportText.grouped(1_234_567) == "1,234,567")
        #expect(ReportText.grouped(-1_234) == "−1,234")
        #expect(ReportText.grouped(999) == "999")
        #expect(ReportText.fixed(0.125, 2) == "0.13")
        #expect(ReportText.fixed(-0.04, 1) == "0.0")
        #expect(ReportText.fixed(12.0, 3) == "12.000")
        #expect(ReportText.percent(0.12345) == "12.3 %")
        #expect(ReportText.percent(nil) == "–")
        #expect(ReportText.change(from: 80, to: 100) == "+20 (+25.0 %)")
        #expect(ReportText.change(from: 100, to: 80) == "−20 (−20.0 %)")
        #expect(ReportText.change(from: 0, to: 5) == "+5")
        #expect(ReportText.change(from: 5, to: 5) == "±0 (0.0 %)")
        #expect(ReportText.change(from: nil, to: 5) == "–")
        #expect(ReportText.compact(20_000) == "20k")
        #expect(ReportText.compact(2_500) == "2,500")
    }

    @Test func axesEndOnRoundNumbersInAtMostFiveSteps() {
        #expect(SVGChart.scale(0) == (1, 1))
        #expect(SVGChart.scale(7) == (8, 2))
        #expect(SVGChart.scale(9_161) == (10_000, 2_000))
        #expect(SVGChart.scale(17_529) == (20_000, 5_000))
        #expect(SVGChart.scale(100) == (100, 20))
    }

    @Test func textIsEscapedForHTMLAndXML() {
        #expect(HTML.escape("a<b & \"c\" 'd'>") == "a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt;")
        #expect(HTML.escape("bell\u{07}\ttab") == "bell\u{FFFD}\ttab")
        // A combining mark joins the character before it into one `Character` ("<" with U+0338
        // is even equal to "≮"): escaping goes by scalars, so no raw < & " is left behind.
        #expect(HTML.escape("<\u{338}b &\u{301} \"\u{301}") == "&lt;\u{338}b &amp;\u{301} &quot;\u{301}")
    }
}
