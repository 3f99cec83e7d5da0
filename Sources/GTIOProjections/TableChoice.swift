/// Which of the read models' tables a write fills: all of them, or only those an answer reads.
///
/// A view written for one answer (the nightly report's) need not hold every table: at 20 M
/// events the follow graph and the hearts alone are ~4 M rows that the report never reads. A
/// table left out is not created either, so a query that reads it fails loudly ("no such
/// table") rather than answering from an empty table.
public struct TableChoice: Sendable {
    private let names: Set<String>?

    /// Every table.
    public static let all = TableChoice(names: nil)

    /// Only the tables named (each one of `ReadModelTables`'), with the read models' own
    /// bookkeeping (`rm_meta`, checkpoints).
    public static func only(_ names: Set<String>) -> TableChoice {
        let known = Set(ReadModelTables.tables.values.joined().map(\.name))
        precondition(names.isSubset(of: known), "not read-model tables: \(names.subtracting(known).sorted())")
        return TableChoice(names: names)
    }

    /// Whether the table `name` is written.
    func contains(_ name: String) -> Bool { names?.contains(name) ?? true }

    /// Whether any table of `model` is written.
    func includes(_ model: ReadModelName) -> Bool { ReadModelTables.tables[model]!.contains { contains($0.name) } }
}
