#!/usr/bin/env bash
# PostgreSQL store benchmark (issue: PostgreSQL). Release build, a demo file of N events (default
# 1,000,000), a local server (scripts/pg-local.sh, or $GTIO_BENCH_PG: a URL of a database the
# benchmark may create databases from). Prints, beside each other:
#   - the limit: psql COPY of the same lines into a staging table, then one INSERT … ON CONFLICT
#     DO NOTHING into a table with a unique id, in one transaction;
#   - gtio ingest into an empty store (validation, typed columns, hash chain, read models);
#   - two ingesters of the two halves at once;
#   - one-shot queries on the up-to-date store (process start included), p50 of 20;
#   - a full rebuild of the read models;
#   - gtio project --follow: how soon 1,000 events committed are applied (gtio-bench follow);
#   - gtio copy of the store into an SQLite file and of that file into another database.
set -euo pipefail
cd "$(dirname "$0")/.."
events=${1:-1000000}
work=$(mktemp -d)
chmod 755 "$work"
server=${GTIO_BENCH_PG:-}
if [ -z "$server" ]; then
  export GTIO_PG_FOLDER=$work/pg
  server=$(scripts/pg-local.sh start 54333)
  trap 'scripts/pg-local.sh stop 54333; rm -rf "$work"' EXIT
else
  trap 'rm -rf "$work"' EXIT
fi
base=${server%/*}

swift build -c release --product gtio >/dev/null
swift build -c release --product gtio-bench >/dev/null
gtio=.build/release/gtio
"$gtio" demo --events "$events" --seed 42 --out "$work/demo.jsonl"
chmod -R a+rX "$work"
echo "input: $events events, $(( $(stat -c %s "$work/demo.jsonl") / 1000000 )) MB; server $server"

fresh() {  # an empty database named $1; prints its URL
  psql -q "$server" -c "DROP DATABASE IF EXISTS $1" -c "CREATE DATABASE $1" >/dev/null 2>&1
  echo "$base/$1"
}
seconds() { python3 -c "import sys; print(f'{float(sys.argv[1]):.2f}')" "$1"; }
rate() { python3 -c "import sys; print(f'{int(sys.argv[1])/float(sys.argv[2]):,.0f}')" "$1" "$2"; }
timed() {  # runs a command, prints its wall seconds
  local start end
  start=$(date +%s.%N); "$@" >/dev/null 2>&1 || { local s=$?; [ $s -eq 3 ] || { echo "failed ($s): $*" >&2; exit 1; }; }
  end=$(date +%s.%N); python3 -c "print($end - $start)"
}

limit_db=$(fresh gtio_bench_limit)
limit=$(timed psql -q "$limit_db" -v ON_ERROR_STOP=1 <<SQL
CREATE TABLE target (id text PRIMARY KEY, line text NOT NULL);
BEGIN;
CREATE TEMP TABLE staging (line text) ON COMMIT DROP;
\copy staging FROM '$work/demo.jsonl' WITH (FORMAT csv, QUOTE E'\x01', DELIMITER E'\x02')
INSERT INTO target SELECT line::json->>'id', line FROM staging ON CONFLICT DO NOTHING;
COMMIT;
SQL
)
echo "limit (psql COPY + INSERT ON CONFLICT): $(seconds "$limit") s, $(rate "$events" "$limit") events/s"

store=$(fresh gtio_bench_store)
ingest=$(timed "$gtio" ingest "$work/demo.jsonl" --store "$store")
echo "gtio ingest, empty store:               $(seconds "$ingest") s, $(rate "$events" "$ingest") events/s ($(python3 -c "print(f'{$limit/$ingest:.2f}')") of the limit)"

half=$(( events / 2 ))
head -n "$half" "$work/demo.jsonl" > "$work/a.jsonl"; tail -n +"$((half + 1))" "$work/demo.jsonl" > "$work/b.jsonl"
two=$(fresh gtio_bench_two)
"$gtio" ingest /dev/null --store "$two" >/dev/null 2>&1 || true
start=$(date +%s.%N)
"$gtio" ingest "$work/a.jsonl" --store "$two" >/dev/null 2>&1 &
"$gtio" ingest "$work/b.jsonl" --store "$two" >/dev/null 2>&1 &
wait
both=$(python3 -c "print($(date +%s.%N) - $start)")
echo "two ingesters at once (halves):         $(seconds "$both") s, $(rate "$events" "$both") events/s together"

for query in "looks popular --limit 5" "verdicts --limit 5" "flags --limit 5" "stats"; do
  times=()
  for _ in $(seq 20); do times+=("$(timed "$gtio" -c "$query" --store "$store")"); done
  echo "one-shot '$query': p50 $(python3 -c "import statistics,sys; print(f'{statistics.median(map(float, sys.argv[1:]))*1000:.0f}')" "${times[@]}") ms"
done

rebuild=$(timed "$gtio" rebuild --store "$store")
echo "rebuild: $(seconds "$rebuild") s, $(rate "$events" "$rebuild") events/s"

"$gtio" demo --events 20000 --seed 43 --out "$work/tail.jsonl"
"$gtio" project --follow --store "$store" >/dev/null 2>&1 &
projector=$!
sleep 2
.build/release/gtio-bench follow "$store" "$work/tail.jsonl" 20
kill -TERM "$projector"; wait "$projector" || true

copied=$(timed "$gtio" copy --from "$store" --to "$work/copy.gtio")
echo "gtio copy PostgreSQL → SQLite (verify both, read models): $(seconds "$copied") s"
back=$(fresh gtio_bench_back)
copied=$(timed "$gtio" copy --from "$work/copy.gtio" --to "$back")
echo "gtio copy SQLite → PostgreSQL (verify both, read models): $(seconds "$copied") s"
