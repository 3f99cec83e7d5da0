import Foundation
import GRDB
import GTIOStore

/// Full rewrites of read-model tables, as a rebuild does them.
extension ReadModelTables {
    /// Replaces `model`'s tables with these read models' rows and sets its checkpoint, in the
    /// caller's transaction. Returns the number of rows written.
    @discardableResult
    public static func write(_ model: ReadModelName, _ models: ReadModels, in db: Database) throws -> Int {
        try createTables(db)
        return try insert(model, insertionRows(of: model, models), seq: models.state.lastSeq, in: db)
    }

    /// The same for several models, in the caller's transaction: a second thread builds and
    /// orders the next model's rows while this one inserts (building them was a third of the
    /// tables' time). Returns the rows written per model.
    public static func write(_ names: [ReadModelName], _ models: ReadModels, in db: Database) throws -> [ReadModelName: Int] {
        try createTables(db)
        let built = BatchChannel<(ReadModelName, [String: [[DatabaseValue]]])>(capacity: 1)
        let finished = DispatchSemaphore(value: 0)
        let builder = Thread {
            defer {
                built.close()
                finished.signal()
            }
            // The small models first, so that building the two big ones' rows overlaps inserting
            // the model before each; all go in one transaction, so the order is not seen.
            let big: [ReadModelName] = [.followGraph, .posts]
            for name in names.filter({ !big.contains($0) }) + big.filter(names.contains) {
                guard built.send((name, insertionRows(of: name, models))) else { return }
            }
        }
        builder.start()
        defer { finished.wait() }
        var written: [ReadModelName: Int] = [:]
        do {
            while let (name, rows) = built.receive() {
                written[name] = try insert(name, rows, seq: models.state.lastSeq, in: db)
            }
        } catch {
            built.cancel()
            throw error
        }
        return written
    }

    /// `model`'s rows by table, each table's by first key, so that SQLite fills its B-tree a
    /// page after another rather than all over it: the tables of the 1 M-event demo log took
    /// 0.66–0.93 s in hash order and 0.45 s so. Swift's order may differ from SQLite's for
    /// non-ASCII ids, which costs speed, never rows.
    static func insertionRows(of model: ReadModelName, _ models: ReadModels) -> [String: [[DatabaseValue]]] {
        rows(of: model, models, sorted: false).mapValues { rows in
            let firstKeys = rows.map { row in if case .string(let text) = row[0].storage { text } else { "" } }
            return rows.indices.sorted { firstKeys[$0] < firstKeys[$1] }.map { rows[$0] }
        }
    }

    /// Empties `model`'s tables, inserts `rows` and sets its checkpoint to `seq`.
    private static func insert(_ model: ReadModelName, _ rows: [String: [[DatabaseValue]]], seq: Int64, in db: Database) throws -> Int {
        var written = 0
        for table in tables[model]! {
            try db.execute(sql: "DELETE FROM \(table.name)")
            var insert = try BulkInsert(into: table.name, columns: table.columns.map(\.name), in: db)
            for row in rows[table.name] ?? [] {
                try insert.insert(row)
                written += 1
            }
            try insert.finish()
        }
        try EventStore.setCheckpoint(db, name: model.checkpointName, seq: seq)
        return written
    }
}
