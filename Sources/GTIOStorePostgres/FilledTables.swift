/// Which tables hold rows, as a transaction sees them: asked for every `rm_` table at once the
/// first time, so that a load knows whether to insert or to upsert without a round trip that
/// would wait for the statements sent before it.
final class FilledTables {
    private var checked: Set<String> = []
    private var held: Set<String> = []

    /// Whether `table` holds rows in the transaction `tx`.
    func holdsRows(_ table: String, in tx: PostgresTransaction) throws -> Bool {
        if !checked.contains(table) {
            // A table created since the first look, or named otherwise, is asked about alone.
            let names = checked.isEmpty ? Set(try tx.tableNames(prefix: "rm_")).union([table]) : [table]
            let rows = try tx.session.rows(
                names.sorted().map { "SELECT '\($0)' WHERE EXISTS (SELECT 1 FROM \($0))" }.joined(separator: " UNION ALL "))
            checked.formUnion(names)
            held.formUnion(rows.compactMap { $0[0].string })
        }
        return held.contains(table)
    }

    /// Notes that `table` now holds rows.
    func add(_ table: String) {
        checked.insert(table)
        held.insert(table)
    }
}
