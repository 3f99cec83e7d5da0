#!/usr/bin/env bash
# gtio serve under load (issue: the live collector). Release build, wrk on loopback (Debian's
# `wrk` package). Prints, each beside `gtio ingest` of the same events into a fresh store:
#   1. batches of 100 events over 32 connections: events/s appended (counted in the store),
#      and wrk's latency percentiles;
#   2. single-event requests over 64 connections: requests/s and latency;
#   3. GET /v1/looks/popular?limit=10 over 64 connections: requests/s and latency;
#   4. the server's peak RSS over all of it.
# Each load starts once the read models have caught up with the one before.
# Usage: scripts/bench-serve.sh [SECONDS] [WORK_FOLDER]
# GTIO=path/to/gtio times that binary instead of building this checkout (to pair two builds).
# SERVE_ARGS="..." adds options to `gtio serve`.
# BATCH_RATE=EVENTS_PER_SECOND offers the batches at that rate rather than as fast as the server
# answers (below: "paced"), to read the latency at a given load rather than at saturation.
# READ_RATE=REQUESTS_PER_SECOND also offers the reads at that rate, after the load at saturation.
# GTIO_BENCH_PG=URL (a PostgreSQL server the benchmark may create databases on, as for
# bench-postgres.sh) puts the server's store, and the yardstick's, in databases there.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
work=${2:-}
pid=
if [ -z "$work" ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"; [ -z "$pid" ] || kill "$pid" 2>/dev/null || true' EXIT
else
  trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null || true' EXIT
fi
mkdir -p "$work"
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }

gtio=${GTIO:-}
if [ -z "$gtio" ]; then
  swift build -c release --product gtio >/dev/null
  gtio=$PWD/.build/release/gtio
fi
port=${PORT:-18480}
events=$((seconds * 300000))
[ -f "$work/demo.jsonl" ] || "$gtio" demo --events "$events" --seed 9 --out "$work/demo.jsonl"

# A fresh store named $1: a file in the work folder, or a new database on $GTIO_BENCH_PG.
fresh_store() {
  if [ -n "${GTIO_BENCH_PG:-}" ]; then
    psql -q "$GTIO_BENCH_PG" -c "DROP DATABASE IF EXISTS gtio_bench_$1" -c "CREATE DATABASE gtio_bench_$1" >/dev/null 2>&1
    echo "${GTIO_BENCH_PG%/*}/gtio_bench_$1"
  else
    rm -f "$work/$1.gtio"*
    echo "$work/$1.gtio"
  fi
}

# The yardstick: ingest of the same events, one process, fresh store.
ingest_store=$(fresh_store serve_ingest)
start=$(date +%s.%N)
ingested=$("$gtio" ingest "$work/demo.jsonl" --store "$ingest_store" --format json)
ingest_seconds=$(echo "$(date +%s.%N) - $start" | bc)
ingest_rate=$(echo "$(echo "$ingested" | sed 's/^{"read":[0-9]*,"appended":\([0-9]*\).*/\1/') / $ingest_seconds" | bc)
echo "gtio ingest of $events demo events into $ingest_store: ${ingest_seconds}s, $ingest_rate events/s (incl. read models)"
# The yardstick's store (about a gigabyte) is written back to disk now rather than while the
# server's commits wait for their own fsyncs behind it.
sync

# The server starts from an empty log, so that every posted event is new.
serve_store=$(fresh_store serve)
: > "$work/empty.jsonl"
# An empty file makes the store; ingest's warning that the file is empty is expected here.
"$gtio" ingest --store "$serve_store" "$work/empty.jsonl" --quiet
write=$("$gtio" keys add bench-write --role write --store "$serve_store" 2>/dev/null)
read=$("$gtio" keys add bench-read --role read --store "$serve_store" 2>/dev/null)
# SERVE_ARGS: more options for the server (for experiments), split on spaces.
# shellcheck disable=SC2086
"$gtio" serve --store "$serve_store" --port "$port" --log-level warning ${SERVE_ARGS:-} \
  > "$work/serve.out" 2> "$work/serve.err" &
pid=$!
until grep -q listening "$work/serve.out" 2>/dev/null; do
  kill -0 "$pid" 2>/dev/null || { echo "gtio serve ended before listening: $(tail -1 "$work/serve.err")" >&2; exit 1; }
  sleep 0.1
done

