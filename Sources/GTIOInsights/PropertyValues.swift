import GTIOTables

/// The values seen for a property, most frequent first: for completing `--where PROP=`.
public enum PropertyValues {
    /// Up to `limit` values of `property` over the default window of `reader`'s view, `(none)` left out.
    public static func seen(_ property: InsightProperty, in reader: InsightReader, limit: Int = 50) throws -> [String] {
        guard let extent = try reader.extent() else { return [] }
        let now = try reader.now() ?? extent.upperBound
        let day = now >= 0 ? now / InsightWindow.day : (now + 1) / InsightWindow.day - 1
        var top = BreakdownInsight(selector: try EventSelector("*"), by: property)
        top.leavesOutNone = true
        top.top = limit
        let table = try top.run(reader, window: InsightWindow(from: day - 29, to: day))
        return table.rows.map { $0[0].plainText }.filter { $0 != otherGroup }
    }
}
