import Foundation
import GTIOStore

/// The store's tables in PostgreSQL, as numbered migrations recorded in `gtio_migrations`.
/// The same tables and columns as the SQLite store's (docs/STORE.md), with PostgreSQL's types;
/// text compares byte by byte (`COLLATE "C"`), as in SQLite, so that every ordering and every
/// answer is the same on both backends whatever the database's locale.
enum PostgresSchema {
    /// The advisory lock key every transaction that appends takes ("GTIO" in ASCII), and every
    /// `write(LogWriting)`: appends run one at a time across all processes and hosts, so seqs
    /// are given in commit order.
    static let logLock: Int64 = 0x4754_494F
    /// The advisory lock key every transaction that writes the read models' tables or their
    /// checkpoints takes: each checkpoint moves by one writer at a time. Apart from `logLock`, so
    /// that a catch-up writing its rows does not hold up the appends of other writers.
    static let tablesLock: Int64 = 0x4754_494F_54
    /// The first half of the two-key advisory locks that leads take (the second is the role's
    /// hash): a key space apart from the one-key locks above.
    static let leadLock: Int32 = 0x4754_494F
    /// The channel on which every commit that adds events is announced, with its last seq.
    static let logChannel = "gtio_log"
    /// The key migrations take, so that two processes opening a new database create it once.
    static let migrationLock: Int64 = 0x4754_494F_4D

