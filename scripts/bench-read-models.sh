#!/usr/bin/env bash
# Read-model benchmark (issue: read models). Release build, a store of N demo events (default
# 1,000,000): full rebuild (fold + tables) with events/s and peak RSS, catch-up after 1,000
# events, p50/p99 of each query over 200 runs inside one process, and an as-of query at the midpoint;
# the writers' saved fold state (read back, saved) and a one-shot ingest of 1,000 new events that
# continues from it; then five more rebuilds in one process, as this VM's speed swings by up to 2×
# from minute to minute.
set -euo pipefail
cd "$(dirname "$0")/.."
events=${1:-1000000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

swift build -c release --product gtio >/dev/null
swift build -c release --product gtio-bench >/dev/null
.build/release/gtio demo --events "$events" --seed 42 --out "$work/demo.jsonl"
head -n -1000 "$work/demo.jsonl" > "$work/head.jsonl"
tail -n 1000 "$work/demo.jsonl" > "$work/tail.jsonl"
.build/release/gtio ingest "$work/head.jsonl" --store "$work/bench.gtio" --quiet
echo "store: $events demo events less the last 1,000"
.build/release/gtio-bench catch-up "$work/bench.gtio" "$work/tail.jsonl"
.build/release/gtio-bench read-models "$work/bench.gtio"
.build/release/gtio-bench fold-state "$work/bench.gtio"
.build/release/gtio demo --events 1000 --seed 7 --out "$work/more.jsonl"
/usr/bin/time -f "one-shot ingest of 1,000 new events, read models included: %e s wall, %M KB peak" \
    .build/release/gtio ingest "$work/more.jsonl" --store "$work/bench.gtio" --quiet
echo "five more rebuilds, one process:"
.build/release/gtio-bench rebuild "$work/bench.gtio" 5

# Beside the yardstick, in the same minutes: sqlite-scan over the same store (scripts/yardsticks).
yardsticks=$(scripts/yardsticks/build.sh "$work/yardsticks")
echo "beside the yardstick (sqlite-scan of the same store, 3 rounds in turn; gtio rebuild as a whole process):"
python3 - .build/release/gtio "$yardsticks/sqlite-scan" "$work/bench.gtio" <<'PY'
import statistics, subprocess, sys, time
gtio, scan, store = sys.argv[1:4]
def timed(command):
    start = time.perf_counter()
    result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        sys.exit(f"{command[0]}: exit {result.returncode}: {result.stderr}")
    return time.perf_counter() - start
shares = []
for round in range(1, 4):
    rebuild = timed([gtio, "rebuild", "--store", store])
    ceiling = timed([scan, store])
    shares.append(ceiling / rebuild)
    print(f"  round {round}: gtio rebuild {rebuild:.2f} s, sqlite-scan {ceiling:.2f} s: {ceiling / rebuild:.2f} of the scan")
print(f"  median: {statistics.median(shares):.2f} of the scan")
PY
