#!/usr/bin/env bash
# Read-model benchmark (issue: read models). Release build, a store of N demo events (default
# 1,000,000): full rebuild (fold + tables) with events/s and peak RSS, catch-up after 1,000
# events, p50/p99 of each query over 200 runs inside one process, and an as-of query at the midpoint.
set -euo pipefail
cd "$(dirname "$0")/.."
events=${1:-1000000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

swift build -c release --product gtio >/dev/null
swift build -c release --product gtio-bench >/dev/null
.build/release/gtio demo --events "$events" --seed 42 --out "$work/demo.jsonl"
.build/release/gtio ingest "$work/demo.jsonl" --store "$work/bench.gtio" --quiet
echo "store: $events demo events"
.build/release/gtio-bench read-models "$work/bench.gtio"
