#!/usr/bin/env bash
# How long `gtio serve` takes to say it is ready (/ready answers 200: the read models loaded
# from the store's saved fold state and current), on an idle machine or one whose cores other
# work keeps full. Prints the seconds from the server's start to its first 200.
# Usage: scripts/bench-ready.sh STORE [BUSY]
#   STORE: an up-to-date SQLite store (it and its -tables file are copied first: the server
#          may write to them);
#   BUSY:  busy loops to run beside the server at nice 0 (default 0; `nproc` fills the cores).
# GTIO=path/to/gtio times that binary instead of this checkout's release build (to pair two
# builds with `farm-bench --vs`).
set -euo pipefail
cd "$(dirname "$0")/.."
store=$1
busy=${2:-0}
gtio=${GTIO:-$PWD/.build/release/gtio}
port=${PORT:-18490}
work=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT
for file in "$store" "$store-tables"; do cp "$file" "$work/"; done
copy=$work/$(basename "$store")

for _ in $(seq 1 "$busy"); do
  sh -c 'while :; do :; done' &
  pids+=($!)
done
start=$(date +%s.%N)
"$gtio" serve --store "$copy" --port "$port" --log-level warning > "$work/serve.out" 2> "$work/serve.err" &
pids+=($!)
until [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/ready")" = 200 ]; do
  kill -0 "${pids[-1]}" 2>/dev/null || { cat "$work/serve.err" >&2; exit 1; }
  sleep 0.02
done
echo "ready after $(echo "$(date +%s.%N) - $start" | bc) s ($busy busy loops beside it)"
