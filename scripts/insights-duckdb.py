#!/usr/bin/env python3
"""The six insight questions of the benchmark, asked of DuckDB straight from the JSON Lines file.

The yardstick for `gtio`'s insights (docs/PERFORMANCE.md, "Insights"): the same question, the
same 30-day window, answered by DuckDB reading the demo file itself, as an analyst without the
console would. Each question is one SQL statement over `read_json`, so every run parses the file
again, which is what answering "from the JSON Lines file" costs.

Usage:
  scripts/insights-duckdb.py FILE.jsonl FROM TO [QUESTION] [--runs N] [--show]
FROM and TO are the window's UTC dates (inclusive); QUESTION one of the names below (all when
left out). Prints the median wall time of N runs (default 3) of each question, in process, after
DuckDB is imported (so the Python and DuckDB start-up is not counted), a new connection each run. --show prints the
answer's first rows, to hold it against gtio's.

Needs `pip install duckdb`.
"""
import statistics
import sys
import time

import duckdb

# The log's events: the envelope, `data` as JSON, and the line number as `seq` (the demo file
# is in seq order), each id once, as the log keeps it. Timestamps are UTC. Lines the log would
# quarantine as invalid still count here (the demo file has none).
EVENTS = """
    SELECT id, type, CAST("at" AS TIMESTAMPTZ) AS ts, "user", device, data, seq
    FROM (SELECT *, row_number() OVER () AS seq
          FROM read_json('{file}', format = 'newline_delimited', ignore_errors = true,
                         columns = {{'id': 'VARCHAR', 'type': 'VARCHAR', 'at': 'VARCHAR', 'user': 'VARCHAR',
                                     'device': 'VARCHAR', 'data': 'JSON'}}))
    -- A resent event counts once, as in the log (the first one is kept).
    QUALIFY row_number() OVER (PARTITION BY id ORDER BY seq) = 1
"""

# The window, both ends inclusive to the millisecond.
WINDOW = "ts >= TIMESTAMPTZ '{start} 00:00:00Z' AND ts < TIMESTAMPTZ '{end} 00:00:00Z' + INTERVAL 1 DAY"

