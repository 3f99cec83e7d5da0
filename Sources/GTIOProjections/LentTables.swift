import GTIOStore

/// The tables of one open snapshot, lent for the length of the `readTables` call that opened
/// it: every read of an answer goes to that snapshot instead of opening one of its own.
///
/// `@unchecked Sendable`: it never leaves the call (and the thread) that lent it, which
/// `StoredReadModels.whenCurrent` ensures by handing it to a non-escaping closure only.
struct LentTables: TableSource, @unchecked Sendable {
    let tables: any TableReading

    func readTables<T>(_ body: (any TableReading) throws -> T) throws -> T { try body(tables) }
}
