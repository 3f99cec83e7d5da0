#!/usr/bin/env bash
# One-shot query benchmark (issue: read models in the store). Release build, a store of N demo
# events (default 1,000,000) less the last 1,000, read models up to date. Prints, for each
# one-shot command, the wall time per process (p50 and p90 of RUNS runs, process start
# included) and its peak RSS; then the REPL's first answer, ingest of the last 1,000 events
# with their read models, a moderation decision, an as-of query at the log's midpoint, and the
# log listed: five events of its last day, and the whole of it as CSV.
# Usage: scripts/bench-queries.sh [EVENTS] [WORK_FOLDER]  (a folder kept from an earlier run is
# reused, so that a 20 M-event store is made once: scripts/bench-queries.sh 20000000 /tmp/q20)
set -euo pipefail
cd "$(dirname "$0")/.."
events=${1:-1000000}
work=${2:-}
if [ -z "$work" ]; then work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi
mkdir -p "$work"
runs=${RUNS:-21}

swift build -c release --product gtio >/dev/null
gtio=$PWD/.build/release/gtio
store=$work/bench.gtio
if [ ! -f "$store" ]; then
  "$gtio" demo --events "$events" --seed 42 --out "$work/demo.jsonl"
  head -n -1000 "$work/demo.jsonl" > "$work/head.jsonl"
  tail -n 1000 "$work/demo.jsonl" > "$work/tail.jsonl"
  rm "$work/demo.jsonl"
  "$gtio" ingest "$work/head.jsonl" --store "$store" --quiet
  cp "$store" "$work/pristine.gtio"; cp "$store-tables" "$work/pristine.gtio-tables"
else
  # Back to the store (the log's file and the tables') before the last run's ingest and decision.
  cp "$work/pristine.gtio" "$store"; rm -f "$store-wal" "$store-shm" "$store-tables"*
  if [ -f "$work/pristine.gtio-tables" ]; then cp "$work/pristine.gtio-tables" "$store-tables"; fi
fi
export GTIO_STORE=$store
user=$(sqlite3 -readonly "$store-tables" "SELECT target FROM rm_follows WHERE state = 'following' GROUP BY target ORDER BY COUNT(*) DESC LIMIT 1")
post=$(sqlite3 -readonly "$store-tables" "SELECT post FROM rm_verdicts ORDER BY wear_it + change_it DESC LIMIT 1")
item=$(sqlite3 -readonly "$store-tables" "SELECT item FROM rm_flags ORDER BY flaggers DESC LIMIT 1")
last=$(sqlite3 -readonly "$store" "SELECT MAX(seq) FROM events")
echo "store: $last events ($events demo events less the last 1,000); $runs runs of each, process start included"

python3 - "$gtio" "$runs" "$user" "$post" "$item" "$last" "$work" <<'PY'
import os, subprocess, sys, time
gtio, runs, user, post, item, last, work = sys.argv[1], int(sys.argv[2]), *sys.argv[3:]

def once(args, stdin=None):
    """Wall seconds of one whole process, from its start to its exit."""
    started = time.perf_counter()
    result = subprocess.run([gtio] + args, input=stdin.encode() if stdin else None,
                            stdin=None if stdin else subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - started
    if result.returncode != 0:
        sys.exit(f"{' '.join(args)} failed: {result.stderr.decode()}")
    return wall

def measure(name, args, stdin=None, repeat=runs):
    walls = sorted(once(args, stdin) for _ in range(repeat))
    p50, p90 = walls[len(walls) // 2], walls[min(len(walls) - 1, int(len(walls) * 0.9))]
    print(f"{name:<34} p50 {p50 * 1000:7.1f} ms   p90 {p90 * 1000:7.1f} ms   peak RSS {max_rss(args, stdin):6.1f} MB")

def max_rss(args, stdin=None):
    """Peak RSS of one more run, from /usr/bin/time's own accounting."""
    result = subprocess.run(["/usr/bin/time", "-f", "%M", gtio] + args, input=stdin.encode() if stdin else None,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return int(result.stderr.decode().strip().splitlines()[-1]) / 1024

measure("looks popular --limit 10", ["looks", "popular", "--limit", "10"])
measure("verdict P", ["verdict", post])
measure("followers U (most followed)", ["followers", user])
measure("suggest U", ["suggest", user])
measure("flags", ["flags"])
measure("stats", ["stats"])
measure("-c 'looks top'", ["-c", "looks top"])
measure("REPL session: first answer", [], stdin="looks popular --limit 10\n")
mid = str(int(last) // 2)
measure("looks popular --at-seq midpoint", ["looks", "popular", "--limit", "10", "--at-seq", mid], repeat=5)
# The log itself: five events of its last day, and the whole log as CSV (an export).
last_day = subprocess.run(["sqlite3", "-readonly", f"{work}/bench.gtio", "SELECT date(MAX(at) / 1000, 'unixepoch') FROM events"],
                          capture_output=True, text=True).stdout.strip()
measure("events --since LAST_DAY --limit 5", ["events", "--since", last_day, "--limit", "5"])
measure("events --limit 0 --format csv", ["events", "--limit", "0", "--format", "csv"], repeat=3)
PY

echo "writers (one run each):"
/usr/bin/time -f "ingest of the last 1,000 events, read models included: %e s wall, peak RSS %M KB" \
  "$gtio" ingest "$work/tail.jsonl" --quiet
version=$(sqlite3 -readonly "$store-tables" "SELECT version FROM rm_flags WHERE item = '$item'")
# Decided at the log's own newest time: the wall clock would move the demo's "now" to today.
newest=$(sqlite3 -readonly "$store" "SELECT strftime('%Y-%m-%dT%H:%M:%fZ', MAX(at) / 1000.0, 'unixepoch') FROM events")
/usr/bin/time -f "a moderation decision, read models included: %e s wall, peak RSS %M KB" \
  "$gtio" resolve "$item" dismiss --as bench --expect "$version" --at "$newest" >/dev/null
