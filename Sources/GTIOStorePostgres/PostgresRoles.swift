/// The roles an operator gives the processes sharing a PostgreSQL store, as SQL to review and
/// run: writers may add to the log but never change it, readers may only read. The tables of the
/// log belong to the role that created the store (the owner): only the owner could drop the
/// append-only triggers, and none of these roles is the owner.
public enum PostgresRoles {
    /// The log's tables: writers insert and read them, nothing else.
    static let logTables = ["events", "event_lists", "event_properties", "batches", "batch_signatures"]
    /// The tables the owner keeps: the log's, and those the writer is granted rights on.
    static let ownersTables = logTables + ["quarantine", "checkpoints", "gtio_migrations"]

    /// The script for `database`, with the roles named `writer` and `reader`.
    public static func script(database: String, writer: String = "gtio_writer", reader: String = "gtio_reader") -> String {
        let log = logTables.joined(separator: ", ")
        return """
            -- GTIO store roles for database \(database). Review, set the passwords, then run as the
            -- store's owner (the role that first opened the store and so created its tables):
            --   psql "postgresql://OWNER@HOST:PORT/\(database)" -f roles.sql
            -- Ingesters, collectors, the projector and moderators connect as \(writer);
            -- analysts, reports and read-only consoles as \(reader).

            -- Roles belong to the whole server: a second store's script keeps those already there.
            DO $$ BEGIN CREATE ROLE \(writer) LOGIN PASSWORD 'change me';
            EXCEPTION WHEN duplicate_object THEN RAISE NOTICE 'role \(writer) exists: kept as it is'; END $$;
            DO $$ BEGIN CREATE ROLE \(reader) LOGIN PASSWORD 'change me';
            EXCEPTION WHEN duplicate_object THEN RAISE NOTICE 'role \(reader) exists: kept as it is'; END $$;
            GRANT CONNECT ON DATABASE \(database) TO \(writer), \(reader);
            GRANT USAGE ON SCHEMA public TO \(writer), \(reader);

            -- The log: appended to, never changed (the triggers refuse UPDATE, DELETE and TRUNCATE
            -- from anyone; without these grants a writer could not even try).
            GRANT SELECT, INSERT ON \(log) TO \(writer);
            -- Quarantine entries are settled (status, seq) when a corrected line is appended.
            GRANT SELECT, INSERT, UPDATE ON quarantine TO \(writer);
            -- Read models: their checkpoints, and the rm_* tables writers create, rewrite and drop
            -- on rebuild (writers own those tables; the log's stay the owner's).
            GRANT SELECT, INSERT, UPDATE, DELETE ON checkpoints TO \(writer);
            GRANT SELECT ON gtio_migrations TO \(writer), \(reader);
            GRANT CREATE ON SCHEMA public TO \(writer);
            -- The tables already there besides the log's (the read models the owner's first
            -- commands wrote, saved insights, access keys) become the writer's, as those it
            -- creates later are: a writer rewrites them, and drops them when their definition
            -- changes. (Giving a table away takes membership in the role that gets it.)
            GRANT \(writer) TO CURRENT_USER;
            DO $$
            DECLARE name text;
            BEGIN
                FOR name IN SELECT tablename FROM pg_tables
                            WHERE schemaname = 'public' AND tablename <> ALL (ARRAY[\(ownersTables.map { "'\($0)'" }.joined(separator: ", "))])
                LOOP
                    EXECUTE format('ALTER TABLE %I OWNER TO %I', name, '\(writer)');
                END LOOP;
            END $$;

            -- Readers read everything, including read-model tables writers create later.
            GRANT SELECT ON ALL TABLES IN SCHEMA public TO \(reader);
            ALTER DEFAULT PRIVILEGES FOR ROLE \(writer) IN SCHEMA public GRANT SELECT ON TABLES TO \(reader);

            -- `gtio verify` holds the log's indexes to its rows where the database has the amcheck
            -- extension, which only a superuser adds (docs/POSTGRESQL.md). To have it, as a superuser:
            --   CREATE EXTENSION IF NOT EXISTS amcheck;
            --   GRANT EXECUTE ON FUNCTION bt_index_check(regclass, boolean) TO \(writer), \(reader);

            """
    }
}
