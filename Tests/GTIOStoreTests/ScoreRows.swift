import GTIOStore

extension PackedRows {
    /// Rows of the PostgreSQL suites' test table (user, day, score), packed as a load takes them.
    static func scores(_ rows: [(user: String, day: Int64, score: Double)]) -> PackedRows {
        var packed = PackedRows(width: 3)
        for row in rows {
            packed.append(row.user)
            packed.append(row.day)
            packed.append(row.score)
        }
        return packed
    }
}
