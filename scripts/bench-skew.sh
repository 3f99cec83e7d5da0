#!/usr/bin/env bash
# Skew benchmark: the log of scripts/skewed-log.py (USERS users, default 100,000: ~1.7 M events,
# each rule's activity piled onto a few ids), release build. Prints, beside the yardsticks run
# on the same file in the same minutes (scripts/yardsticks):
#   - gtio ingest of the whole log into an empty store, read models included, against sqlite-limit;
#   - gtio rebuild against sqlite-scan of the same store;
#   - one-shot ingest of 1,000 events on the piled-on ids (followers, a product's hearts, flags
#     of the post with 50,000 open flags), read models included;
#   - one-shot answers about those ids and insights over the whole log: median of 5 runs, whole
#     process, with the peak memory.
# A rule whose cost grows with the square of one id's events shows here as minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
users=${1:-100000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

swift build -c release --product gtio >/dev/null
gtio=.build/release/gtio
python3 scripts/skewed-log.py "$users" > "$work/skewed.jsonl"
python3 - "$work/tail.jsonl" <<'PY'
import json, sys
with open(sys.argv[1], "w") as out:
    for i in range(1000):
        user, kind = f"v{i}", i % 4
        body = [
            {"type": "user.followed", "user": user, "data": {"target": "celeb", "via": "profile"}},
            {"type": "product.hearted", "user": user, "data": {"product": "prdX"}},
            {"type": "post.flagged", "user": user, "data": {"post": "pc19999", "reason": "spam"}},
            {"type": "user.followed", "user": "celeb", "data": {"target": user, "via": "profile"}},
        ][kind]
        out.write(json.dumps({"id": f"t-{i}", "at": f"2012-04-25T00:{i // 60:02d}:{i % 60:02d}.000Z", **body}) + "\n")
PY
yardsticks=$(scripts/yardsticks/build.sh "$work/yardsticks")
echo "log: $(wc -l < "$work/skewed.jsonl") events, $users users (scripts/skewed-log.py)"

python3 - "$gtio" "$yardsticks" "$work" <<'PY'
import statistics, subprocess, sys, time
gtio, yardsticks, work = sys.argv[1:4]
store, log = f"{work}/skewed.gtio", f"{work}/skewed.jsonl"

def timed(command, ok=(0,)):
    """Wall seconds and peak KB of one whole process."""
    start = time.perf_counter()
    result = subprocess.run(["/usr/bin/time", "-f", "%M", *command], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    if result.returncode not in ok:
        sys.exit(f"{command[0]}: exit {result.returncode}: {result.stderr}")
    return wall, int(result.stderr.strip().splitlines()[-1])

events = sum(1 for _ in open(log))
limit, _ = timed([f"{yardsticks}/sqlite-limit", log, f"{work}/limit.db"])
ingest, peak = timed([gtio, "ingest", log, "--store", store, "--quiet"])
print(f"ingest: {ingest:.2f} s, {events / ingest:,.0f} events/s, {peak // 1024} MiB peak; "
      f"sqlite-limit {limit:.2f} s: {limit / ingest:.2f} of the limit")
rebuild, peak = timed([gtio, "rebuild", "--store", store])
scan, _ = timed([f"{yardsticks}/sqlite-scan", store])
print(f"rebuild: {rebuild:.2f} s, {events / rebuild:,.0f} events/s, {peak // 1024} MiB peak; "
      f"sqlite-scan {scan:.2f} s: {scan / rebuild:.2f} of the scan")
more, peak = timed([gtio, "ingest", f"{work}/tail.jsonl", "--store", store, "--quiet"])
print(f"one-shot ingest of 1,000 events on the piled-on ids: {more * 1000:.0f} ms, {peak // 1024} MiB peak")
questions = [
    "followers celeb", "following celeb", "suggest u5", "flags", "flaggers --limit 0", "item review:r1",
    "item post:pc19999", "item post:pc0", "post pc0", "user celeb", "user fan", "product prdX", "prices --by brand", "places", "decisions --limit 0", "stats",
    "looks popular --limit 10",
    "funnel user.followed post.hearted post.voted --from 2012-04-23 --to 2012-04-30",
    "breakdown post.hearted --by post --from 2012-04-23 --to 2012-04-30",
    "paths --from 2012-04-23 --to 2012-04-30",
]
for question in questions:
    runs = [timed([gtio, *question.split(), "--store", store, "--format", "csv"]) for _ in range(5)]
    print(f"  {question}: {statistics.median(w for w, _ in runs) * 1000:.0f} ms, {max(p for _, p in runs) // 1024} MiB peak")
PY
