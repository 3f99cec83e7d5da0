#!/usr/bin/env python3
"""A log whose activity piles onto a few ids, to find rules whose cost grows faster than the log.

The demo log spreads its events over many users and posts; a real community has celebrities:
one user followed by everybody, one post hearted, voted on, reviewed and flagged by everybody,
one product on everybody's list, one device every sign-up came from. Each rule is fed such a
pile here, so that a cost that grows with the square of an id's events (an item's flag history
copied at each flag, say) shows as minutes where the demo log shows nothing.

Usage: scripts/skewed-log.py [USERS] > skewed.jsonl   (default 100,000 users: ~1.7 M events)

The events, in order (times 50 ms apart, from 2012-04-23): every user signs up on one device;
`celeb` creates 20,000 posts and `shop` 20,000 product posts of prdX (two brands, one place,
prices 0–499); `fan` hearts, votes on and flags each of celeb's posts; `mod` removes 5,000 of
them one decision at a time and `shop` deletes 5,000 of its posts; every user follows `celeb`
and `celeb` follows every user; every user hearts and votes on post pc0, half review it and
agree with review r0, everybody flags pc0, a dismiss, half flag it again; `celeb` goes private
and back ten times; every user hearts and lists product prdX; `celeb` is shown 200 quick-add
lists of 500; half flag review r0, a tenth flag review r1 five times over with a dismiss after
each round; `celeb` renames itself 1,000 times, blocks and unblocks half the users; half
unheart pc0 and unfollow `celeb`; everybody shares pc1 and suggests prdX to `celeb`; one device
opens the app once per user; half take prdX off their list and flag pc19999, which stays open;
pc0 is removed by a decision and pc1 deleted by its author.
"""
import datetime
import json
import sys

users_count = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
start = datetime.datetime(2012, 4, 23, tzinfo=datetime.timezone.utc)
written = 0
out = sys.stdout


def event(type, user, data, device=None):
    global written
    written += 1
    at = start + datetime.timedelta(milliseconds=written * 50)
    line = {"id": f"s-{written}", "type": type, "at": at.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"}
    if user:
        line["user"] = user
    if device:
        line["device"] = device
    line["data"] = data
    out.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n")


celeb, post, other = "celeb", "pc0", "pc1"
users = [f"u{i}" for i in range(users_count)]
half, tenth = users[: users_count // 2], users[: users_count // 10]

event("user.signed_up", celeb, {"provider": "facebook", "name": "Celeb"}, device="dev-celeb")
for i, user in enumerate(users):
    event("user.signed_up", user, {"provider": "google", "name": f"Name {users_count - i}"}, device="dev-hot")
for k in range(20_000):
    event("post.created", celeb, {"post": f"pc{k}", "kind": "outfit", "voting": True})
for k in range(20_000):
    event("post.created", "shop", {
        "post": f"ps{k}", "kind": "product", "voting": False, "product": "prdX", "price": k % 500,
        "brands": ["B", "C"], "location": {"name": "Paris", "lat": 48.85, "lon": 2.35}})
for k in range(20_000):
    event("post.hearted", "fan", {"post": f"pc{k}"})
    event("post.voted", "fan", {"post": f"pc{k}", "verdict": "wear_it"})
    event("post.flagged", "fan", {"post": f"pc{k}", "reason": "spam"})
for k in range(2, 5_002):
    event("moderation.resolved", "mod", {"item": f"post:pc{k}", "action": "remove"})
for k in range(5_000):
    event("post.deleted", "shop", {"post": f"ps{k}"})
for user in users:
    event("user.followed", user, {"target": celeb, "via": "profile"})
for user in users:
    event("user.followed", celeb, {"target": user, "via": "profile"})
for user in users:
    event("post.hearted", user, {"post": post})
for i, user in enumerate(users):
    event("post.voted", user, {"post": post, "verdict": "wear_it" if i % 3 else "change_it"})
for i, user in enumerate(half):
    event("review.added", user, {"review": f"r{i}", "post": post, "text": "nice"})
for user in half:
    event("review.agreed", user, {"review": "r0"})
for user in users:
    event("post.flagged", user, {"post": post, "reason": "spam"})
event("moderation.resolved", "mod", {"item": f"post:{post}", "action": "dismiss"})
for user in half:
    event("post.flagged", user, {"post": post, "reason": "nudity"})
for k in range(20):
    event("user.privacy_changed", celeb, {"private": k % 2 == 0})
for user in users:
    event("product.hearted", user, {"product": "prdX"})
for user in users:
    event("shopping_list.added", user, {"product": "prdX"})
for k in range(200):
    event("quickadd.shown", celeb, {"suggested": users[k * 500:(k + 1) * 500]})
for user in half:
    event("review.flagged", user, {"review": "r0"})
for _ in range(5):
    for user in tenth:
        event("review.flagged", user, {"review": "r1"})
    event("moderation.resolved", "mod", {"item": "review:r1", "action": "dismiss"})
for k in range(1_000):
    event("user.profile_updated", celeb, {"name": f"Celeb {k}"})
for user in half:
    event("user.blocked", celeb, {"target": user})
for user in half:
    event("user.unblocked", celeb, {"target": user})
for user in half:
    event("post.unhearted", user, {"post": post})
for user in half:
    event("user.unfollowed", user, {"target": celeb})
for user in users:
    event("post.shared", user, {"post": other, "channel": "facebook"})
for user in users:
    event("product.suggested", user, {"product": "prdX", "channel": "gtio", "to": celeb})
for k in range(users_count):
    event("app.opened", None, {"first_launch": k == 0}, device="dev-hot")
for user in half:
    event("shopping_list.removed", user, {"product": "prdX"})
for user in half:
    event("post.flagged", user, {"post": "pc19999", "reason": "spam"})
event("moderation.resolved", "mod", {"item": f"post:{post}", "action": "remove"})
event("post.deleted", celeb, {"post": other})