    static let migrations: [(version: Int, name: String, sql: String)] = [
        (1, "event log", """
            -- The log. seq is the gapless position; at and recorded are UTC milliseconds.
            CREATE TABLE events (
                seq      bigint PRIMARY KEY,
                id       text COLLATE "C" NOT NULL UNIQUE,
                type     text COLLATE "C" NOT NULL,
                at       bigint NOT NULL,
                recorded bigint NOT NULL,
                "user"   text COLLATE "C",
                device   text COLLATE "C",
                v        bigint NOT NULL,
                subject  text COLLATE "C",
                object   text COLLATE "C",
                value    text COLLATE "C",
                flag     bigint,
                number   double precision,
                text     text COLLATE "C",
                original text COLLATE "C" NOT NULL,
                batch    bigint NOT NULL,
                hash     bytea NOT NULL CHECK (length(hash) = 32)
            );
            CREATE INDEX events_at ON events (at);
            -- List-valued fields (quickadd.shown suggested), one row per element.
            CREATE TABLE event_lists (
                seq      bigint NOT NULL,
                position bigint NOT NULL,
                "user"   text COLLATE "C" NOT NULL,
                PRIMARY KEY (seq, position)
            );
            -- Every data field no typed column keeps, one row per element.
            CREATE TABLE event_properties (
                seq      bigint NOT NULL,
                name     text COLLATE "C" NOT NULL,
                position bigint NOT NULL,
                text     text COLLATE "C",
                number   double precision,
                PRIMARY KEY (seq, name, position)
            );
            -- One row per committed batch: where its events came from.
            CREATE TABLE batches (
                batch      bigint PRIMARY KEY,
                source     text COLLATE "C" NOT NULL,
                first_line bigint,
                last_line  bigint,
                first_seq  bigint,
                last_seq   bigint,
                read       bigint NOT NULL,
                appended   bigint NOT NULL,
                duplicates bigint NOT NULL,
                rejected   bigint NOT NULL,
                recorded   bigint NOT NULL
            );
            -- One row per batch appended with a signing key.
            CREATE TABLE batch_signatures (
                batch      bigint PRIMARY KEY,
                last_seq   bigint NOT NULL,
                head       bytea NOT NULL,
                record     bytea NOT NULL,
                public_key bytea NOT NULL,
                signature  bytea NOT NULL
            );
            -- Lines that failed validation, verbatim, with where they came from and why.
            CREATE TABLE quarantine (
                entry       bigint PRIMARY KEY,
                source      text COLLATE "C" NOT NULL,
                line        bigint NOT NULL,
                reason      text COLLATE "C" NOT NULL,
                original    bytea NOT NULL,
                fingerprint bigint NOT NULL,
                recorded    bigint NOT NULL,
                status      text COLLATE "C" NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'appended', 'duplicate')),
                seq         bigint,
                settled     bigint,
                UNIQUE (source, line, fingerprint)
            );
            CREATE INDEX quarantine_open ON quarantine (status, source, line);
            -- How far each consumer of the log (read models) has applied it.
            CREATE TABLE checkpoints (
                name    text COLLATE "C" PRIMARY KEY,
                seq     bigint NOT NULL,
                updated bigint NOT NULL
            );

            -- Append-only, whoever connects: no row of the log changes or goes, and no table of
            -- it is emptied. (Only the owner of the tables can drop these triggers; the roles of
            -- `gtio pg roles` do not own them, and the hash chain shows what an owner changed.)
            CREATE FUNCTION gtio_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                RAISE EXCEPTION 'the event log is append-only: % cannot be %', TG_TABLE_NAME,
                    CASE TG_OP WHEN 'UPDATE' THEN 'updated' WHEN 'DELETE' THEN 'deleted' ELSE 'truncated' END
                    USING ERRCODE = 'insufficient_privilege';
            END $$;
            CREATE TRIGGER events_no_change BEFORE UPDATE OR DELETE ON events
                FOR EACH ROW EXECUTE FUNCTION gtio_refuse_change();
            CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
                FOR EACH STATEMENT EXECUTE FUNCTION gtio_refuse_change();
            CREATE TRIGGER event_lists_no_change BEFORE UPDATE OR DELETE ON event_lists
                FOR EACH ROW EXECUTE FUNCTION gtio_refuse_change();
            CREATE TRIGGER event_lists_no_truncate BEFORE TRUNCATE ON event_lists
                FOR EACH STATEMENT EXECUTE FUNCTION gtio_refuse_change();
            CREATE TRIGGER event_properties_no_change BEFORE UPDATE OR DELETE ON event_properties
                FOR EACH ROW EXECUTE FUNCTION gtio_refuse_change();
            CREATE TRIGGER event_properties_no_truncate BEFORE TRUNCATE ON event_properties
                FOR EACH STATEMENT EXECUTE FUNCTION gtio_refuse_change();
            CREATE TRIGGER batches_no_change BEFORE UPDATE OR DELETE ON batches
                FOR EACH ROW EXECUTE FUNCTION gtio_refuse_change();
            CREATE TRIGGER batches_no_truncate BEFORE TRUNCATE ON batches
                FOR EACH STATEMENT EXECUTE FUNCTION gtio_refuse_change();
            CREATE TRIGGER batch_signatures_no_change BEFORE UPDATE OR DELETE ON batch_signatures
                FOR EACH ROW EXECUTE FUNCTION gtio_refuse_change();
            CREATE TRIGGER batch_signatures_no_truncate BEFORE TRUNCATE ON batch_signatures
                FOR EACH STATEMENT EXECUTE FUNCTION gtio_refuse_change();

            -- Gapless: each statement's new events must follow the last committed one without a
            -- hole and leave none after them. One check per statement (its new rows as a table),
            -- not per row: a batch is thousands of rows. Two writers that bypass the append lock
            -- cannot both pass: each sees only committed rows, so the second finds its first
            -- seq not following the log's end, or collides on the primary key.
            CREATE FUNCTION gtio_events_gapless() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE
                first_seq bigint; last_seq bigint; added_count bigint; before_seq bigint;
            BEGIN
                SELECT min(seq), max(seq), count(*) INTO first_seq, last_seq, added_count FROM added;
                IF added_count = 0 THEN RETURN NULL; END IF;
                SELECT COALESCE(max(seq), 0) INTO before_seq FROM events WHERE seq < first_seq;
                IF last_seq - first_seq + 1 <> added_count OR first_seq <> before_seq + 1
                   OR EXISTS (SELECT 1 FROM events WHERE seq > last_seq) THEN
                    RAISE EXCEPTION 'the event log is gapless: events are added at the next seq (% after %)', first_seq, before_seq
                        USING ERRCODE = 'integrity_constraint_violation';
                END IF;
                RETURN NULL;
            END $$;
            CREATE TRIGGER events_gapless AFTER INSERT ON events
                REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION gtio_events_gapless();
            """),
        (2, "word of new events", """
            -- Each statement that adds events tells the listeners of `gtio_log` (the projector) the
            -- last seq it added; the server delivers it when the transaction commits, in commit
            -- order, and never for one rolled back.
            CREATE OR REPLACE FUNCTION gtio_events_gapless() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE
                first_seq bigint; last_seq bigint; added_count bigint; before_seq bigint;
            BEGIN
                SELECT min(seq), max(seq), count(*) INTO first_seq, last_seq, added_count FROM added;
                IF added_count = 0 THEN RETURN NULL; END IF;
                SELECT COALESCE(max(seq), 0) INTO before_seq FROM events WHERE seq < first_seq;
                IF last_seq - first_seq + 1 <> added_count OR first_seq <> before_seq + 1
                   OR EXISTS (SELECT 1 FROM events WHERE seq > last_seq) THEN
                    RAISE EXCEPTION 'the event log is gapless: events are added at the next seq (% after %)', first_seq, before_seq
                        USING ERRCODE = 'integrity_constraint_violation';
                END IF;
                PERFORM pg_notify('\(logChannel)', last_seq::text);
                RETURN NULL;
            END $$;
            """),
        (3, "uncompressed read-model blobs", """
            -- The read models' blobs (the saved fold state, ~16 MB in 8 MB parts at 1 M events) are
            -- packed already: compressing them on each save cost ~135 ms, for a quarter of their
            -- size. Kept out of line, as before, without compression.
            DO $$
            DECLARE blob record;
            BEGIN
                FOR blob IN SELECT table_name, column_name FROM information_schema.columns
                            WHERE table_schema = current_schema() AND table_name LIKE 'rm\\_%' AND data_type = 'bytea' LOOP
                    EXECUTE format('ALTER TABLE %I ALTER COLUMN %I SET STORAGE EXTERNAL', blob.table_name, blob.column_name);
                END LOOP;
            END $$;
            """),
        (4, "gapless check that stays an index lookup", """
            -- The check asked whether any event lay past the new ones with EXISTS (… seq > last).
            -- After five calls in a session PL/pgSQL keeps a generic plan, which for EXISTS is a
            -- scan of the table that stops at the first match: none matches, so every append of
            -- a long-lived writer (the collector, a large ingest) read the whole log. The log's
            -- largest seq, one step down its key, answers the same question under any plan.
            CREATE OR REPLACE FUNCTION gtio_events_gapless() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE
                first_seq bigint; last_seq bigint; added_count bigint; before_seq bigint;
            BEGIN
                SELECT min(seq), max(seq), count(*) INTO first_seq, last_seq, added_count FROM added;
                IF added_count = 0 THEN RETURN NULL; END IF;
                SELECT COALESCE(max(seq), 0) INTO before_seq FROM events WHERE seq < first_seq;
                IF last_seq - first_seq + 1 <> added_count OR first_seq <> before_seq + 1
                   OR (SELECT max(seq) FROM events) > last_seq THEN
                    RAISE EXCEPTION 'the event log is gapless: events are added at the next seq (% after %)', first_seq, before_seq
                        USING ERRCODE = 'integrity_constraint_violation';
                END IF;
                PERFORM pg_notify('\(logChannel)', last_seq::text);
                RETURN NULL;
            END $$;
            """),
        (5, "quarantine entries kept as they came", """
            -- Nothing rejected is ever dropped: an entry stays, with the line and where it came
            -- from as received; only an open entry is settled (its status, seq and time) or given
            -- a new reason when a retry fails again. The writer role may update the quarantine
            -- for that, and for nothing else.
            CREATE FUNCTION gtio_quarantine_kept() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF (NEW.entry, NEW.source, NEW.line, NEW.original, NEW.fingerprint, NEW.recorded)
                       IS DISTINCT FROM (OLD.entry, OLD.source, OLD.line, OLD.original, OLD.fingerprint, OLD.recorded)
                   OR (OLD.status <> 'open' AND (NEW.status, NEW.seq, NEW.settled) IS DISTINCT FROM (OLD.status, OLD.seq, OLD.settled)) THEN
                    RAISE EXCEPTION 'the quarantine keeps every rejected line as it came: only an open entry is settled'
                        USING ERRCODE = 'insufficient_privilege';
                END IF;
                RETURN NEW;
            END $$;
            CREATE TRIGGER quarantine_kept BEFORE UPDATE ON quarantine
                FOR EACH ROW EXECUTE FUNCTION gtio_quarantine_kept();
            CREATE TRIGGER quarantine_no_delete BEFORE DELETE ON quarantine
                FOR EACH ROW EXECUTE FUNCTION gtio_refuse_change();
            CREATE TRIGGER quarantine_no_truncate BEFORE TRUNCATE ON quarantine
                FOR EACH STATEMENT EXECUTE FUNCTION gtio_refuse_change();
            """),
    ]

