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