# Each wrk thread sends its own share of the demo lines, a request's lines at a time, in order. The
# shares are cut before wrk starts, one file per thread with a blank line after each request's
# body, and each thread reads its file in one piece: wrk starts each thread's load as soon as
# that thread's `init` returns, so a thread still reading lines there (4 s of a core for the 3 M
# lines) would compete with the server for the load's first seconds.
cat > "$work/post.lua" <<LUA
local key = os.getenv("KEY")
local counter = 0
function setup(thread)
  thread:set("id", counter)
  counter = counter + 1
end
function init(args)
  local file = io.open(os.getenv("SHARE") .. "." .. id, "rb")
  bodies = file:read("*a")
  file:close()
  position = 1
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/x-ndjson"
  wrk.headers["Authorization"] = "Bearer " .. key
end
function request()
  local blank = string.find(bodies, "\n\n", position, true)
  local body = string.sub(bodies, position, blank - 1)
  position = blank + 2
  if position > #bodies then position = 1 end
  return wrk.format(nil, "/Tracking", nil, body)
end
LUA

# Paced: wrk otherwise sends a connection's next request as soon as the last is answered, so
# the load is as high as the server allows and the latency is the one at saturation. Here each
# wrk thread's k-th request is due at its start + k periods: a connection that is free before its
# request is due waits for it, one that is free later sends at once. The late ones were held up
# by the connections all being busy, and wrk times a request from when it was sent, so their
# true latency is longer than wrk's by their lateness; the script counts them and bounds the p99
# counted from when each request was due (below), 1 ms added for wrk's timer (a request may go
# out up to 1 ms after it is due).
if [ -n "${BATCH_RATE:-}${READ_RATE:-}" ]; then
  cat > "$work/pacing.lua" <<LUA
local ffi = require("ffi")
ffi.cdef[[
typedef struct { long tv_sec; long tv_nsec; } bench_timespec;
int clock_gettime(int clock, bench_timespec *ts);
]]
local clock = ffi.new("bench_timespec")
local function milliseconds()
  ffi.C.clock_gettime(1, clock)  -- CLOCK_MONOTONIC
  return tonumber(clock.tv_sec) * 1000 + tonumber(clock.tv_nsec) / 1e6
end
local threads = {}
local setup_share = setup
function setup(thread)
  setup_share(thread)
  table.insert(threads, thread)
end
period = 1000 / tonumber(os.getenv("RATE_PER_THREAD"))  -- ms between a thread's requests
due_count = 0
late = 0
worst = 0
function delay()
  local now = milliseconds()
  if first_due == nil then first_due = now end
  local wait = first_due + due_count * period - now
  due_count = due_count + 1
  if wait >= 0 then return math.floor(wait) end
  late = late + 1
  if -wait > worst then worst = -wait end
  return 0
end
function done(summary, latency, requests)
  local all, worst_all = 0, 0
  for _, thread in ipairs(threads) do
    all = all + thread:get("late")
    worst_all = math.max(worst_all, thread:get("worst"))
  end
  local share = 100 * all / math.max(summary.requests, 1)
  -- Lateness only lengthens: at most share % of the requests can it move above wrk's p(99 + share),
  -- and none by more than the latest one's lateness.
  local bound = latency:percentile(99) / 1000 + worst_all
  if share < 1 then bound = math.min(bound, latency:percentile(99 + share) / 1000) end
  io.write(string.format("paced: %d requests, %d sent late (%.2f %%), the latest %.1f ms after it was due\\n",
    summary.requests, all, share, worst_all))
  io.write(string.format("paced: p99 counted from when each request was due: at most %.1f ms\\n", bound + 1))
end
LUA
  cat "$work/post.lua" "$work/pacing.lua" > "$work/paced.lua"
  # A read: the URL given to wrk, with the read key.
  cat > "$work/get.lua" <<LUA
local key = os.getenv("KEY")
function setup(thread) end
function init(args) wrk.headers["Authorization"] = "Bearer " .. key end
LUA
  cat "$work/get.lua" "$work/pacing.lua" > "$work/paced-get.lua"
fi

# Lines [first, end) of the demo file in requests of `batch` lines, request k to thread k % 2.
cut_shares() {  # batch first-line end-line
  awk -v size="$1" -v from="$2" -v to="$3" -v out="$work/share" '
    NR - 1 >= from && NR - 1 < to {
      n = NR - 1 - from; file = out "." (int(n / size) % 2)
      printf "%s\n", $0 > file
      if (n % size == size - 1 || NR == to) printf "\n" > file
    }' "$work/demo.jsonl"
}