    /// The version this build writes.
    static var current: Int { migrations.last!.version }

    /// The versions applied so far, nil when the database has no GTIO store.
    ///
    /// One statement, as every process opening the store asks it: a missing table answers nil.
    /// Inside a transaction, only once the table exists (a failed statement would end it).
    static func applied(_ session: PostgresSession) throws -> Int? {
        do {
            return try session.rows("SELECT COALESCE(MAX(version), 0) FROM gtio_migrations").first?.first?.int
        } catch let failure as PostgresFailure where failure.state == undefinedTable {
            return nil
        }
    }

    /// The SQLSTATE of a statement naming a table that does not exist.
    static let undefinedTable = "42P01"

    /// Applies what is missing, each migration in its own transaction, under a lock shared by
    /// every process opening the database.
    static func migrate(_ session: PostgresSession, location: String) throws {
        try session.transaction {
            _ = try session.run("SELECT pg_advisory_xact_lock(\(migrationLock))")
            try session.execute("""
                CREATE TABLE IF NOT EXISTS gtio_migrations (
                    version integer PRIMARY KEY,
                    name    text NOT NULL,
                    applied bigint NOT NULL
                )
                """)
            let done = try applied(session) ?? 0
            if done > current { throw StoreError.newerStore(path: location) }
            for migration in migrations where migration.version > done {
                try session.execute(migration.sql)
                _ = try session.run(
                    "INSERT INTO gtio_migrations (version, name, applied) VALUES (?, ?, ?)",
                    [.integer(Int64(migration.version)), .text(migration.name), .integer(PostgresStore.now())])
            }
        }
    }
}
