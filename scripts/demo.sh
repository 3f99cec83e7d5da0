#!/usr/bin/env bash
# The main job on the embedded default store: builds gtio, writes a simulated GTIO community's
# event log, ingests it (and a file of broken lines, to show the quarantine), shows the log and
# the read models, and writes the nightly report of its last full day into Reports/.
# EVENTS=1000000 bash scripts/demo.sh for a bigger one; GTIO_STORE=path to choose the store.
set -euo pipefail
cd "$(dirname "$0")/.."

events=${EVENTS:-200000}
export GTIO_STORE=${GTIO_STORE:-demo.gtio}

swift build -c release --product gtio
gtio=.build/release/gtio

echo "== writing $events simulated events to demo.jsonl"
"$gtio" demo --events "$events" --seed 42 --out demo.jsonl

echo "== ingesting into $GTIO_STORE"
"$gtio" ingest demo.jsonl

echo "== ingesting Events/samples/bad-lines.jsonl (every line is wrong in its own way)"
set +e
"$gtio" ingest Events/samples/bad-lines.jsonl
status=$?
set -e
if [ "$status" -ne 3 ]; then
  echo "expected exit code 3 (some input rejected), got $status" >&2
  exit 1
fi

echo "== the quarantine"
"$gtio" quarantine --limit 5
echo "== the last events"
"$gtio" events --tail 8
echo "== popular looks now (read from the read models ingest keeps in the store)"
"$gtio" looks popular --limit 10
echo "== the moderation queue"
"$gtio" flags --limit 5
echo "== engagement on the last day"
"$gtio" stats
echo "== the onboarding funnel and retention"
"$gtio" funnel
"$gtio" retention
echo "== the nightly report of the last full day"
"$gtio" report nightly --out Reports
echo "== status"
"$gtio" status
echo
day=$(ls -1 Reports | grep -E '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' | sort | tail -n 1)
echo "Open the report: Reports/$day/index.html (summary.md and CSV files beside it)."
echo "Next, the analysts' console: GTIO_STORE=$GTIO_STORE $gtio"
echo "Explore with: $gtio --help, $gtio looks --help, or sqlite3 -readonly $GTIO_STORE (the log) and $GTIO_STORE-tables (the read models; see docs/STORE.md, docs/READ_MODELS.md)"
