import Foundation
import GRDB
import GTIOStore

extension SQLiteStore {
    /// Records a batch's signature inside the append transaction.
    static func insert(_ signature: BatchSignature, in db: Database) throws {
        try db.cachedStatement(
            sql: "INSERT INTO batch_signatures (batch, last_seq, head, record, public_key, signature) VALUES (?, ?, ?, ?, ?, ?)"
        ).execute(arguments: [signature.batch, signature.lastSeq, Data(signature.head), Data(signature.record),
                        Data(signature.publicKey), Data(signature.signature)])
    }

    /// Every stored signature in batch order.
    static func signatures(in db: Database) throws -> [BatchSignature] {
        try Row.fetchAll(db, sql: "SELECT batch, last_seq, head, record, public_key, signature FROM batch_signatures ORDER BY batch")
            .map(signature(from:))
    }

    static func signature(from row: Row) -> BatchSignature {
        func bytes(_ index: Int) -> [UInt8] { (row[index] as Data?).map(Array.init) ?? [] }
        return BatchSignature(batch: row[0], lastSeq: row[1], head: bytes(2), record: bytes(3), publicKey: bytes(4), signature: bytes(5))
    }

    public func lastSignature() throws -> BatchSignature? {
        try readDatabase { db in
            try Row.fetchOne(db, sql: """
                SELECT batch, last_seq, head, record, public_key, signature FROM batch_signatures ORDER BY batch DESC LIMIT 1
                """).map(Self.signature(from:))
        }
    }

    /// Every batch's record, keyed by batch number, as signatures cover them.
    static func batchRecords(in db: Database) throws -> [Int64: BatchRecord] {
        var records: [Int64: BatchRecord] = [:]
        let rows = try Row.fetchCursor(db, sql: "SELECT \(batchColumns) FROM batches")
        while let row = try rows.next() {
            let record = batchRecord(row)
            records[record.batch] = record
        }
        return records
    }

    static let batchColumns = "batch, source, first_line, last_line, first_seq, last_seq, read, appended, duplicates, rejected, recorded"

    /// A batch's record from a row of `batchColumns`.
    static func batchRecord(_ row: Row) -> BatchRecord {
        BatchRecord(
            batch: row[0], source: row[1], firstLine: row[2], lastLine: row[3], firstSeq: row[4], lastSeq: row[5],
            read: row[6], appended: row[7], duplicates: row[8], rejected: row[9], recorded: row[10])
    }

    /// Inserts a batch's row, after its events.
    static func insert(_ record: BatchRecord, in db: Database) throws {
        try db.cachedStatement(sql: "INSERT INTO batches (\(batchColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)").execute(
            arguments: [record.batch, record.source, record.firstLine, record.lastLine, record.firstSeq, record.lastSeq,
                        record.read, record.appended, record.duplicates, record.rejected, record.recorded])
    }
}
