import GTIOTables
@testable import GTIOInsights
import Testing

/// A trend pivoted for a person: one row a bucket, and a sparkline row of at most 120 blocks.
@Suite struct InsightTablesTests {
    @Test func aSparklineShowsEachValueScaledToTheLargest() {
        #expect(InsightTables.sparkline([0, 1, 2, nil, 4]) == "▁▃▅ █")
    }

    @Test func aLongSparklineShowsTheLargestOfEachRunOfBuckets() {
        // 240 buckets: runs of two, each shown by the larger (a run of none by a space).
        var values: [Double?] = Array(repeating: 0, count: 240)
        values[3] = 7
        values[10] = nil
        values[11] = nil
        let line = InsightTables.sparkline(values)
        #expect(line.count == 120)
        #expect(Array(line)[1] == "█")
        #expect(Array(line)[5] == " ")
        #expect(line.filter { $0 == "▁" }.count == 118)
        // 36,525 daily buckets: runs of 305, 120 blocks.
        #expect(InsightTables.sparkline(Array(repeating: 1, count: 36_525)).count == 120)
    }

    @Test func aCenturyOfBucketsIsPivotedWithARowEach() {
        let rows = (0..<36_525).map { day in [Cell.text("d\(day)"), .text("all"), .integer(Int64(day % 7))] }
        let table = InsightTables.pivoted(ResultTable(columns: ["bucket", "group", "value"], rows: rows), totals: true)
        #expect(table.columns == ["bucket", "all"])
        #expect(table.rows.count == 36_527)
        #expect(table.rows[36_525] == [.text("total"), .integer(109_572)])
        guard case .text(let line) = table.rows[36_526][1] else { return #expect(Bool(false)) }
        #expect(line.count == 120)
    }
}