# The log's end as the server sees it. Not through the sqlite3 command: Debian's SQLite opening
# the live store beside the server's own build of it broke the server's reads (disk I/O error).
last_seq() { curl -s "http://127.0.0.1:$port/ready" | sed 's/.*"last_seq":\([0-9]*\).*/\1/'; }
# How far the read models stand behind the log: appends do not wait for them.
lag() { curl -s "http://127.0.0.1:$port/ready" | sed 's/.*"lag":\([0-9]*\).*/\1/'; }

run_post() {  # batch connections label first-line end-line [requests/s per wrk thread, paced]
  local before after out script=post
  [ -z "${6:-}" ] || script=paced
  out=$work/wrk-$(echo "$3" | tr -c "a-z0-9" "-").txt
  rm -f "$work/share".*
  cut_shares "$1" "$4" "$5"
  sync  # the shares just written (hundreds of MB) go to disk before the load, not during it
  before=$(last_seq)
  KEY=$write SHARE=$work/share RATE_PER_THREAD=${6:-} wrk -t2 -c"$2" -d"${seconds}s" --latency \
    -s "$work/$script.lua" "http://127.0.0.1:$port" > "$out"
  after=$(last_seq)
  echo "$3: $(( (after - before) / seconds )) events/s appended ($((after - before)) in ${seconds}s);" \
    "$(grep 'Requests/sec' "$out")"
  echo "   read models $(lag) events behind at the end of the load"
  grep -E '^ +(50|90|99)%' "$out" | tr -s ' ' | sed 's/^/   latency/'
  grep -E '^paced:' "$out" | sed 's/^paced:/  /' || true
  grep -E 'Non-2xx|Socket errors' "$out" || true
}
# Each run posts its own lines, so that its events are new: the batches the first 11/15 of the
# file (each wrk thread takes every other batch of 100, and one may run well ahead of the other),
# the single events the rest.
split=$(( events * 11 / 15 ))
if [ -n "${BATCH_RATE:-}" ]; then
  run_post 100 32 "batches of 100, 32 connections, offered at $BATCH_RATE events/s" 0 "$split" \
    "$(echo "$BATCH_RATE / 200" | bc -l)"
else
  run_post 100 32 "batches of 100, 32 connections" 0 "$split"
fi
# Each load starts once the read models have caught up with the one before: the projector
# applying the batches' backlog would otherwise share the cores with the next load, and its
# figures would be those of two loads at once.
caught_up() {
  for _ in $(seq 1 300); do [ "$(lag)" = 0 ] && return; sleep 0.2; done
  echo "   (the read models were still $(lag) events behind after 60 s)"
}
caught_up
run_post 1 64 "single events, 64 connections" "$split" "$events"

caught_up
wrk -t2 -c64 -d"${seconds}s" --latency -H "Authorization: Bearer $read" "http://127.0.0.1:$port/v1/looks/popular?limit=10" > "$work/wrk-read.txt"
echo "GET /v1/looks/popular?limit=10, 64 connections: $(grep 'Requests/sec' "$work/wrk-read.txt")"
grep -E '^ +(50|90|99)%' "$work/wrk-read.txt" | tr -s ' ' | sed 's/^/   latency/'
grep -E 'Non-2xx|Socket errors' "$work/wrk-read.txt" || true
if [ -n "${READ_RATE:-}" ]; then
  KEY=$read RATE_PER_THREAD=$(echo "$READ_RATE / 2" | bc -l) wrk -t2 -c64 -d"${seconds}s" --latency \
    -s "$work/paced-get.lua" "http://127.0.0.1:$port/v1/looks/popular?limit=10" > "$work/wrk-read-paced.txt"
  echo "GET /v1/looks/popular?limit=10, 64 connections, offered at $READ_RATE requests/s: $(grep 'Requests/sec' "$work/wrk-read-paced.txt")"
  grep -E '^ +(50|90|99)%' "$work/wrk-read-paced.txt" | tr -s ' ' | sed 's/^/   latency/'
  grep -E '^paced:' "$work/wrk-read-paced.txt" | sed 's/^paced:/  /' || true
  grep -E 'Non-2xx|Socket errors' "$work/wrk-read-paced.txt" || true
fi
echo "server peak RSS: $(grep VmHWM /proc/$pid/status | tr -s ' ' | cut -d' ' -f2-)"
curl -s "http://127.0.0.1:$port/metrics" | grep -E '^gtio_(commit_(events|requests)_(sum|count)|queue_refusals_total|events_[a-z]+_total)' | sed 's/^/   /'
kill -TERM "$pid"; wait "$pid" || true
echo "server log (problems only):"; grep -v '"level":"info"' "$work/serve.err" | head -5 || true
"$gtio" verify --store "$serve_store" | tail -1
