#!/usr/bin/env bash
# Nightly report benchmark (issue: the nightly report; target ≤ 3 s for one day of a
# 1,000,000-event log). Release build; prints the end-to-end time of three runs and peak RSS.
set -euo pipefail
cd "$(dirname "$0")/.."
events=${1:-1000000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

swift build -c release --product gtio >/dev/null
.build/release/gtio demo --events "$events" --seed 42 --out "$work/demo.jsonl"
.build/release/gtio ingest "$work/demo.jsonl" --store "$work/bench.gtio" --quiet
echo "store: $events demo events"
for run in 1 2 3; do
  /usr/bin/time -f "run $run: %e s end to end, peak RSS %M KB" \
    .build/release/gtio report nightly --store "$work/bench.gtio" --out "$work/Reports"
done
