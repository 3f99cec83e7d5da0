import GTIOStore
import GTIOTestSupport
import Testing
@testable import GTIOStorePostgres

/// What only PostgreSQL's guards have: functions that triggers call, and triggers that can be
/// disabled without being dropped.
@Suite struct PostgresGuardTests {
    let folder = TemporaryDirectory()

    @Test func theGuardsAreReadFromTheMigrations() {
        let made = PostgresStore.madeGuards
        // No change and no TRUNCATE on each of the five tables of the log, the gapless check,
        // and the quarantine's three.
        #expect(made.triggers.count == 14)
        #expect(made.triggers["quarantine_kept"]?.function == "gtio_quarantine_kept")
        #expect(made.triggers["events_no_change"]?.type == 1 | 2 | 8 | 16)
        #expect(made.triggers["batches_no_truncate"]?.type == 2 | 32)
        #expect(made.triggers["events_gapless"]?.type == 4)
        #expect(made.triggers["events_gapless"]?.function == "gtio_events_gapless")
        #expect(Set(made.functions.keys) == ["gtio_refuse_change", "gtio_events_gapless", "gtio_quarantine_kept"])
        // The latest definition of the check: the one that announces new events.
        #expect(made.functions["gtio_events_gapless"]?.body.contains("pg_notify('gtio_log', last_seq::text)") == true)
        #expect(made.functions["gtio_events_gapless"]?.body.contains("(SELECT max(seq) FROM events) > last_seq") == true)
        #expect(made.functions["gtio_refuse_change"]?.statement.hasPrefix("CREATE OR REPLACE FUNCTION gtio_refuse_change()") == true)
    }

    @Test(.enabled(if: StoreBackend.postgresServer != nil, "GTIO_TEST_POSTGRES names no server"))
    func aFunctionEmptiedAndATriggerRedefinedAreFoundAndMadeAgain() throws {
        let store = try StoreBackend.postgres.open(in: folder)
        _ = try store.append(batch([heart("a")]))
        try StoreBackend.postgres.tamper(store, sqlite: [], postgres: [
            "CREATE OR REPLACE FUNCTION gtio_events_gapless() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$",
            "DROP TRIGGER batches_no_change ON batches",
            "CREATE TRIGGER batches_no_change BEFORE UPDATE ON batches FOR EACH ROW EXECUTE FUNCTION gtio_refuse_change()",
            "DROP TRIGGER event_lists_no_truncate ON event_lists",
        ])
        let expected = [
            LogGuardFinding(name: "batches_no_change", table: "batches", problem: .changed, refuses: "UPDATE and DELETE"),
            LogGuardFinding(name: "event_lists_no_truncate", table: "event_lists", problem: .missing, refuses: "TRUNCATE"),
            LogGuardFinding(name: "events_gapless", table: "events", problem: .functionChanged("gtio_events_gapless"),
                            refuses: "new events that leave a gap in seq"),
        ]
        #expect(try store.guardFindings() == expected)
        #expect(expected[2].description == """
            the trigger events_gapless on events calls gtio_events_gapless(), which is not as gtio makes it \
            (it refuses: new events that leave a gap in seq)
            """)
        #expect(try store.restoreGuards() == expected)
        #expect(try store.guardFindings() == [])
        // The check is back: an event past a hole is refused.
        #expect {
            try StoreBackend.postgres.tamper(store, sqlite: [], postgres: [
                "INSERT INTO events SELECT seq + 5, id || 'x', type, at, recorded, \"user\", device, v, subject, object, value, flag, number, text, original, batch, hash FROM events WHERE seq = 1",
            ])
        } throws: { "\($0)".contains("the event log is gapless: events are added at the next seq (6 after 1)") }
        _ = try store.append(batch([heart("b")]))
        #expect(try store.lastSeq() == 2)
    }
}
