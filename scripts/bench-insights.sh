#!/usr/bin/env bash
# Insights benchmark (issue: insights). Release build, a store of N demo events (default
# 1,000,000), the default 30-day window (ending on the log's newest day). Prints, for each of the
# six questions the issue names, gtio's wall time per process (p50 and p90 of RUNS runs, process
# start included) and peak RSS, beside DuckDB answering the same question from the JSON Lines
# file (scripts/insights-duckdb.py: median of 3, in process, start-up not counted), and the ratio.
# Usage: scripts/bench-insights.sh [EVENTS] [WORK_FOLDER]  (a folder kept from an earlier run is
# reused: scripts/bench-insights.sh 20000000 /tmp/i20). Needs `pip install duckdb`.
set -euo pipefail
cd "$(dirname "$0")/.."
events=${1:-1000000}
work=${2:-}
if [ -z "$work" ]; then work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi
mkdir -p "$work"
runs=${RUNS:-11}
python3 -c "import duckdb" 2>/dev/null || { echo "DuckDB is missing: pip install duckdb" >&2; exit 1; }

swift build -c release --product gtio >/dev/null
gtio=$PWD/.build/release/gtio
store=$work/insights.gtio
if [ ! -f "$store" ]; then
  "$gtio" demo --events "$events" --seed 42 --out "$work/demo.jsonl"
  "$gtio" ingest "$work/demo.jsonl" --store "$store" --quiet
fi
# The default window: the 30 days ending on the UTC date of the newest event.
to=$(sqlite3 -readonly "$store" "SELECT date(MAX(at) / 1000, 'unixepoch') FROM events")
from=$(sqlite3 -readonly "$store" "SELECT date('$to', '-29 days')")
echo "store: $(sqlite3 -readonly "$store" "SELECT COUNT(*) FROM events") events; window $from – $to; $runs runs of each gtio question"

python3 - "$gtio" "$store" "$runs" "$work/demo.jsonl" "$from" "$to" <<'PY'
import shlex, statistics, subprocess, sys, time
gtio, store, runs, file, start, end = sys.argv[1], sys.argv[2], int(sys.argv[3]), *sys.argv[4:]
questions = [
    "trend track --by name --interval week",
    "trend post.hearted --measure users",
    "breakdown post.created --by brands",
    "funnel app.opened user.signed_up user.profile_completed --within 7d",
    "retention --start user.signed_up --return * --interval week",
    "paths --depth 4",
]

def once(args):
    started = time.perf_counter()
    result = subprocess.run([gtio] + args + ["--store", store], stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if result.returncode != 0:
        sys.exit(f"gtio {' '.join(args)} failed: {result.stderr.decode()}")
    return time.perf_counter() - started

def peak(args):
    result = subprocess.run(["/usr/bin/time", "-f", "%M", gtio] + args + ["--store", store],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return int(result.stderr.decode().strip().splitlines()[-1]) / 1024

for question in questions:
    args = shlex.split(question)
    walls = sorted(once(args) for _ in range(runs))
    p50, p90 = walls[len(walls) // 2], walls[min(len(walls) - 1, int(len(walls) * 0.9))]
    duck = subprocess.run([sys.executable, "scripts/insights-duckdb.py", file, start, end, question],
                          capture_output=True, text=True, check=True).stdout
    duck_ms = float(duck.split("median")[1].split("ms")[0])
    print(f"{question:<62} gtio p50 {p50 * 1000:6.0f} ms  p90 {p90 * 1000:6.0f} ms  peak {peak(args):5.0f} MB"
          f"   duckdb {duck_ms:6.0f} ms   duckdb/gtio {duck_ms / (p50 * 1000):4.1f}")
PY
