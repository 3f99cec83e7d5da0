import Foundation
import GTIOStore
import GTIOTestSupport
import Testing

/// The log's gapless check, a trigger on every statement that adds events, costs index lookups
/// however long the session: after five calls PL/pgSQL plans its queries generically, and an
/// `EXISTS (… seq > last)` planned so read the whole log on every append of a long-lived writer.
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
}
