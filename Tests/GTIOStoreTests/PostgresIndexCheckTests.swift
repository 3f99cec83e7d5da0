import GTIOStore
import GTIOTestSupport
import Testing

/// `verify` on PostgreSQL holds the log's indexes to its rows through the amcheck extension
/// where the database has it, and says that it did not where not.
@Suite(.enabled(if: StoreBackend.postgresServer != nil, "GTIO_TEST_POSTGRES names no server"))
struct PostgresIndexCheckTests {
    let folder = TemporaryDirectory()

    @Test func withoutAmcheckTheIndexesAreNamedAsNotChecked() throws {
        let store = try StoreBackend.postgres.open(in: folder)
        _ = try store.append(batch([heart("a"), heart("b")]))
        guard case .intact(let events, _, _, let unchecked) = try store.verify() else {
            Issue.record("an untouched log is intact")
            return
        }
        #expect(events == 2)
        #expect(unchecked == [
            "the log's indexes against its rows: this database lacks the amcheck extension (CREATE EXTENSION amcheck; docs/POSTGRESQL.md)",
        ])
    }

    @Test func anEventLostFromTheTimeIndexIsFoundAtItsSeq() throws {
        let store = try StoreBackend.postgres.open(in: folder)
        _ = try store.append(batch([heart("a", second: 1), heart("b", second: 2), heart("c", second: 3)]))
        try StoreBackend.postgres.tamper(store, sqlite: [], postgres: ["CREATE EXTENSION amcheck"])
        guard case .intact(_, _, _, let unchecked) = try store.verify() else { Issue.record("an untouched log is intact"); return }
        #expect(unchecked.isEmpty)

        // The index is kept from taking the row's new versions while seq 2 is changed and put
        // back, as a write to the database's files could leave it: the row, and so the chain,
        // are as appended, but a day's events read through `events_at` no longer hold seq 2.
        let index = "indexrelid = 'events_at'::regclass"
        try StoreBackend.postgres.tamper(store, sqlite: [], postgres: ["UPDATE pg_index SET indisready = false WHERE \(index)"])
        try StoreBackend.postgres.tamper(store, sqlite: [], postgres: [
            "ALTER TABLE events DISABLE TRIGGER USER",
            "UPDATE events SET at = at + 1 WHERE seq = 2",
            "UPDATE events SET at = at - 1 WHERE seq = 2",
            "ALTER TABLE events ENABLE TRIGGER USER",
        ])
        try StoreBackend.postgres.tamper(store, sqlite: [], postgres: ["UPDATE pg_index SET indisready = true WHERE \(index)"])
        guard case .broken(let seq, let problem) = try store.verify() else { Issue.record("the lost entry is found"); return }
        #expect(seq == 2)
        #expect(problem.hasPrefix("index events_at: heap tuple ("), "\(problem)")
        #expect(problem.hasSuffix("""
            lacks matching index tuple within index "events_at" (what is read through it would miss events; \
            REINDEX INDEX events_at, as the tables' owner, makes it again from the rows)
            """), "\(problem)")

        try StoreBackend.postgres.tamper(store, sqlite: [], postgres: ["REINDEX INDEX events_at"])
        guard case .intact(let events, _, _, []) = try store.verify() else { Issue.record("intact once the index is made again"); return }
        #expect(events == 3)
    }
}
