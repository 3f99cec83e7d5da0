#!/usr/bin/env bash
# Ingest benchmark (issue: the event log). Release build, a demo file of N events (default
# 1,000,000): fresh ingest and re-ingest end to end through the real CLI, with events/s, MB/s
# and peak RSS; then validation alone and a raw SQLite insert loop on the same lines, for comparison.
set -euo pipefail
cd "$(dirname "$0")/.."
events=${1:-1000000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

swift build -c release --product gtio >/dev/null
swift build -c release --product gtio-bench >/dev/null
gtio=.build/release/gtio
bench=.build/release/gtio-bench

"$gtio" demo --events "$events" --seed 42 --out "$work/demo.jsonl"
bytes=$(stat -c %s "$work/demo.jsonl")
echo "input: $events events, $(python3 -c "print(f'{$bytes/1e6:.1f}')") MB"

# Runs one command, then prints its wall time, rate and the child's peak RSS.
measure() {
  local label=$1; shift
  python3 - "$label" "$events" "$bytes" "$@" <<'PY'
import resource, subprocess, sys, time
label, events, size, cmd = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
start = time.perf_counter()
result = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
elapsed = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
if result.returncode not in (0, 3):
    sys.exit(f"{label}: exit {result.returncode}: {result.stderr}")
print(f"{label}: {elapsed:.2f} s, {events/elapsed:,.0f} events/s, {size/1e6/elapsed:.1f} MB/s, peak RSS {peak:.0f} MB")
print(f"  ({result.stdout.strip().splitlines()[0]})")
PY
}

measure "ingest, fresh store     " "$gtio" ingest "$work/demo.jsonl" --store "$work/bench.gtio"
measure "re-ingest, all duplicates" "$gtio" ingest "$work/demo.jsonl" --store "$work/bench.gtio"
"$bench" validate "$work/demo.jsonl"
"$bench" raw-sqlite "$work/demo.jsonl" "$work/raw.db"

# Beside the yardstick, in the same minutes: sqlite-limit on the same lines (scripts/yardsticks).
yardsticks=$(scripts/yardsticks/build.sh "$work/yardsticks")
echo "beside the yardstick (sqlite-limit on the same lines, 3 rounds in turn; ingest includes the read models):"
python3 - "$gtio" "$yardsticks/sqlite-limit" "$work" <<'PY'
import os, statistics, subprocess, sys, time
gtio, limit, work = sys.argv[1:4]
def timed(command):
    start = time.perf_counter()
    result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if result.returncode not in (0, 3):
        sys.exit(f"{command[0]}: exit {result.returncode}: {result.stderr}")
    return time.perf_counter() - start
shares = []
for round in range(1, 4):
    for name in os.listdir(work):
        if name.startswith("pair.gtio"):
            os.remove(os.path.join(work, name))
    ingest = timed([gtio, "ingest", f"{work}/demo.jsonl", "--store", f"{work}/pair.gtio", "--quiet"])
    ceiling = timed([limit, f"{work}/demo.jsonl", f"{work}/limit.db"])
    shares.append(ceiling / ingest)
    print(f"  round {round}: gtio ingest {ingest:.2f} s, sqlite-limit {ceiling:.2f} s: {ceiling / ingest:.2f} of the limit")
print(f"  median: {statistics.median(shares):.2f} of the limit")
PY
