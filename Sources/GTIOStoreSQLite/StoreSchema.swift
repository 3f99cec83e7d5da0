import GRDB
import GTIOCatalog
import GTIOStore

/// The store's tables, as named migrations. Documented for analysts in `docs/STORE.md`.
enum StoreSchema {
    /// `PRAGMA application_id` of a GTIO store ("GTIO" in ASCII), so that any other
    /// SQLite file is recognised as not ours before anything is written to it.
    static let applicationID: Int32 = 0x4754_494F

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1 event log") { db in
            try db.execute(sql: """
                PRAGMA application_id = \(applicationID);

                -- The log. seq is the gapless position; at and recorded are UTC milliseconds.
                CREATE TABLE events (
                    seq      INTEGER PRIMARY KEY,
                    id       TEXT    NOT NULL,
                    type     TEXT    NOT NULL,
                    at       INTEGER NOT NULL,
                    recorded INTEGER NOT NULL,
                    user     TEXT,
                    device   TEXT,
                    v        INTEGER NOT NULL,
                    subject  TEXT,
                    object   TEXT,
                    value    TEXT,
                    flag     INTEGER,
                    number   REAL,
                    text     TEXT,
                    original TEXT    NOT NULL,
                    batch    INTEGER NOT NULL
                );
                -- List-valued fields (quickadd.shown suggested), one row per element.
                CREATE TABLE event_lists (
                    seq      INTEGER NOT NULL,
                    position INTEGER NOT NULL,
                    user     TEXT    NOT NULL,
                    PRIMARY KEY (seq, position)
                ) WITHOUT ROWID;
                -- Every producer id in the log, for exact dedup. Kept apart from events so that
                -- each batch inserts its ids in sorted order (see SQLiteStore.append).
                CREATE TABLE event_ids (id TEXT PRIMARY KEY) WITHOUT ROWID;
                -- One row per committed ingest batch: where the events came from.
                CREATE TABLE batches (
                    batch      INTEGER PRIMARY KEY,
                    source     TEXT    NOT NULL,
                    first_line INTEGER,
                    last_line  INTEGER,
                    first_seq  INTEGER,
                    last_seq   INTEGER,
                    read       INTEGER NOT NULL,
                    appended   INTEGER NOT NULL,
                    duplicates INTEGER NOT NULL,
                    rejected   INTEGER NOT NULL,
                    recorded   INTEGER NOT NULL
                );

                CREATE TRIGGER events_no_update BEFORE UPDATE ON events
                BEGIN SELECT RAISE(ABORT, 'the event log is append-only: events cannot be updated'); END;
                CREATE TRIGGER events_no_delete BEFORE DELETE ON events
                BEGIN SELECT RAISE(ABORT, 'the event log is append-only: events cannot be deleted'); END;
                CREATE TRIGGER events_gapless BEFORE INSERT ON events
                WHEN NEW.seq IS NOT (SELECT IFNULL(MAX(seq), 0) + 1 FROM events)
                BEGIN SELECT RAISE(ABORT, 'the event log is gapless: seq must be the last seq + 1'); END;
                CREATE TRIGGER event_lists_no_update BEFORE UPDATE ON event_lists
                BEGIN SELECT RAISE(ABORT, 'the event log is append-only: event_lists cannot be updated'); END;
                CREATE TRIGGER event_lists_no_delete BEFORE DELETE ON event_lists
                BEGIN SELECT RAISE(ABORT, 'the event log is append-only: event_lists cannot be deleted'); END;
                CREATE TRIGGER event_ids_no_update BEFORE UPDATE ON event_ids
                BEGIN SELECT RAISE(ABORT, 'the event log is append-only: event_ids cannot be updated'); END;
                CREATE TRIGGER event_ids_no_delete BEFORE DELETE ON event_ids
                BEGIN SELECT RAISE(ABORT, 'the event log is append-only: event_ids cannot be deleted'); END;
                CREATE TRIGGER batches_no_update BEFORE UPDATE ON batches
                BEGIN SELECT RAISE(ABORT, 'the event log is append-only: batches cannot be updated'); END;
                CREATE TRIGGER batches_no_delete BEFORE DELETE ON batches
                BEGIN SELECT RAISE(ABORT, 'the event log is append-only: batches cannot be deleted'); END;

                -- Lines that failed validation, verbatim, with where they came from and why.
                CREATE TABLE quarantine (
                    entry       INTEGER PRIMARY KEY,
                    source      TEXT    NOT NULL,
                    line        INTEGER NOT NULL,
                    reason      TEXT    NOT NULL,
                    original    BLOB    NOT NULL,
                    fingerprint INTEGER NOT NULL,
                    recorded    INTEGER NOT NULL,
                    status      TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'appended', 'duplicate')),
                    seq         INTEGER,
                    settled     INTEGER,
                    UNIQUE (source, line, fingerprint)
                );
                CREATE INDEX quarantine_open ON quarantine (status, source, line);

                -- How far each consumer of the log (read models) has applied it.
                CREATE TABLE checkpoints (
                    name    TEXT PRIMARY KEY,
                    seq     INTEGER NOT NULL,
                    updated INTEGER NOT NULL
                );
                """)
        }
        migrator.registerMigration("v2 hash chain") { db in
            // Each event's link in the hash chain (see EventHashChain), kept in its own row so
            // that appending costs no second insert. Stores from before the chain get their
            // hashes here, the one time the append-only trigger is lifted, inside this migration's
            // transaction; nothing else in `events` changes.
            try db.execute(sql: """
                ALTER TABLE events ADD COLUMN hash BLOB;
                DROP TRIGGER events_no_update;
                """)
            let update = SQLiteStatementBinding(try db.makeStatement(sql: "UPDATE events SET hash = ? WHERE seq = ?"))
            var hashes: [(Int64, [UInt8])] = []
            try SQLiteStore.chainStoredEvents(after: 0, from: EventHashChain.genesis, in: db) { seq, hash, _ in
                hashes.append((seq, hash))
                return true
            }
            for (seq, hash) in hashes {
                update.bind(1, hash)
                update.bind(2, seq)
                try update.step(db)
            }
            try db.execute(sql: """
                CREATE TRIGGER events_no_update BEFORE UPDATE ON events
                BEGIN SELECT RAISE(ABORT, 'the event log is append-only: events cannot be updated'); END;
                """)
        }
        migrator.registerMigration("v3 gapless check on explicit seq only") { db in
            // The log appends with seq NULL, so SQLite itself assigns max + 1 (gapless, as no
            // delete is allowed). A MAX(seq) subquery on every append slowed ingest noticeably
            // (docs/PERFORMANCE.md); now only an explicitly given seq is checked. An auto-assigned rowid reads as -1 in a BEFORE trigger: were that to
            // change, every append would be refused, loudly, rather than gaps allowed.
            try db.execute(sql: """
                DROP TRIGGER events_gapless;
                CREATE TRIGGER events_gapless BEFORE INSERT ON events
                WHEN NEW.seq IS NOT -1 AND NEW.seq IS NOT (SELECT IFNULL(MAX(seq), 0) + 1 FROM events)
                BEGIN SELECT RAISE(ABORT, 'the event log is gapless: seq must be the last seq + 1'); END;
                """)
        }
        migrator.registerMigration("v4 signed heads and stricter triggers") { db in
            // Signed heads: one row per batch appended with a signing key (see BatchSigner).
            // The triggers below keep plain SQL from adding to the log except the way the
            // append path does: events of the next batch with a hash, then that batch's row,
            // then its signature; REPLACE, which deletes without firing delete triggers, is
            // refused by the same checks, since it can only name a row that exists.
            try db.execute(sql: """
                CREATE TABLE batch_signatures (
                    batch      INTEGER PRIMARY KEY,
                    last_seq   INTEGER NOT NULL,
                    head       BLOB    NOT NULL,
                    record     BLOB    NOT NULL,
                    public_key BLOB    NOT NULL,
                    signature  BLOB    NOT NULL
                );
                CREATE TRIGGER batch_signatures_no_update BEFORE UPDATE ON batch_signatures
                BEGIN SELECT RAISE(ABORT, 'the event log is append-only: batch_signatures cannot be updated'); END;
                CREATE TRIGGER batch_signatures_no_delete BEFORE DELETE ON batch_signatures
                BEGIN SELECT RAISE(ABORT, 'the event log is append-only: batch_signatures cannot be deleted'); END;
                CREATE TRIGGER batch_signatures_append BEFORE INSERT ON batch_signatures
                WHEN NEW.batch IS NOT (SELECT MAX(batch) FROM batches)
                  OR EXISTS (SELECT 1 FROM batch_signatures WHERE batch = NEW.batch)
                BEGIN SELECT RAISE(ABORT, 'the event log is append-only: a signature is added only for the batch just appended'); END;

                -- One trigger for every check on an appended event: each trigger program SQLite
                -- runs per row costs, and ingest appends a million rows a second.
                DROP TRIGGER events_gapless;
                CREATE TRIGGER events_append BEFORE INSERT ON events
                WHEN (NEW.seq IS NOT -1 AND NEW.seq IS NOT (SELECT IFNULL(MAX(seq), 0) + 1 FROM events))
                  OR NEW.hash IS NULL OR length(NEW.hash) != 32
                  OR NEW.batch IS NOT (SELECT IFNULL(MAX(batch), 0) + 1 FROM batches)
                BEGIN SELECT RAISE(ABORT, 'the event log is append-only: events are added at the next seq, with their hash, in the batch being appended'); END;

                CREATE TRIGGER batches_append BEFORE INSERT ON batches
                WHEN NEW.batch IS NOT (SELECT IFNULL(MAX(batch), 0) + 1 FROM batches)
                  OR NEW.appended != IFNULL(NEW.last_seq - NEW.first_seq + 1, 0)
                  OR (NEW.appended > 0 AND NEW.last_seq IS NOT (SELECT MAX(seq) FROM events))
                BEGIN SELECT RAISE(ABORT, 'the event log is append-only: batches are added once, numbered in order, after their events'); END;

                CREATE TRIGGER event_lists_append BEFORE INSERT ON event_lists
                WHEN NEW.seq IS NOT (SELECT MAX(seq) FROM events)
                  OR EXISTS (SELECT 1 FROM event_lists WHERE seq = NEW.seq AND position = NEW.position)
                BEGIN SELECT RAISE(ABORT, 'the event log is append-only: list items are added with their event'); END;
                """)
        }
        migrator.registerMigration("v5 event properties") { db in
            // Every `data` field no typed column keeps (a post's brands and place, a track's
            // props, a profile's bio …), one row per element, written by the append path beside
            // the event, so that no reader parses the stored JSON. They derive from `original`,
            // which the hash chain covers. Events appended before this table get theirs here,
            // from their originals, the one time. Insights read the log by time: an index on
            // `at` alone, as appends come in nearly increasing `at` (v8 replaced it).
            try db.execute(sql: """
                CREATE TABLE event_properties (
                    seq      INTEGER NOT NULL,
                    name     TEXT    NOT NULL,
                    position INTEGER NOT NULL,
                    text     TEXT,
                    number   REAL,
                    PRIMARY KEY (seq, name, position)
                ) WITHOUT ROWID;
                CREATE INDEX events_at ON events (at);
                """)
            let insert = SQLiteStatementBinding(try db.makeStatement(sql: EventInserter.insertPropertySQL))
            let types = EventType.allCases.filter { $0.columns.contains(.properties) }.map { "'\($0.rawValue)'" }
            let rows = try Row.fetchCursor(
                db, sql: "SELECT seq, original FROM events WHERE type IN (\(types.joined(separator: ","))) ORDER BY seq")
            while let row = try rows.next() {
                let seq: Int64 = row[0]
                guard case .success(let event) = EventValidator.validate(row[1] as String) else { continue }
                try EventInserter.insert(event.properties, of: seq, with: insert, in: db)
            }
            try db.execute(sql: """
                CREATE TRIGGER event_properties_no_update BEFORE UPDATE ON event_properties
                BEGIN SELECT RAISE(ABORT, 'the event log is append-only: event_properties cannot be updated'); END;
                CREATE TRIGGER event_properties_no_delete BEFORE DELETE ON event_properties
                BEGIN SELECT RAISE(ABORT, 'the event log is append-only: event_properties cannot be deleted'); END;
                CREATE TRIGGER event_properties_append BEFORE INSERT ON event_properties
                WHEN NEW.seq IS NOT (SELECT MAX(seq) FROM events)
                  OR EXISTS (SELECT 1 FROM event_properties WHERE seq = NEW.seq AND name = NEW.name AND position = NEW.position)
                BEGIN SELECT RAISE(ABORT, 'the event log is append-only: properties are added with their event'); END;
                """)
        }
        migrator.registerMigration("v6 event days") { db in
            // The first and last seq of each UTC day's events: where a scan of a time window
            // begins and ends. Without it, finding the first seq of the last 30 days walked
            // every entry of the index on `at` in them (0.4 s on a 20 M-event log), as late
            // events break the order of `at` against seq. The append path keeps it in the
            // batch's transaction; it derives from the events, and `gtio verify` checks it.
            try db.execute(sql: """
                CREATE TABLE event_days (
                    day       INTEGER PRIMARY KEY,
                    first_seq INTEGER NOT NULL,
                    last_seq  INTEGER NOT NULL
                );
                """)
            // Filled by v10, which makes the table again with each day's times.
        }
        migrator.registerMigration("v7 tables in a file of their own") { db in
            // `TablesFile.moveLegacyTables` has copied them into `STORE-tables` already, under
            // the opening lock, before this migration runs.
            let moved = try String.fetchAll(db, sql: """
                SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
                """).filter { !TablesFile.logTables.contains($0) }
            for name in moved { try db.execute(sql: "DROP TABLE main.\(name)") }
            // Which log this is, for the tables file to tell its own log from another.
            try db.execute(sql: """
                CREATE TABLE log_identity (id TEXT NOT NULL);
                INSERT INTO log_identity (id) VALUES (lower(hex(randomblob(16))));
                CREATE TRIGGER log_identity_no_update BEFORE UPDATE ON log_identity
                BEGIN SELECT RAISE(ABORT, 'the event log is append-only: log_identity cannot be updated'); END;
                CREATE TRIGGER log_identity_no_delete BEFORE DELETE ON log_identity
                BEGIN SELECT RAISE(ABORT, 'the event log is append-only: log_identity cannot be deleted'); END;
                CREATE TRIGGER log_identity_once BEFORE INSERT ON log_identity
                BEGIN SELECT RAISE(ABORT, 'the log''s identity is written once, when the log is created'); END;
                """)
        }
        migrator.registerMigration("v8 narrow index for scans of a window") { db in
            // The columns an insight reads from most events (its type, time, actor and the
            // `value` column that keeps a screen's name or a sign-up's provider), in seq order:
            // a window's scan reads this index instead of the rows, which carry the stored line
            // and are ~6 times wider. Appends add at its end, as for the `seq` key itself.
            // The index on `at` goes: the log's first and last times are found from
            // `event_days` and this index (`EventDays.timeExtent`), and every append paid for it.
            try db.execute(sql: """
                CREATE INDEX \(SQLiteStore.windowIndex) ON events (seq, type, at, user, device, value);
                DROP INDEX IF EXISTS events_at;
                """)
        }
        migrator.registerMigration("v9 dedup index filled in sorted runs") { db in
            // `event_ids` holds every id through this seq; the ids after it are the newest
            // events' own, moved into `event_ids` in sorted runs (`RecentIDs`). A store from
            // before holds them all. The mark only moves forward, and never past the log's end.
            try db.execute(sql: """
                CREATE TABLE event_ids_through (seq INTEGER NOT NULL);
                INSERT INTO event_ids_through SELECT IFNULL(MAX(seq), 0) FROM events;
                CREATE TRIGGER event_ids_through_one_row BEFORE INSERT ON event_ids_through
                BEGIN SELECT RAISE(ABORT, 'event_ids_through has one row, made with the log'); END;
                CREATE TRIGGER event_ids_through_kept BEFORE DELETE ON event_ids_through
                BEGIN SELECT RAISE(ABORT, 'event_ids_through cannot be deleted'); END;
                CREATE TRIGGER event_ids_through_forward BEFORE UPDATE ON event_ids_through
                WHEN NEW.seq < OLD.seq OR NEW.seq > (SELECT IFNULL(MAX(seq), 0) FROM events)
                BEGIN SELECT RAISE(ABORT, 'event_ids_through only moves forward, and never past the log''s end'); END;
                """)
        }
        migrator.registerMigration("v10 each day's earliest and latest time") { db in
            // The log's first and last times (`status`, every insight's "now") come from the
            // days' rows rather than from a search of a whole day's entries of the window index
            // (`EventDays.timeExtent`). Made from the events once, as v6 was: a scan of that index.
            try db.execute(sql: """
                DROP TABLE event_days;
                CREATE TABLE event_days (
                    day       INTEGER PRIMARY KEY,
                    first_seq INTEGER NOT NULL,
                    last_seq  INTEGER NOT NULL,
                    first_at  INTEGER NOT NULL,
                    last_at   INTEGER NOT NULL
                );
                """)
            try EventDays.ofLog(in: db).record(in: db)
        }
        migrator.registerMigration("v11 quarantine entries kept as they came") { db in
            // Nothing rejected is ever dropped: an entry stays, with the line and where it came
            // from as received; only an open entry is settled (its status, seq and time) or
            // given a new reason when a retry fails again.
            try db.execute(sql: """
                CREATE TRIGGER quarantine_no_delete BEFORE DELETE ON quarantine
                BEGIN SELECT RAISE(ABORT, 'the quarantine keeps every rejected line: entries cannot be deleted'); END;
                CREATE TRIGGER quarantine_kept BEFORE UPDATE ON quarantine
                WHEN NEW.entry IS NOT OLD.entry OR NEW.source IS NOT OLD.source OR NEW.line IS NOT OLD.line
                  OR NEW.original IS NOT OLD.original OR NEW.fingerprint IS NOT OLD.fingerprint OR NEW.recorded IS NOT OLD.recorded
                  OR (OLD.status != 'open' AND (NEW.status IS NOT OLD.status OR NEW.seq IS NOT OLD.seq OR NEW.settled IS NOT OLD.settled))
                BEGIN SELECT RAISE(ABORT, 'the quarantine keeps every rejected line as it came: only an open entry is settled'); END;
                """)
        }
        return migrator
    }
}
