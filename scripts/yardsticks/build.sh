#!/usr/bin/env bash
# Builds the two yardsticks into folder $1 and prints it: what SQLite itself does on this
# machine for the log's work, with nothing of gtio in the way. A benchmark runs them in the same
# minutes as gtio and quotes gtio's figure as a ratio of theirs, since this VM's speed drifts.
#   sqlite-limit FILE.jsonl DB   the same lines into an SQLite log with exact dedup, no validation:
#                                the ceiling of `gtio ingest` (prints lines appended duplicates seconds rate)
#   sqlite-scan STORE            one pass over a store's events reading the typed columns a fold
#                                reads: the ceiling of a rebuild's reading (prints rows seconds rate)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: build.sh FOLDER}
mkdir -p "$out"
for tool in sqlite-limit sqlite-scan; do
  gcc -O2 -o "$out/$tool" "$here/$tool.c" -lsqlite3
done
echo "$out"
