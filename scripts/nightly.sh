#!/usr/bin/env bash
# The nightly job, ready for cron: ingests the event files waiting in INBOX, then writes the
# report of the last full UTC day (or --date D) into $GTIO_REPORTS/D/.
#
#   scripts/nightly.sh INBOX [--date YYYY-MM-DD]
#
# Environment: GTIO_STORE (default events.gtio), GTIO_REPORTS (default Reports), GTIO_LOG
# (default $GTIO_REPORTS/nightly.log), GTIO (the gtio binary; default: gtio on PATH, else this
# checkout's release build, built if missing).
# Files INBOX/*.jsonl are ingested in name order and moved to INBOX/done/ once ingested (ingest
# is idempotent, so a file ingested twice adds nothing). Only one run at a time: a second one
# started meanwhile exits at once with code 75 (the lock is $GTIO_REPORTS/.nightly.lock).
# Exit codes: 0 all done; 3 done, but some input was rejected (see gtio quarantine list);
# 1 an ingest or the report failed; 2 bad usage; 75 another run holds the lock.
#
# Example crontab line (02:15 UTC every day):
#   15 2 * * * cd /srv/gtio && GTIO_STORE=/srv/gtio/events.gtio scripts/nightly.sh /srv/gtio/inbox
set -uo pipefail

usage() { echo "usage: $0 INBOX [--date YYYY-MM-DD]" >&2; exit 2; }
[ $# -ge 1 ] || usage
inbox=$1; shift
date_args=()
if [ $# -gt 0 ]; then
  [ "$1" = "--date" ] && [ $# -eq 2 ] || usage
  date_args=(--date "$2")
fi
[ -d "$inbox" ] || { echo "nightly: no inbox folder $inbox" >&2; exit 2; }

root=$(cd "$(dirname "$0")/.." && pwd)
export GTIO_STORE=${GTIO_STORE:-events.gtio}
reports=${GTIO_REPORTS:-Reports}
mkdir -p "$reports" || exit 1
log=${GTIO_LOG:-$reports/nightly.log}

say() { printf '%s %s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$*" | tee -a "$log"; }

exec 9>"$reports/.nightly.lock"
if ! flock -n 9; then
  say "another nightly run holds $reports/.nightly.lock: not starting"
  exit 75
fi

gtio=${GTIO:-}
if [ -z "$gtio" ]; then
  if command -v gtio >/dev/null 2>&1; then
    gtio=$(command -v gtio)
  else
    gtio=$root/.build/release/gtio
    if [ ! -x "$gtio" ]; then
      say "building $gtio"
      (cd "$root" && swift build -c release --product gtio) >>"$log" 2>&1 || { say "build failed"; exit 1; }
    fi
  fi
fi

say "nightly run: store $GTIO_STORE, inbox $inbox"
status=0
mkdir -p "$inbox/done" || exit 1
shopt -s nullglob
for file in "$inbox"/*.jsonl; do
  "$gtio" ingest "$file" >>"$log" 2>&1
  code=$?
  case $code in
    0) say "ingested $file"; mv "$file" "$inbox/done/" ;;
    3) say "ingested $file; some lines were rejected (gtio quarantine list)"; mv "$file" "$inbox/done/"
       [ $status -eq 0 ] && status=3 ;;
    *) say "ingest of $file failed with exit code $code; it stays in the inbox"; status=1 ;;
  esac
done

if "$gtio" report nightly "${date_args[@]}" --out "$reports" >>"$log" 2>&1; then
  say "report written to $reports"
else
  say "report failed (see above)"
  status=1
fi
say "nightly run finished with exit code $status"
exit $status
