import Foundation
import GTIOStore
import GTIOTestSupport
import Testing

/// The log's gapless check, a trigger on every statement that adds events: it refuses a hole
/// whoever inserts, also a writer that skipped the append lock, and costs index lookups however
/// long the session (after five calls PL/pgSQL plans its queries generically, and an
/// `EXISTS (… seq > last)` planned so read the whole log on every append of a long-lived writer).
@Suite(.enabled(if: StoreBackend.postgresServer != nil, "GTIO_TEST_POSTGRES names no server"))
struct PostgresGaplessCheckTests {
    let folder = TemporaryDirectory()

    @Test func appendsOfALongSessionNeverScanTheLog() throws {
        let store = try StoreBackend.postgres.open(in: folder)
        _ = try store.append(batch((1...3_000).map { heart("h\($0)", second: $0 % 60) }))
        let hash = "decode(repeat('00', 32), 'hex')"
        let inserts = (3_001...3_010).map { seq in
            """
            INSERT INTO events (seq, id, type, at, recorded, v, original, batch, hash)
            VALUES (\(seq), 'x\(seq)', 'track', 0, 0, 1, '{}', 2, \(hash))
            """
        }
        // The statements run in one session, whose counts of scans the server keeps until it
        // sends them on (those of earlier statements too): any scan of the log by the ten
        // checks makes the last statement fail.
        let scans = "(SELECT seq_scan FROM pg_stat_xact_user_tables WHERE relname = 'events')"
        try StoreBackend.postgres.tamper(store, sqlite: [], postgres: [
            "ANALYZE events", "CREATE TEMP TABLE scans_before ON COMMIT DROP AS SELECT \(scans) AS n",
        ] + inserts + [
            """
            DO $$ BEGIN
                IF \(scans) > (SELECT n FROM scans_before) THEN
                    RAISE EXCEPTION 'the gapless check scanned the log % times', \(scans) - (SELECT n FROM scans_before);
                END IF;
            END $$
            """,
        ])
        #expect(try store.lastSeq() == 3_010)
    }

    /// An event row inserted by hand at `seq`, as a writer bypassing gtio would.
    func insert(_ seq: Int64) -> String {
        """
        INSERT INTO events (seq, id, type, at, recorded, v, original, batch, hash)
        VALUES (\(seq), 'x\(seq)', 'track', 0, 0, 1, '{}', 9, decode(repeat('00', 32), 'hex'))
        """
    }

    @Test func aHoleOrASeqBeforeTheLogIsRefused() throws {
        let store = try StoreBackend.postgres.open(in: folder)
        _ = try store.append(batch([heart("a"), heart("b"), heart("c")]))
        func refused(_ sql: String, saying words: String) {
            let error = #expect(throws: (any Error).self, "\(sql)") { try StoreBackend.postgres.tamper(store, sqlite: [], postgres: [sql]) }
            #expect(error.map { "\($0)".contains(words) } == true, "\(sql): \(String(describing: error))")
        }
        refused(insert(5), saying: "the event log is gapless")
        refused(insert(0), saying: "the event log is gapless")
        refused(insert(2), saying: "duplicate key")
        refused("UPDATE events SET \"user\" = 'mallory' WHERE seq = 1", saying: "the event log is append-only")
        refused("DELETE FROM events WHERE seq = 3", saying: "the event log is append-only")
        refused("TRUNCATE events CASCADE", saying: "the event log is append-only")
        // The next seq is taken.
        try StoreBackend.postgres.tamper(store, sqlite: [], postgres: [insert(4)])
        #expect(try store.lastSeq() == 4)
        refused(insert(6), saying: "the event log is gapless")
        _ = try store.append(batch([heart("d")]))
        #expect(try store.lastSeq() == 5)
    }

    /// A writer that skipped the append lock, beside one whose events are not committed yet: the
    /// check sees committed rows only, so the seq after the other's is a hole to it, whether the
    /// other then commits or rolls back.
    @Test func aWriterThatSkippedTheLockCannotNumberPastUncommittedEvents() throws {
        let psql = try #require(StoreBackend.psql, "psql plays the first writer")
        let store = try StoreBackend.postgres.open(in: folder)
        _ = try store.append(batch([heart("a"), heart("b")]))
        let location = try StoreBackend.postgres.location(in: folder)
        for (ending, end) in [("ROLLBACK", 2), ("COMMIT", 3)] as [(String, Int64)] {
            // The first writer adds the next seq and holds its transaction open for a while.
            let next = try store.lastSeq() + 1
            let first = Process()
            first.executableURL = URL(fileURLWithPath: psql)
            first.arguments = ["-q", location, "-c", "BEGIN; \(insert(next)); SELECT pg_sleep(2); \(ending);"]
            first.standardOutput = FileHandle.nullDevice
            try first.run()
            // Its insert is in once its transaction holds the log's table for writing (a psql
            // that failed ends, and the test with it, rather than waiting for ever).
            var inserted = false
            while !inserted, first.isRunning {
                inserted = try store.readOnlySQL("""
                    SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
                    WHERE l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                      AND c.relname = 'events' AND l.mode = 'RowExclusiveLock' AND l.pid <> pg_backend_pid()
                    """).rows.first?.first?.int64 == 1
                if !inserted { usleep(20_000) }
            }
            try #require(inserted, "psql ended before its insert was seen")
            let error = #expect(throws: (any Error).self) {
                try StoreBackend.postgres.tamper(store, sqlite: [], postgres: [insert(next + 1)])
            }
            #expect(error.map { "\($0)".contains("the event log is gapless") } == true, "\(String(describing: error))")
            first.waitUntilExit()
            #expect(first.terminationStatus == 0)
            #expect(try store.lastSeq() == end)
        }
        _ = try store.append(batch([heart("c")]))
        #expect(try store.lastSeq() == 4)
    }
}