QUESTIONS = {
    # trend track --by name --interval week: events per ISO week (labelled by its Monday) and
    # screen name, the 10 names with most events kept and the rest summed into (other).
    "trend track --by name --interval week": """
        WITH ev AS ({events}),
        e AS (SELECT CAST(date_trunc('week', ts) AS DATE) AS bucket, coalesce(data->>'name', '(none)') AS grp
              FROM ev WHERE type = 'track' AND {window}),
        kept AS (SELECT grp FROM e GROUP BY grp ORDER BY count(*) DESC, grp LIMIT 10)
        SELECT bucket, CASE WHEN grp IN (SELECT grp FROM kept) THEN grp ELSE '(other)' END AS "group", count(*) AS value
        FROM e GROUP BY ALL ORDER BY bucket, value DESC, "group"
    """,
    # trend post.hearted --measure users: distinct users who hearted, per day.
    "trend post.hearted --measure users": """
        WITH ev AS ({events})
        SELECT CAST(ts AS DATE) AS bucket, 'all' AS "group", count(DISTINCT "user") AS value
        FROM ev WHERE type = 'post.hearted' AND "user" IS NOT NULL AND {window}
        GROUP BY bucket ORDER BY bucket
    """,
    # breakdown post.created --by brands: posts per brand (each brand of a post once, none as
    # (none)), share of all, the top 20 and (other).
    "breakdown post.created --by brands": """
        WITH ev AS ({events}),
        e AS (SELECT list_distinct(coalesce(CAST(data->'brands' AS VARCHAR[]), [])) AS brands
              FROM ev WHERE type = 'post.created' AND {window}),
        g AS (SELECT unnest(CASE WHEN len(brands) = 0 THEN ['(none)'] ELSE brands END) AS grp FROM e),
        counted AS (SELECT grp, count(*) AS value FROM g GROUP BY grp),
        ranked AS (SELECT *, row_number() OVER (ORDER BY value DESC, grp) AS rank FROM counted)
        SELECT CASE WHEN rank <= 20 THEN grp ELSE '(other)' END AS "group", sum(value) AS value,
               sum(value) / (SELECT sum(value) FROM counted) AS share
        FROM ranked GROUP BY 1 ORDER BY ("group" = '(other)'), value DESC, "group"
    """,
    # funnel app.opened user.signed_up user.profile_completed --within 7d: each user's first
    # app.opened in the window, then the first sign-up after it, then the first profile completed
    # after that, both within 7 days of the entry; users and median hours per step.
    "funnel app.opened user.signed_up user.profile_completed --within 7d": """
        WITH ev AS ({events}),
        s1 AS (SELECT "user", min({{'ts': ts, 'seq': seq}}) AS p FROM ev
               WHERE type = 'app.opened' AND "user" IS NOT NULL AND {window} GROUP BY "user"),
        s2 AS (SELECT s1."user", s1.p AS entry, min({{'ts': e.ts, 'seq': e.seq}}) AS p
               FROM s1 JOIN ev e ON e."user" = s1."user" AND e.type = 'user.signed_up'
                 AND {{'ts': e.ts, 'seq': e.seq}} > s1.p AND e.ts <= s1.p.ts + INTERVAL 7 DAY
               GROUP BY ALL),
        s3 AS (SELECT s2."user", s2.p AS before, min({{'ts': e.ts, 'seq': e.seq}}) AS p
               FROM s2 JOIN ev e ON e."user" = s2."user" AND e.type = 'user.profile_completed'
                 AND {{'ts': e.ts, 'seq': e.seq}} > s2.p AND e.ts <= s2.entry.ts + INTERVAL 7 DAY
               GROUP BY ALL)
        SELECT 1 AS step, count(*) AS actors, NULL AS median_hours FROM s1
        UNION ALL SELECT 2, count(*), median(epoch(p.ts - entry.ts) / 3600) FROM s2
        UNION ALL SELECT 3, count(*), median(epoch(p.ts - before.ts) / 3600) FROM s3
        ORDER BY step
    """,
    # retention --start user.signed_up --return * --interval week: cohorts by the ISO week of each
    # user's first sign-up in the window; retained in week k (1-4) with any event in that week.
    "retention --start user.signed_up --return * --interval week": """
        WITH ev AS ({events}),
        c AS (SELECT "user", date_trunc('week', min(ts)) AS cohort FROM ev
              WHERE type = 'user.signed_up' AND "user" IS NOT NULL AND {window} GROUP BY "user"),
        sizes AS (SELECT cohort, count(*) AS size FROM c GROUP BY cohort),
        r AS (SELECT DISTINCT c."user", c.cohort, datediff('week', c.cohort, date_trunc('week', e.ts)) AS period
              FROM c JOIN ev e ON e."user" = c."user"
              WHERE e.ts >= c.cohort + INTERVAL 7 DAY AND e.ts < c.cohort + INTERVAL 35 DAY),
        periods AS (SELECT s.cohort, s.size, k AS period FROM sizes s, range(1, 5) t(k))
        SELECT CAST(p.cohort AS DATE) AS cohort, p.size, p.period, count(r."user") AS retained, count(r."user") / p.size AS share
        FROM periods p LEFT JOIN r ON r.cohort = p.cohort AND r.period = p.period
        GROUP BY p.cohort, p.size, p.period ORDER BY cohort, period
    """,
    # paths --depth 4: each user's track events in the window, sessions cut at gaps over 30
    # minutes, a repeated name skipped; each session's first 4 names as a path; the 10 commonest
    # transitions of each step, with their paths and distinct users.
    "paths --depth 4": """
        WITH ev AS ({events}),
        t AS (SELECT "user", ts, seq, coalesce(data->>'name', '(none)') AS name FROM ev
              WHERE type = 'track' AND "user" IS NOT NULL AND {window}),
        g AS (SELECT *, CASE WHEN lag(ts) OVER w IS NULL OR ts - lag(ts) OVER w > INTERVAL 30 MINUTE THEN 1 ELSE 0 END AS cut,
                        lag(name) OVER w AS previous
              FROM t WINDOW w AS (PARTITION BY "user" ORDER BY ts, seq)),
        s AS (SELECT *, sum(cut) OVER (PARTITION BY "user" ORDER BY ts, seq) AS session FROM g),
        k AS (SELECT "user", session, name, row_number() OVER (PARTITION BY "user", session ORDER BY ts, seq) AS position
              FROM s WHERE cut = 1 OR previous IS DISTINCT FROM name),
        steps AS (SELECT a.position AS step, a.name AS "from", b.name AS "to", a."user"
                  FROM k a JOIN k b ON a."user" = b."user" AND a.session = b.session AND b.position = a.position + 1
                  WHERE a.position < 4)
        SELECT step, "from", "to", count(DISTINCT "user") AS actors, count(*) AS paths FROM steps GROUP BY step, "from", "to"
        QUALIFY row_number() OVER (PARTITION BY step ORDER BY count(*) DESC, "from", "to") <= 10
        ORDER BY step, paths DESC, "from", "to"
    """,
}


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    runs = int(argv[argv.index("--runs") + 1]) if "--runs" in argv else 3
    if "--runs" in argv:
        args.remove(str(runs))
    if len(args) < 3:
        sys.exit(__doc__)
    file, start, end = args[:3]
    names = [args[3]] if len(args) > 3 else list(QUESTIONS)
    for name in names:
        if name not in QUESTIONS:
            sys.exit(f"unknown question {name!r}; known: {', '.join(QUESTIONS)}")
    for name in names:
        sql = QUESTIONS[name].format(events=EVENTS.format(file=file), window=WINDOW.format(start=start, end=end))
        walls = []
        for _ in range(runs):
            # A connection per run, like a one-shot query: DuckDB keeps what it read of a file
            # for the connection's later queries.
            started = time.perf_counter()
            connection = duckdb.connect()
            connection.execute("SET TimeZone = 'UTC'")
            rows = connection.execute(sql).fetchall()
            connection.close()
            walls.append(time.perf_counter() - started)
        print(f"duckdb  {name:<62} median {statistics.median(walls) * 1000:7.0f} ms of {runs} ({len(rows)} rows)")
        if "--show" in argv:
            for row in rows[:8]:
                print("       ", row)


if __name__ == "__main__":
    main(sys.argv[1:])
