#!/usr/bin/env bash
# The collector's commit path alone (issue: the live collector). Release build, a demo file of
# N events (default 600,000) in requests of 100, committed 13 requests at a time (what a commit
# carries under bench-serve.sh's batch load) into a new SQLite store, with the server's upkeep
# beside the writer. Prints events/s, the committing thread's CPU per event and the peak RSS,
# beside the raw SQLite insert loop on the same lines (the yardstick). Steadier than
# bench-serve.sh for changes to the commit path: no HTTP, no wrk sharing the cores.
# GTIO_BENCH=path/to/gtio-bench times that binary instead of building this checkout.
set -euo pipefail
cd "$(dirname "$0")/.."
events=${1:-600000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

bench=${GTIO_BENCH:-}
swift build -c release --product gtio >/dev/null
if [ -z "$bench" ]; then
  swift build -c release --product gtio-bench >/dev/null
  bench=$PWD/.build/release/gtio-bench
fi
.build/release/gtio demo --events "$events" --seed 9 --out "$work/demo.jsonl"

"$bench" raw-sqlite "$work/demo.jsonl" "$work/raw.db"
/usr/bin/time -f "peak RSS: %M kB" "$bench" commits "$work/commits.gtio" "$work/demo.jsonl" 13
.build/release/gtio verify --store "$work/commits.gtio" | tail -1
