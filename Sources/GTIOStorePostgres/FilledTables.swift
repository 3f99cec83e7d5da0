/// Which `rm_` tables hold rows, asked once per transaction (one statement for all), so that a
/// load knows whether to insert or to upsert without a round trip that would wait for the
/// statements sent before it.
final class FilledTables: @unchecked Sendable {
    // @unchecked: only the thread running the transaction touches it.
    private var known: Set<String>?

    /// Whether `table` holds rows, as the transaction `tx` sees it.
    func holdsRows(_ table: String, in tx: PostgresTransaction) throws -> Bool {
        if let known { return known.contains(table) }
        let names = try tx.tableNames(prefix: "rm_")
        let held = names.isEmpty ? [] : try tx.session.rows(
            names.map { "SELECT '\($0)' WHERE EXISTS (SELECT 1 FROM \($0))" }.joined(separator: " UNION ALL "))
        known = Set(held.compactMap { $0[0].string })
        return known!.contains(table)
    }

    /// Notes that `table` now holds rows.
    func add(_ table: String) {
        known?.insert(table)
    }
}
