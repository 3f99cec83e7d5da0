#!/usr/bin/env python3
"""A second, independent reading of the rules, held against gtio's answers on random small logs.

The read models (looks and `post P`, verdicts and `verdict P`, followers and following, suggestions, products
and `product ID`, places, prices, flaggers, the moderation queue and the decisions, a day's
`stats` with its quick-add acceptance, the funnel, retention and anomalies; docs/EVENTS.md) and the insights (trend, breakdown, funnel, retention, paths; docs/INSIGHTS.md)
are computed here again, in plain Python straight from the events, and compared with what
`gtio … --format csv` prints for the same log, in the latest view and in random `--as-of` and
`--at-seq` views. The logs are made to hit the rules' corners: a few ids each, so that posts are
deleted, flagged, decided and reused; times that go back; empty names and brands; lists with
repeats; suggestions shown twice or to the viewer themself.

Usage:
  scripts/crosscheck.py GTIO [FIRST_SEED [LAST_SEED]] [--events N] [--only models|insights] [--postgres URL] [--console]
GTIO is the binary to check (say .build/release/gtio). With --postgres (a server's URL, say from
scripts/pg-local.sh start), each log goes into a database of its own on that server, made with
`psql` and dropped after a seed without differences, rather than into an SQLite file. With
--console each question goes through the console's own reading of a command line
(`gtio -c 'looks popular --limit 0 --format csv'`), as the REPL takes it. Prints one line per seed; on a difference,
the log's path (its folder is kept) and the first rows that differ, and exits 1.
"""
import argparse
import csv
import datetime
import io
import json
import math
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

DAY = 86_400_000
UTC = datetime.timezone.utc


def iso(ms):
    moment = datetime.datetime.fromtimestamp(ms // 1000, UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S") + f".{ms % 1000:03d}Z"


def date_of(ms):
    return datetime.datetime.fromtimestamp(ms // 1000, UTC).date()


def name_order(name):
    """Names sort by code point, an empty one last (docs/INSIGHTS.md, Groups)."""
    return (name == "", name.encode())


# MARK: - Read models

PROVIDERS = ["facebook", "aol", "google", "twitter", "yahoo"]

def model_log(seed, count):
    """Events over a handful of users, posts, reviews and products."""
    r = random.Random(seed)
    # Now and then ids whose order differs between byte order and a reader's (case, punctuation,
    # an accent written two ways): ties "then id" must follow code points.
    users = [f"u{i}" for i in range(r.randint(3, 12))] + r.sample(["Zed", "amy", "a-b", "\u00e9", "e\u0301"], r.randint(0, 2))
    posts = [f"p{i}" for i in range(r.choice([4, 9, 40]))] + r.sample(["P1", "p-1", "\u00e9"], r.randint(0, 1))
    reviews = [f"r{i}" for i in range(r.randint(2, 6))]
    products = [f"x{i}" for i in range(r.randint(2, 5))]
    brands = ["Acme", "acme", "", "Zed", "Émile"]
    places = ["Soho", "soho", "", "Brooklyn", " Soho"]
    kinds = {"post.created": 8, "post.deleted": 2, "post.hearted": 6, "post.unhearted": 2, "post.voted": 12,
             "post.flagged": 8, "review.added": 4, "review.flagged": 4, "review.removed": 1, "product.hearted": 4,
             "product.unhearted": 2, "product.suggested": 3, "shopping_list.added": 3, "shopping_list.removed": 2,
             "user.privacy_changed": 2, "moderation.resolved": 5, "user.signed_up": 1, "user.followed": 14,
             "user.unfollowed": 2, "follow.approved": 3, "follow.declined": 1, "user.blocked": 1, "user.unblocked": 1,
             "user.profile_updated": 1, "post.shared": 2, "invite.sent": 1, "app.opened": 6,
             "user.profile_completed": 3, "quickadd.shown": 3, "review.agreed": 2,
             # Types no rule applies: they count as activity and as the day's events only.
             "track": 2, "user.signed_in": 1, "user.sign_in_failed": 1, "user.signed_out": 1,
             "quickadd.skipped": 1, "shopping_list.emailed": 1, "notification.seen": 1}
    events = []
    for index in range(count):
        kind = r.choices(list(kinds), list(kinds.values()))[0]
        user = r.choice(users)
        data = {}
        if kind == "post.created":
            data = {"post": r.choice(posts), "kind": r.choice(["outfit", "product"]), "voting": r.random() < 0.7}
            if r.random() < 0.6:
                data["product"] = r.choice(products)
            if r.random() < 0.7:
                data["price"] = r.choice([0, 3.0, 12.5, 100.25, r.randint(1, 500), round(r.uniform(1, 300), 2)])
            if r.random() < 0.6:
                data["brands"] = r.sample(brands, r.randint(0, 3)) + ([r.choice(brands)] if r.random() < 0.2 else [])
            if r.random() < 0.7:
                location = {"name": r.choice(places)}
                if r.random() < 0.6:
                    location["lat"] = r.choice([40.7, 40.72, 51.5])
                if r.random() < 0.6:
                    location["lon"] = r.choice([-74.0, -73.99, -0.1])
                data["location"] = location
        elif kind in ("post.deleted", "post.hearted", "post.unhearted"):
            data = {"post": r.choice(posts)}
        elif kind == "post.voted":
            data = {"post": r.choice(posts), "verdict": r.choice(["wear_it", "change_it"])}
        elif kind == "post.flagged":
            data = {"post": r.choice(posts)}
            if r.random() < 0.6:
                data["reason"] = r.choice(["spam", "nudity", "", "Spam", "b;c"])
        elif kind == "review.added":
            data = {"review": r.choice(reviews), "post": r.choice(posts), "text": "nice"}
        elif kind in ("review.flagged", "review.removed", "review.agreed"):
            data = {"review": r.choice(reviews)}
        elif kind == "quickadd.shown":
            # Now and then the viewer among them, or a user twice.
            data = {"suggested": r.sample(users, r.randint(1, min(4, len(users)))) + ([r.choice(users)] if r.random() < 0.2 else [])}
        elif kind in ("product.hearted", "product.unhearted", "shopping_list.added", "shopping_list.removed"):
            data = {"product": r.choice(products)}
        elif kind == "product.suggested":
            data = {"product": r.choice(products), "channel": r.choice(["gtio", "sms"])}
        elif kind == "user.privacy_changed":
            data = {"private": r.random() < 0.4}
        elif kind == "moderation.resolved":
            item = r.choice(["post", "review"])
            data = {"item": f"{item}:" + r.choice(posts if item == "post" else reviews),
                    "action": r.choice(["remove", "dismiss"])}
            if r.random() < 0.3:
                data["note"] = r.choice(["spam, clearly", "", "=ok", "fine\nreally"])
        elif kind == "user.signed_up":
            data = {"provider": r.choice(PROVIDERS), "name": r.choice([user.upper(), "ann", "Ann", "Émile", "bob", "@zoe", "=1+1", "ΟΔΟΣ", "οδοσ"])}
        elif kind == "user.profile_updated":
            data = {"name": r.choice(["zed", "Ann", "", "ébé", "ΣΑΣ"])} if r.random() < 0.8 else {}
        elif kind in ("user.followed", "user.unfollowed", "user.blocked", "user.unblocked"):
            data = {"target": r.choice(users)}
            if kind == "user.followed" and r.random() < 0.5:
                data["via"] = r.choice(["quickadd", "profile"])
        elif kind in ("follow.approved", "follow.declined"):
            data = {"follower": r.choice(users)}
        elif kind == "post.shared":
            data = {"post": r.choice(posts), "channel": r.choice(["twitter", "facebook"])}
        elif kind == "invite.sent":
            data = {"channel": "sms"}
        elif kind == "app.opened":
            data = {"first_launch": r.random() < 0.5}
        elif kind == "track":
            data = {"name": r.choice(["Home", "Shop"])}
        elif kind in ("user.signed_in", "user.sign_in_failed"):
            data = {"provider": r.choice(PROVIDERS)}
        elif kind == "notification.seen":
            data = {"notification": r.choice(["n1", "n2"])}
        at = 1_335_000_000_000 + r.randint(0, r.choice([5, 40]) * DAY)
        event = {"id": f"e{index}", "type": kind, "at": at, "data": data}
        if kind not in ("app.opened", "track", "user.sign_in_failed") or r.random() < 0.3:
            event["user"] = user
        if r.random() < (0.9 if kind in ("app.opened", "user.signed_up") else 0.5):
            event["device"] = r.choice(["d1", "d2", "d3", "d4", "d5", "d6"])
        events.append(event)
    return events


class Community:
    """The rules of docs/EVENTS.md that the seeds' read models and the queue need."""

    def __init__(self):
        self.private = {}
        self.posts = {}
        self.reviews = {}
        self.open_flags = {}   # item -> {user: (at, seq, reason)}
        self.flagged = {}      # user -> items
        self.upheld = {}
        self.dismissed = {}
        self.product_hearts = set()
        self.shopping_list = set()
        self.suggestions = {}
        self.products = set()
        self.edges = {}        # (follower, target) -> "following" | "requested"
        self.blocks = set()
        self.names = {}
        self.users = set()
        self.active = {}       # day -> users active
        self.devices = {}      # day -> devices active
        self.day_events = {}
        self.signups = {}      # user -> (day, provider) of the first sign-up
        self.actions = {}      # (day, action) -> count
        self.events = []       # in view, in seq order
        self.decisions = []    # the decisions applied: the rows of `decisions`
        self.shown = {}        # (viewer, suggested user) -> the day the pair was first shown
        self.accepted = set()  # shown pairs then followed with via: quickadd
        self.first_signup = {}
        self.ignored = {}      # type -> valid events the rules ignored
        self.now = None

    def live_post(self, post):
        found = self.posts.get(post)
        return found if found and found["life"] == "live" else None

    def live_review(self, review):
        found = self.reviews.get(review)
        if not found or found["removed"]:
            return None
        return found if self.live_post(found["post"]) else None

    def close(self, item):
        self.open_flags.pop(item, None)

    def end_post(self, post, life):
        self.posts[post]["life"] = life
        self.close("post:" + post)
        for review, found in self.reviews.items():
            if found["post"] == post:
                self.close("review:" + review)

    def count(self, at, action):
        key = (date_of(at), action)
        self.actions[key] = self.actions.get(key, 0) + 1

    def ignore(self, kind):
        self.ignored[kind] = self.ignored.get(kind, 0) + 1

    def flag(self, item, user, at, seq, reason):
        flags = self.open_flags.setdefault(item, {})
        if user in flags:
            return self.ignore("post.flagged" if item.startswith("post:") else "review.flagged")
        flags[user] = (at, seq, reason)
        self.count(at, "flags")
        self.flagged.setdefault(user, set()).add(item)

    def apply(self, event, seq):
        kind, user, data, at = event["type"], event.get("user"), event["data"], event["at"]
        self.now = at if self.now is None else max(self.now, at)
        self.events.append(event)
        day = date_of(at)
        if user:
            self.users.add(user)
            self.active.setdefault(day, set()).add(user)
        if event.get("device"):
            self.devices.setdefault(day, set()).add(event["device"])
        self.day_events[day] = self.day_events.get(day, 0) + 1
        if kind == "user.signed_up" and user not in self.signups:
            self.signups[user] = (day, data["provider"])
            self.first_signup[user] = event
        if kind in ("invite.sent", "product.suggested"):
            self.count(at, "invites" if kind == "invite.sent" else "suggestions")
        if kind == "post.shared":
            if self.live_post(data["post"]):
                self.count(at, "shares")
            else:
                self.ignore(kind)
        if kind == "user.privacy_changed":
            self.private[user] = data["private"]
            if not data["private"]:
                for pair, state in self.edges.items():
                    if pair[1] == user and state == "requested":
                        self.edges[pair] = "following"
        elif kind in ("user.signed_up", "user.profile_updated"):
            if data.get("name") is not None:
                self.names[user] = data["name"]
        elif kind == "user.followed":
            target = data["target"]
            self.users.add(target)
            if target != user and (user, target) not in self.blocks and (target, user) not in self.blocks \
                    and (user, target) not in self.edges:
                self.edges[(user, target)] = "requested" if self.private.get(target, False) else "following"
            else:
                self.ignore(kind)
            # Accepted when shown before (in seq) and the follow leaves an edge, new or not.
            if data.get("via") == "quickadd" and (user, target) in self.shown and (user, target) in self.edges:
                self.accepted.add((user, target))
        elif kind == "quickadd.shown":
            for suggested in data["suggested"]:
                self.shown.setdefault((user, suggested), day)
        elif kind == "review.agreed":
            review = self.live_review(data["review"])
            if not review or review["author"] == user or user in review["agreers"]:
                self.ignore(kind)
            else:
                review["agreers"].add(user)
        elif kind == "user.unfollowed":
            self.users.add(data["target"])
            if self.edges.pop((user, data["target"]), None) is None:
                self.ignore(kind)
        elif kind in ("follow.approved", "follow.declined"):
            pair = (data["follower"], user)
            self.users.add(data["follower"])
            if self.edges.get(pair) == "requested":
                if kind == "follow.approved":
                    self.edges[pair] = "following"
                else:
                    del self.edges[pair]
            else:
                self.ignore(kind)
        elif kind == "user.blocked":
            target = data["target"]
            self.users.add(target)
            # A block repeated changes nothing (no edge can form while it stands): a repeat, as with hearts.
            if target == user or (user, target) in self.blocks:
                return self.ignore(kind)
            self.blocks.add((user, target))
            self.edges.pop((user, target), None)
            self.edges.pop((target, user), None)
        elif kind == "user.unblocked":
            self.users.add(data["target"])
            if (user, data["target"]) not in self.blocks:
                return self.ignore(kind)
            self.blocks.discard((user, data["target"]))
        elif kind == "post.created":
            # One that reuses a post's id is ignored whole: it names no product (docs/DECISIONS.md).
            if "product" in data and data["post"] not in self.posts:
                self.products.add(data["product"])
            if data["post"] not in self.posts:
                self.count(at, "posts")
                self.posts[data["post"]] = {
                    "author": user, "kind": data["kind"], "voting": data["voting"], "created": at, "seq": seq,
                    "life": "live", "product": data.get("product"), "price": data.get("price"),
                    "brands": data.get("brands") or [], "location": data.get("location"),
                    "hearts": set(), "voters": set(), "wear_it": 0, "change_it": 0}
            else:
                self.ignore(kind)
        elif kind == "post.deleted":
            post = self.live_post(data["post"])
            if post and post["author"] == user:
                self.end_post(data["post"], "deleted")
            else:
                self.ignore(kind)
        elif kind in ("post.hearted", "post.unhearted"):
            post = self.live_post(data["post"])
            if post and kind == "post.hearted" and user not in post["hearts"]:
                self.count(at, "hearts")
            if not post or (user in post["hearts"]) == (kind == "post.hearted"):
                self.ignore(kind)
            if post:
                (post["hearts"].add if kind == "post.hearted" else post["hearts"].discard)(user)
        elif kind == "post.voted":
            post = self.live_post(data["post"])
            if post and post["voting"] and user not in post["voters"]:
                self.count(at, "votes")
                post["voters"].add(user)
                post["wear_it" if data["verdict"] == "wear_it" else "change_it"] += 1
            else:
                self.ignore(kind)
        elif kind == "post.flagged":
            if self.live_post(data["post"]):
                self.flag("post:" + data["post"], user, at, seq, data.get("reason"))
            else:
                self.ignore(kind)
        elif kind == "review.added":
            if self.live_post(data["post"]) and data["review"] not in self.reviews:
                self.count(at, "reviews")
                self.reviews[data["review"]] = {"author": user, "post": data["post"], "removed": False, "agreers": set()}
            else:
                self.ignore(kind)
        elif kind == "review.flagged":
            if self.live_review(data["review"]):
                self.flag("review:" + data["review"], user, at, seq, None)
            else:
                self.ignore(kind)
        elif kind == "review.removed":
            review = self.live_review(data["review"])
            if review and review["author"] == user:
                review["removed"] = True
                self.close("review:" + data["review"])
            else:
                self.ignore(kind)
        elif kind in ("product.hearted", "product.unhearted", "shopping_list.added", "shopping_list.removed"):
            self.products.add(data["product"])
            marks = self.product_hearts if kind.startswith("product.") else self.shopping_list
            adds = kind in ("product.hearted", "shopping_list.added")
            if ((user, data["product"]) in marks) == adds:
                self.ignore(kind)
            (marks.add if adds else marks.discard)((user, data["product"]))
        elif kind == "product.suggested":
            self.products.add(data["product"])
            self.suggestions[data["product"]] = self.suggestions.get(data["product"], 0) + 1
        elif kind == "moderation.resolved":
            item = data["item"]
            flaggers = self.open_flags.get(item)
            if not flaggers:
                return self.ignore(kind)
            first = min(flaggers.values(), key=lambda flag: (flag[0], flag[1]))[0]
            self.decisions.append([seq, iso(at), item, data["action"], user, len(flaggers), iso(first),
                                   max(0, at - first) / 3_600_000, data.get("note", "")])
            credited = self.upheld if data["action"] == "remove" else self.dismissed
            for flagger in flaggers:
                credited.setdefault(flagger, set()).add(item)
            kind_of_item, ident = item.split(":", 1)
            if data["action"] == "remove":
                if kind_of_item == "post" and ident in self.posts:
                    self.end_post(ident, "removed")
                elif kind_of_item == "review" and ident in self.reviews:
                    self.reviews[ident]["removed"] = True
            self.close(item)

    def hidden(self, item):
        return len(self.open_flags.get(item, {})) >= 3

    def points(self, post_id):
        post = self.posts[post_id]
        reviews = sum(1 for review, found in self.reviews.items()
                      if found["post"] == post_id and self.live_review(review))
        return len(post["hearts"]) + len(post["voters"]) + 2 * reviews

    def eligible(self):
        return [post_id for post_id, post in self.posts.items()
                if post["life"] == "live" and not self.hidden("post:" + post_id)
                and not self.private.get(post["author"], False) and post["created"] <= self.now]

    def name_order(self, user):
        name = self.names.get(user) or user
        return (name.lower().encode(), user.encode())

    def follower_rows(self, user):
        who = [a for (a, b), state in self.edges.items() if b == user and state == "following"]
        return [[a, self.names.get(a, "")] for a in sorted(who, key=self.name_order)]

    def following_rows(self, user):
        who = [b for (a, b), state in self.edges.items() if a == user and state == "following"]
        return [[b, self.names.get(b, "")] for b in sorted(who, key=self.name_order)]

    def suggestion_rows(self, user, page, size):
        authors = {self.posts[p]["author"] for p in self.eligible()}
        followers = lambda c: sum(1 for (a, b), state in self.edges.items() if b == c and state == "following")
        rows = []
        for candidate in authors:
            if candidate == user or (user, candidate) in self.edges or (user, candidate) in self.blocks \
                    or (candidate, user) in self.blocks or self.private.get(candidate, False):
                continue
            mutual = sum(1 for (a, f), state in self.edges.items() if a == user and state == "following"
                         and self.edges.get((f, candidate)) == "following")
            rows.append((candidate, mutual, followers(candidate)))
        rows.sort(key=lambda row: (-row[1], -row[2], row[0].encode()))
        rows = rows[(page - 1) * size:page * size]
        return [[(page - 1) * size + rank + 1, c, m, f, f"followed by {m} people you follow" if m else "popular"]
                for rank, (c, m, f) in enumerate(rows)]

    def day_row(self, day):
        """`stats --date DAY`: the figures of EVENTS.md, Engagement."""
        def active_over(days):
            return len(set().union(*(self.active.get(day - datetime.timedelta(days=k), set()) for k in range(days))))
        signups = [provider for (signed, provider) in self.signups.values() if signed == day]
        return ([day.isoformat(), len(self.active.get(day, ())), active_over(7), active_over(30),
                 len(self.devices.get(day, ())), len(signups)]
                + [signups.count(p) for p in PROVIDERS]
                + [self.actions.get((day, a), 0) for a in ("posts", "hearts", "votes", "reviews", "flags", "shares",
                                                            "invites", "suggestions")]
                + [self.day_events.get(day, 0)]
                + self.acceptance_cells(day))

    def acceptance_cells(self, day):
        """Quick-add pairs first shown on `day`, those accepted since, and the ratio (empty: none shown)."""
        shown = [pair for pair, first in self.shown.items() if first == day]
        accepted = sum(pair in self.accepted for pair in shown)
        return [len(shown), accepted, accepted / len(shown) if shown else ""]

    def onboarding_rows(self, first_day, last_day):
        """The onboarding funnel of the devices whose first `app.opened` falls in the days given."""
        opened = {}
        for event in self.events:
            device = event.get("device")
            if event["type"] == "app.opened" and device and (device not in opened or event["at"] < opened[device]):
                opened[device] = event["at"]
        reached = {}
        for device, start in opened.items():
            if not first_day <= date_of(start) <= last_day:
                continue
            best = 1
            for user, signup in self.first_signup.items():
                if signup.get("device") != device or not start <= signup["at"] <= start + 7 * DAY:
                    continue
                step, at = 2, signup["at"]
                for kind in ("user.profile_completed", "user.followed"):
                    times = [e["at"] for e in self.events if e["type"] == kind and e.get("user") == user
                             and at <= e["at"] <= start + 7 * DAY
                             and (kind != "user.followed" or e["data"].get("via") == "quickadd")]
                    if not times:
                        break
                    step, at = step + 1, min(times)
                best = max(best, step)
            reached[device] = best
        rows, before = [], None
        entered = len(reached)
        for step, name in enumerate(["app.opened", "user.signed_up", "user.profile_completed", "user.followed via quickadd"], 1):
            n = sum(1 for got in reached.values() if got >= step)
            rows.append([name, n, n / before if step > 1 and before else None, n / entered if entered else None])
            before = n
        return rows

    def retention_rows(self, first_day, last_day):
        """Retention by sign-up day: day N counted once it has begun by now."""
        cohorts = {}
        for user, (day, _) in self.signups.items():
            if first_day <= day <= last_day:
                cohorts.setdefault(day, []).append(user)
        today = date_of(self.now)
        rows = []
        for day in sorted(cohorts):
            row = [day.isoformat(), len(cohorts[day])]
            for n in (1, 7, 30):
                later = day + datetime.timedelta(days=n)
                if later > today:
                    row += [None, None]
                    continue
                kept = sum(1 for user in cohorts[day] if user in self.active.get(later, ()))
                row += [kept, kept / len(cohorts[day])]
            rows.append(row)
        return rows

    def anomaly_rows(self):
        """Ignored events by type (gtio splits them further by reason)."""
        return sorted([[kind, count] for kind, count in self.ignored.items()], key=lambda row: row[0])

    def live_review_count(self, post_id):
        return sum(1 for review, found in self.reviews.items() if found["post"] == post_id and self.live_review(review))

    def look_rows(self, tab):
        rows = []
        for post_id in self.eligible():
            post = self.posts[post_id]
            points = self.points(post_id)
            age = max(0, self.now - post["created"]) / 3_600_000
            if tab == "popular":
                score = points / (age + 2) ** 1.8
            elif tab == "new":
                score = age
            elif tab == "top":
                score = points
            else:
                if post["wear_it"] + post["change_it"] < 5:
                    continue
                score = wilson(post["wear_it"], post["change_it"])
            rows.append((post, post_id, points, score))
        if tab == "new":
            rows.sort(key=lambda row: (-row[0]["created"], row[1].encode()))
        else:
            rows.sort(key=lambda row: (-row[3], -row[0]["created"], row[1].encode()))
        return [[rank + 1, post_id, post["author"], points, len(post["hearts"]), len(post["voters"]),
                 self.live_review_count(post_id), score] for rank, (post, post_id, points, score) in enumerate(rows)]

    def post_row(self, post_id):
        """`post P` of a live post: its figures, flags, place in popular, and what it was created with
        (the price as sent, an outfit's too; its distinct brands by code point, as the card lists them)."""
        post = self.posts[post_id]
        w, c = post["wear_it"], post["change_it"]
        label = "no votes" if w + c == 0 else "pending" if w + c < 5 else "wear it" if w > c else "change it" if c > w else "split"
        flaggers = len(self.open_flags.get("post:" + post_id, {}))
        ranks = {row[1]: row[0] for row in self.look_rows("popular")}
        place = post["location"] or {}
        return [post_id, post["author"], post["kind"], iso(post["created"]), "live", self.points(post_id),
                len(post["hearts"]), w, c, self.live_review_count(post_id), label, flaggers,
                "true" if flaggers >= 3 else "false", ranks.get(post_id, ""), post["product"] or "", post["price"],
                place.get("name"), place.get("lat"), place.get("lon"),
                ";".join(sorted(set(post["brands"]), key=lambda brand: brand.encode()))]

    def verdict_rows(self):
        rows = []
        for post_id, post in self.posts.items():
            w, c = post["wear_it"], post["change_it"]
            if post["life"] != "live" or w + c == 0:
                continue
            label = "pending" if w + c < 5 else "wear it" if w > c else "change it" if c > w else "split"
            rows.append([post_id, w, c, w / (w + c), wilson(w, c), label])
        return sorted(rows, key=lambda row: row[0].encode())

    def product_rows(self):
        rows = []
        for product in self.products:
            hearts = sum(1 for (_, marked) in self.product_hearts if marked == product)
            lists = sum(1 for (_, marked) in self.shopping_list if marked == product)
            suggestions = self.suggestions.get(product, 0)
            live = sorted((post["seq"], post["price"]) for post in self.posts.values()
                          if post["life"] == "live" and post["product"] == product)
            prices = [price for (_, price) in live if price is not None]
            if hearts + lists + suggestions + len(live) > 0:
                rows.append([product, hearts, lists, suggestions, len(live), prices[-1] if prices else None])
        rows.sort(key=lambda row: (-row[1], -row[2], -row[3], row[0].encode()))
        return [[rank + 1] + row for rank, row in enumerate(rows)]

    def place_rows(self, near=None, km=5.0):
        groups = {}
        for post_id in self.eligible():
            post = self.posts[post_id]
            location = post["location"]
            if not location:
                continue
            if near and ("lat" not in location or "lon" not in location
                         or haversine(near, (location["lat"], location["lon"])) > km):
                continue
            group = groups.setdefault(location["name"], [0, set(), 0])
            group[0] += 1
            group[1].add(post["author"])
            group[2] += self.points(post_id)
        rows = sorted(groups.items(), key=lambda kv: (-kv[1][2], -kv[1][0], kv[0].encode()))
        return [[rank + 1, name, posts, len(authors), points] for rank, (name, (posts, authors, points)) in enumerate(rows)]

    def price_rows(self, by=None):
        groups = {}
        for post in self.posts.values():
            if post["life"] != "live" or post["kind"] != "product" or post["price"] is None:
                continue
            if by is None:
                names = ["all"]
            elif by == "brand":
                names = set(post["brands"])
            else:
                names = [post["location"]["name"]] if post["location"] else []
            for name in names:
                groups.setdefault(name, []).append(post["price"])
        rows = []
        for name, prices in groups.items():
            prices.sort()
            n = len(prices)
            median = prices[n // 2] if n % 2 else (prices[n // 2 - 1] + prices[n // 2]) / 2
            rows.append([name, n, prices[0], median, sum(prices) / n, prices[(9 * n + 9) // 10 - 1], prices[-1]])
        rows.sort(key=lambda row: (-row[1], row[0].encode()))
        return rows

    def flagger_rows(self):
        rows = []
        for user, items in self.flagged.items():
            upheld, dismissed = len(self.upheld.get(user, ())), len(self.dismissed.get(user, ()))
            accuracy = upheld / (upheld + dismissed) if upheld + dismissed else None
            rows.append([user, len(items), upheld, dismissed, accuracy])
        rows.sort(key=lambda row: (-row[1], row[0].encode()))
        return rows

    def queue_rows(self, reason=None, author=None, at_least=None):
        rows = []
        for item, flags in self.open_flags.items():
            if not flags:
                continue
            first = min((at, seq) for (at, seq, _) in flags.values())
            reasons = sorted({reason for (_, _, reason) in flags.values() if reason}, key=str.encode)
            kind, ident = item.split(":", 1)
            written_by = (self.posts if kind == "post" else self.reviews)[ident]["author"]
            if (reason is not None and reason not in reasons) or (author is not None and written_by != author) \
                    or (at_least is not None and len(flags) < at_least):
                continue
            rows.append((item, len(flags), first, len(flags) >= 3, ";".join(reasons)))
        rows.sort(key=lambda row: (-row[1], row[2], row[0].encode()))
        return [[item, n, iso(first[0]), "true" if hidden else "false", reasons]
                for (item, n, first, hidden, reasons) in rows]


def wilson(w, c):
    n, z = w + c, 1.959964
    p = w / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, (centre - spread) / (1 + z * z / n))


def haversine(a, b):
    lat1, lat2 = math.radians(a[0]), math.radians(b[0])
    dlat, dlon = lat2 - lat1, math.radians(b[1] - a[1])
    h = math.sin(dlat / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin(dlon / 2) ** 2
    return 2 * 6371.0088 * math.asin(math.sqrt(h))


def check_models(ask, events, view):
    """Differences between gtio and this reading of the read models, the queue and the anomalies."""
    community = Community()
    for seq, event in enumerate(events, 1):
        if view.includes(event, seq):
            community.apply(event, seq)
    if view.now is not None:
        community.now = view.now
    everything = ["--limit", "0"]
    questions = []  # (name, this reading's rows, gtio's)
    days = sorted(community.day_events)
    for day in sorted({days[0], days[len(days) // 2], days[-1], days[-1] + datetime.timedelta(days=3)}):
        questions.append((f"stats --date {day}", [community.day_row(day)], ask("stats", "--date", day.isoformat())))
    first_day, last_day = date_of(min(e["at"] for e in community.events)), date_of(community.now)
    window = ["--from", first_day.isoformat(), "--to", last_day.isoformat()]
    questions.append(("funnel", community.onboarding_rows(first_day, last_day), ask("funnel", *window)))
    questions.append(("retention", community.retention_rows(first_day, last_day), ask("retention", *window)))
    by_type = {}
    for kind, _, count in ask("anomalies"):
        by_type[kind] = by_type.get(kind, 0) + int(count)
    questions.append(("anomalies by type", community.anomaly_rows(), sorted([k, n] for k, n in by_type.items())))
    for tab in ("popular", "new", "top", "wear-it"):
        questions.append((f"looks {tab}", community.look_rows(tab), ask("looks", tab, *everything)))
    # No order is asked of `verdicts`: both sides by post.
    questions.append(("verdicts", community.verdict_rows(),
                      sorted(ask("verdicts", *everything), key=lambda row: row[0].encode())))
    for user in sorted(community.users)[:4]:
        questions += [
            (f"followers {user}", community.follower_rows(user), ask("followers", user, *everything)),
            (f"following {user}", community.following_rows(user), ask("following", user, *everything)),
            (f"suggest {user}", community.suggestion_rows(user, 1, 3), ask("suggest", user, "--page-size", "3")),
            (f"suggest {user} --page 2", community.suggestion_rows(user, 2, 3),
             ask("suggest", user, "--page", "2", "--page-size", "3")),
        ]
    verdicts = {row[0]: row for row in community.verdict_rows()}
    for post in sorted(community.posts)[:3]:
        # A post without a counted vote, deleted or removed, has no row (EVENTS.md: verdicts).
        questions.append((f"verdict {post}", [verdicts[post]] if post in verdicts else [], ask("verdict", post)))
    for post in sorted(p for p in community.posts if community.live_post(p))[:3]:
        questions.append((f"post {post}", [community.post_row(post)], ask("post", post)))
    products = {row[1]: row for row in community.product_rows()}
    for product in sorted(community.products)[:3]:
        # Ranked among `products`, or all zeros and no rank when nothing counts now.
        card = products.get(product, ["", product, 0, 0, 0, 0, ""])
        questions.append((f"product {product}", [card], ask("product", product)))
    questions += [
        ("decisions", community.decisions, ask("decisions", *everything)),
        ("products", community.product_rows(), ask("products", *everything)),
        ("places", community.place_rows(), ask("places")),
        ("places --near", community.place_rows((40.71, -74.0), 3.0), ask("places", "--near", "40.71,-74.0", "--km", "3")),
        ("prices", community.price_rows(), ask("prices")),
        ("prices --by brand", community.price_rows("brand"), ask("prices", "--by", "brand")),
        ("prices --by place", community.price_rows("place"), ask("prices", "--by", "place")),
        ("flaggers", community.flagger_rows(), ask("flaggers", *everything)),
        ("flags", community.queue_rows(), ask("flags", *everything)),
        ("flags --reason spam", community.queue_rows(reason="spam"), ask("flags", *everything, "--reason", "spam")),
        ("flags --reason b;c --min-flaggers 2", community.queue_rows(reason="b;c", at_least=2),
         ask("flags", *everything, "--reason", "b;c", "--min-flaggers", "2")),
        ("flags --author u1", community.queue_rows(author="u1"), ask("flags", *everything, "--author", "u1")),
    ]
    return [difference for (name, mine, theirs) in questions for difference in compare(name, mine, theirs)]


# MARK: - Insights

FIELDS = {
    "app.opened": ["first_launch", "upgraded_from"],
    "track": ["name", "screen", "props"],
    "user.signed_up": ["provider", "name"],
    "post.created": ["post", "kind", "voting", "description", "brands", "frames", "product", "price", "location"],
    "post.voted": ["post", "verdict"],
    "post.hearted": ["post"],
    "product.suggested": ["product", "channel", "to"],
    "user.followed": ["target", "via"],
    "invite.sent": ["channel"],
    "quickadd.shown": ["suggested"],
    "user.signed_in": ["provider"],
    "user.sign_in_failed": ["provider", "reason"],
    "user.signed_out": [],
    "notification.seen": ["notification"],
}
ANONYMOUS = ("track", "app.opened", "user.sign_in_failed")


def insight_log(seed, count):
    """Events of a few users and devices over a few weeks, in sessions and with gaps."""
    r = random.Random(seed)
    users = [f"u{i}" for i in range(r.randint(3, 9))]
    devices = [f"d{i}" for i in range(r.randint(2, 6))]
    screens = ["Home", "Shop", "Look", "Profile", "Outfit Detail", "Outfit, Detail", "Éte", "zoom", "@Me", "-x"]
    events = []
    clock = 1_335_225_600_000 + r.randint(-3, 3) * DAY
    for index in range(count):
        clock += r.choice([0, 1, 1000, 60_000, 600_000, 1_800_000, 1_800_001, 3_600_000, 20 * 3_600_000])
        at = clock + (r.randint(-2 * DAY, 0) if r.random() < 0.05 else 0)
        kind = r.choices(list(FIELDS), [3, 10, 2, 3, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1])[0]
        event = {"id": f"e{index}", "type": kind, "at": at}
        if kind not in ANONYMOUS or r.random() < 0.72:
            event["user"] = r.choice(users)
        if r.random() < 0.7:
            event["device"] = r.choice(devices)
        data = {}
        if kind == "app.opened":
            data["first_launch"] = r.random() < 0.3
            if r.random() < 0.3:
                data["upgraded_from"] = r.choice(["1.0", "2.0"])
        elif kind == "track":
            data["name"] = r.choice(screens)
            if r.random() < 0.5:
                data["screen"] = r.choice(["9.1", "3.1", ""])
            if r.random() < 0.5:
                data["props"] = {"tab": r.choice(["a", "b"]), "n": r.choice([1, 2.5, 3.0, True, 1e16, 123456789012345678, 0.1, -1, -2.5])}
                if r.random() < 0.3:
                    data["props"]["tags"] = r.choice([[], ["x"], ["x", "y", "x"], [1, "1"]])
                if r.random() < 0.2:
                    data["props"]["at"] = r.choice([{"a": 1, "b": [1, 2.5]}, {}, "s,t"])
        elif kind == "user.signed_up":
            data = {"provider": r.choice(["google", "facebook", "aol"]), "name": "N"}
        elif kind == "post.created":
            data = {"post": f"p{index}", "kind": r.choice(["outfit", "product"]), "voting": r.random() < 0.5}
            if r.random() < 0.5:
                data["price"] = r.choice([0, 12.5, 120.0, 3, 0.1, 1e16, 1e21, 2.5e-7])
            if r.random() < 0.5:
                data["brands"] = r.choice([[], ["A"], ["A", "B"], ["B", "B"], ["Z", "a"]])
            if r.random() < 0.5:
                data["location"] = {"name": r.choice(["Soho", "", "NoHo"])}
            if r.random() < 0.3:
                data["frames"] = r.choice([1, 3])
        elif kind == "post.voted":
            data = {"post": f"p{r.randint(0, 20)}", "verdict": r.choice(["wear_it", "change_it"])}
        elif kind == "post.hearted":
            data = {"post": f"p{r.randint(0, 20)}"}
        elif kind == "product.suggested":
            data = {"product": r.choice(["x1", "x2"]), "channel": r.choice(["gtio", "sms"])}
            if r.random() < 0.5:
                data["to"] = r.choice(users)
        elif kind == "user.followed":
            data = {"target": r.choice(users)}
            if r.random() < 0.7:
                data["via"] = r.choice(["quickadd", "profile"])
        elif kind == "invite.sent":
            data = {"channel": r.choice(["sms", "email"])}
        elif kind == "quickadd.shown":
            data = {"suggested": r.sample(users, r.randint(0, 2))}
        elif kind in ("user.signed_in", "user.sign_in_failed"):
            data = {"provider": r.choice(PROVIDERS)}
            if kind == "user.sign_in_failed" and r.random() < 0.5:
                data["reason"] = r.choice(["wrong password", ""])
        elif kind == "notification.seen":
            data = {"notification": r.choice(["n1", "n2"])}
        event["data"] = data
        events.append(event)
    return events


def value_text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, dict):
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return value


def texts(value):
    """A value's texts: one, each distinct element of a list, or `(none)` for nothing."""
    if value is None:
        return ["(none)"]
    if not isinstance(value, list):
        return [value_text(value)]
    found = []
    for element in value:
        if element is not None and value_text(element) not in found:
            found.append(value_text(element))
    return found or ["(none)"]


class EventsInView:
    """The events an insight sees, with what `user.*` properties read."""

    def __init__(self, events):
        self.events = events
        self.signups = {}
        for event in events:
            if event["type"] == "user.signed_up" and event["user"] not in self.signups:
                self.signups[event["user"]] = event

    def values(self, event, prop):
        """The texts of `prop` on `event`: several for a list, `(none)` when absent."""
        if prop in ("type", "user", "device"):
            return [event[prop]] if event.get(prop) is not None else ["(none)"]
        moment = datetime.datetime.fromtimestamp(event["at"] // 1000, UTC)
        if prop == "day":
            return [moment.date().isoformat()]
        if prop == "hour":
            return [f"{moment.hour:02d}"]
        if prop == "weekday":
            return [["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][moment.weekday()]]
        if prop in ("user.provider", "user.signup_day"):
            signup = self.signups.get(event.get("user"))
            if not signup:
                return ["(none)"]
            return [signup["data"]["provider"] if prop == "user.provider" else date_of(signup["at"]).isoformat()]
        if prop.startswith("props."):
            props = event["data"].get("props") if event["type"] == "track" else None
            return texts(props.get(prop[6:]) if isinstance(props, dict) else None)
        if prop == "location":
            location = event["data"].get("location") if event["type"] == "post.created" else None
            return [location["name"]] if isinstance(location, dict) else ["(none)"]
        return texts(event["data"].get(prop) if prop in FIELDS.get(event["type"], []) else None)

    def number(self, event, prop):
        if prop.startswith("props."):
            value = (event["data"].get("props") or {}).get(prop[6:]) if event["type"] == "track" else None
        else:
            value = event["data"].get(prop) if prop in FIELDS.get(event["type"], []) else None
        # Sums and averages are of doubles, as the log keeps numbers.
        return None if isinstance(value, bool) or not isinstance(value, (int, float)) else float(value)

    def matches(self, event, selector, wheres=()):
        types, filters = selector
        if types is not None and event["type"] not in types:
            return False
        return all((value in self.values(event, prop)) == equal for (prop, equal, value) in list(filters) + list(wheres))


def parse_selector(text):
    types, filters = text, []
    if "[" in text:
        types, rest = text.split("[", 1)
        parts = []
        for piece in rest[:-1].split(","):
            # A comma starts a new filter only when a name and = or != follow it.
            if parts and not re.match(r"^[A-Za-z_][A-Za-z0-9_.]*!?=", piece):
                parts[-1] += "," + piece
            else:
                parts.append(piece)
        filters = [parse_filter(part) for part in parts]
    return (None if types == "*" else types.split(",")), filters


def parse_filter(text):
    if "!=" in text:
        prop, value = text.split("!=", 1)
        return (prop, False, value)
    prop, value = text.split("=", 1)
    return (prop, True, value)


def window_of(first, last):
    start = int(datetime.datetime.combine(first, datetime.time(), UTC).timestamp() * 1000)
    end = int(datetime.datetime.combine(last, datetime.time(), UTC).timestamp() * 1000) + DAY - 1
    return start, end


def bucket_of(ms, interval):
    day = date_of(ms)
    if interval == "day":
        return day.isoformat()
    if interval == "week":
        return (day - datetime.timedelta(days=day.weekday())).isoformat()
    return day.strftime("%Y-%m")


def buckets_between(first, last, interval):
    found, day = [], first
    while day <= last:
        label = bucket_of(window_of(day, day)[0], interval)
        if label not in found:
            found.append(label)
        day += datetime.timedelta(days=1)
    return found


def measured(view, events, measure):
    if measure == "events":
        return len(events)
    if measure in ("users", "devices"):
        return len(actors(events, measure))
    kind, prop = measure.split(":", 1)
    numbers = [n for n in (view.number(event, prop) for event in events) if n is not None]
    if kind == "sum":
        return sum(numbers)
    return sum(numbers) / len(numbers) if numbers else None


def actors(events, measure):
    key = "user" if measure == "users" else "device"
    return {event.get(key) for event in events} - {None}


def value_order(value):
    """Larger first; an empty value (an average of nothing) last."""
    return (value is None, -(value or 0))


def ranked_groups(view, events, by, measure, top, leave_out=None):
    groups = {}
    for event in events:
        for value in view.values(event, by):
            if value != leave_out:
                groups.setdefault(value, []).append(event)
    order = sorted(groups, key=lambda g: (value_order(measured(view, groups[g], measure)), name_order(g)))
    kept = order if top == 0 else order[:top]
    return groups, kept, [g for g in order if g not in kept]


def sums_others(measure):
    return measure == "events" or measure.startswith("sum:")


def trend(view, selector, first, last, measure, by, interval, top, wheres):
    start, end = window_of(first, last)
    events = [e for e in view.events if start <= e["at"] <= end and view.matches(e, selector, wheres)]
    labels = buckets_between(first, last, interval)
    if by is None:
        return [[label, "all", measured(view, [e for e in events if bucket_of(e["at"], interval) == label], measure)]
                for label in labels]
    if not events:
        return []
    groups, kept, cut = ranked_groups(view, events, by, measure, top)
    rows = []
    for label in labels:
        def in_bucket(group):
            return [e for e in groups[group] if bucket_of(e["at"], interval) == label]
        bucket_rows = sorted(([label, group, measured(view, in_bucket(group), measure)] for group in kept),
                             key=lambda row: (value_order(row[2]), name_order(row[1])))
        if cut and sums_others(measure):
            bucket_rows.append([label, "(other)", sum(measured(view, in_bucket(group), measure) for group in cut)])
        rows += bucket_rows
    return rows


def breakdown(view, selector, first, last, by, measure, top, wheres, leave_out=None):
    """One value per group over the window, with its share; `leave_out` keeps a value out of both."""
    start, end = window_of(first, last)
    events = [e for e in view.events if start <= e["at"] <= end and view.matches(e, selector, wheres)]
    groups, kept, cut = ranked_groups(view, events, by, measure, top, leave_out)
    values = {group: measured(view, groups[group], measure) for group in groups}
    if measure in ("users", "devices"):
        total = len(set().union(*(actors(groups[g], measure) for g in groups))) if groups else 0
    elif sums_others(measure):
        total = sum(values.values())
    else:
        total = None
    rows = [[group, values[group], values[group] / total if total else None] for group in kept]
    if cut and sums_others(measure):
        others = sum(values[group] for group in cut)
        rows.append(["(other)", others, others / total if total else None])
    return rows


def top_values(view, first, last, dimension, measure, limit, wheres):
    """`breakdown * --by DIMENSION` without `(none)`, in the ranking or in the shares."""
    return breakdown(view, (None, []), first, last, dimension, measure, limit, wheres, leave_out="(none)")


def by_actor(view, actor, keep):
    timelines = {}
    for event in sorted(view.events, key=lambda e: (e["at"], e["id_seq"])):
        if event.get(actor) is not None and keep(event):
            timelines.setdefault(event[actor], []).append(event)
    return timelines


def median(values):
    values = sorted(values)
    n = len(values)
    return values[n // 2] if n % 2 else (values[n // 2 - 1] + values[n // 2]) / 2


def funnel(view, steps, first, last, within, by, actor, wheres):
    start, end = window_of(first, last)
    selectors = [parse_selector(step) for step in steps]
    journeys = []
    for timeline in by_actor(view, actor, lambda e: True).values():
        entry = next((i for i, e in enumerate(timeline)
                      if start <= e["at"] <= end and view.matches(e, selectors[0], wheres)), None)
        if entry is None:
            continue
        reached, at = [timeline[entry]], entry
        for selector in selectors[1:]:
            at = next((i for i in range(at + 1, len(timeline))
                       if timeline[i]["at"] <= reached[0]["at"] + within
                       and view.matches(timeline[i], selector, wheres)), None)
            if at is None:
                break
            reached.append(timeline[at])
        journeys.append(reached)
    groups = {}
    for reached in journeys:
        for group in (view.values(reached[0], by) if by else ["all"]):
            groups.setdefault(group, []).append(reached)
    if not groups:
        if by:
            return []
        groups = {"all": []}
    rows = []
    for group in sorted(groups, key=lambda g: (-len(groups[g]), name_order(g))):
        entered, before = len(groups[group]), None
        for k, step in enumerate(steps):
            who = [reached for reached in groups[group] if len(reached) > k]
            hours = [(r[k]["at"] - r[k - 1]["at"]) / 3_600_000 for r in who] if k else []
            rows.append([k + 1, step, group, len(who), len(who) / entered if entered else None,
                         1 if k == 0 else (len(who) / before if before else None), median(hours) if hours else None])
            before = len(who)
    return rows


def retention(view, start_step, return_step, first, last, interval, periods, wheres):
    start, end = window_of(first, last)
    starts, returns = parse_selector(start_step), parse_selector(return_step)
    periods = periods or (7 if interval == "day" else 4)
    days = 1 if interval == "day" else 7
    cohort = {}
    for user, timeline in by_actor(view, "user", lambda e: True).items():
        entry = next((e for e in timeline if start <= e["at"] <= end and view.matches(e, starts, wheres)), None)
        if entry:
            cohort[user] = datetime.date.fromisoformat(bucket_of(entry["at"], interval))
    came_back = {}
    for event in view.events:
        if event.get("user") in cohort and view.matches(event, returns, wheres):
            came_back.setdefault(event["user"], set()).add(datetime.date.fromisoformat(bucket_of(event["at"], interval)))
    rows = []
    for label in sorted(set(cohort.values())):
        members = [user for user in cohort if cohort[user] == label]
        for k in range(1, periods + 1):
            period = label + datetime.timedelta(days=k * days)
            retained = sum(1 for user in members if period in came_back.get(user, ()))
            rows.append([label.isoformat(), len(members), k, retained, retained / len(members)])
    return rows


def paths(view, first, last, start_step, depth, top, actor, wheres):
    start, end = window_of(first, last)
    begins = parse_selector(start_step) if start_step else None
    keep = lambda e: e["type"] == "track" and start <= e["at"] <= end and view.matches(e, (None, []), wheres)
    transitions = {}
    for who, timeline in by_actor(view, actor, keep).items():
        sessions = []
        for event in timeline:
            if not sessions or event["at"] - sessions[-1][-1]["at"] > 1_800_000:
                sessions.append([])
            sessions[-1].append(event)
        for session in sessions:
            steps = [e for i, e in enumerate(session) if i == 0 or e["data"]["name"] != session[i - 1]["data"]["name"]]
            if begins:
                at = next((i for i, e in enumerate(steps) if view.matches(e, begins)), None)
                if at is None:
                    continue
                steps = steps[at:]
            names = [e["data"]["name"] for e in steps[:depth]]
            for s in range(len(names) - 1):
                seen = transitions.setdefault((s + 1, names[s], names[s + 1]), [0, set()])
                seen[0] += 1
                seen[1].add(who)
    rows = []
    for s in range(1, depth):
        made = sorted(((key, seen) for key, seen in transitions.items() if key[0] == s),
                      key=lambda kv: (-kv[1][0], name_order(kv[0][1]), name_order(kv[0][2])))
        rows += [[s, key[1], key[2], len(seen[1]), seen[0]] for key, seen in (made[:top] if top else made)]
    return rows


def check_insights(ask, events, view, r):
    """Differences between gtio and this reading of the insights, on questions drawn by `r`."""
    in_view = EventsInView([dict(e, id_seq=seq) for seq, e in enumerate(events, 1) if view.includes(e, seq)])
    if not in_view.events:
        return []
    now = view.now if view.now is not None else max(e["at"] for e in in_view.events)
    # A window that holds no day of the log is refused (docs/DECISIONS.md): keep one day in.
    first = min(date_of(min(e["at"] for e in in_view.events)) + datetime.timedelta(days=r.randint(0, 2)),
                date_of(max(e["at"] for e in in_view.events)))
    # Up to two days before now's date, or up to three past it: buckets after now are listed.
    last = max(first, date_of(now) + datetime.timedelta(days=r.randint(-2, 3)))
    options = ["--from", first.isoformat(), "--to", last.isoformat()]
    wheres = []
    if r.random() < 0.5:
        where = r.choice(["user!=u1", "device=(none)", "name!=Home", "brands=A", "user.provider=google", "price!=0",
                          "name=Outfit, Detail", "props.tags=(none)", "props.at={}"])
        wheres, options = [parse_filter(where)], options + ["--where", where]
    question = lambda *words: ask(*words, *options)
    selectors = ["track", "track[name=Shop]", "post.created,post.voted", "*", "post.created[price!=0]",
                 "track[name=Outfit, Detail]", "track[name!=Outfit, Detail,props.tags=x]", "track[props.tags!=x]",
                 "track[props.tab=a]", "post.created[brands=B]", "post.created[brands!=A]",
                 "app.opened[first_launch=true]", "post.created[location=(none)]", "user.signed_in,user.sign_in_failed",
                 "user.sign_in_failed[reason=(none)]"]
    props = ["name", "brands", "user.provider", "price", "props.n", "device", "weekday", "location", "verdict",
             "to", "user.signup_day", "screen", "props.tags", "props.at", "hour", "day", "suggested", "first_launch",
             "provider", "reason", "notification"]
    measures = ["events", "users", "devices", "sum:price", "avg:price", "sum:props.n", "avg:frames"]
    found = []
    for _ in range(6):
        selector, measure, by = r.choice(selectors), r.choice(measures), r.choice(props + [None])
        interval, top = r.choice(["day", "week", "month"]), r.choice([0, 1, 2, 10])
        words = ["trend", selector, "--measure", measure, "--interval", interval, "--top", str(top)] + (["--by", by] if by else [])
        found += compare(" ".join(words), trend(in_view, parse_selector(selector), first, last, measure, by, interval, top, wheres),
                         question(*words))
        by = by or "name"
        words = ["breakdown", selector, "--by", by, "--measure", measure, "--top", str(top)]
        found += compare(" ".join(words), breakdown(in_view, parse_selector(selector), first, last, by, measure, top, wheres),
                         question(*words))
    for _ in range(3):
        dimension, measure, limit = r.choice(props), r.choice(measures), r.choice([None, 0, 1, 3])
        words = ["top", dimension, "--measure", measure] + (["--limit", str(limit)] if limit is not None else [])
        found += compare(" ".join(words), top_values(in_view, first, last, dimension, measure, 20 if limit is None else limit, wheres),
                         question(*words))
    for _ in range(4):
        steps = r.sample(selectors[:6] + ["post.hearted", "user.followed[via=quickadd]"], r.choice([2, 3]))
        within, ms = r.choice([("30m", 1_800_000), ("12h", 43_200_000), ("7d", 7 * DAY)])
        actor = r.choice(["user", "device"])
        by = r.choice([None, "name", "device", "brands"] + (["user.provider"] if actor == "user" else []))
        words = ["funnel", *steps, "--within", within, "--actor", actor] + (["--by", by] if by else [])
        found += compare(" ".join(words), funnel(in_view, steps, first, last, ms, by, actor, wheres), question(*words))
    for _ in range(3):
        start, back, interval, periods = r.choice(selectors), r.choice(selectors), r.choice(["day", "week"]), r.choice([None, 3, 10])
        words = ["retention", "--start", start, "--return", back, "--interval", interval] + (["--periods", str(periods)] if periods else [])
        found += compare(" ".join(words), retention(in_view, start, back, first, last, interval, periods, wheres), question(*words))
    for _ in range(3):
        start = r.choice([None, "track[name=Shop]", "track[screen=9.1]"])
        depth, top, actor = r.choice([2, 3, 4, 6]), r.choice([0, 2, 10]), r.choice(["user", "device"])
        words = ["paths", "--depth", str(depth), "--top", str(top), "--actor", actor] + (["--start", start] if start else [])
        found += compare(" ".join(words), paths(in_view, first, last, start, depth, top, actor, wheres), question(*words))
    return found


# MARK: - Running

class View:
    """The latest view, or an `--as-of` or `--at-seq` one drawn by `r`."""

    def __init__(self, events, r):
        self.options, self.now, self.at_most, self.through = [], None, None, None
        pick = r.random()
        if pick < 0.3:
            self.through = r.randint(len(events) // 3, len(events))
            self.options = ["--at-seq", str(self.through)]
        elif pick < 0.5:
            self.at_most = self.now = r.choice(events)["at"] + r.choice([0, 1, -1])
            self.options = ["--as-of", iso(self.at_most)]
        elif pick < 0.6:
            # A bare date is the end of that UTC day.
            day = date_of(r.choice(events)["at"])
            self.at_most = self.now = window_of(day, day)[1]
            self.options = ["--as-of", day.isoformat()]
        if not any(self.includes(event, seq) for seq, event in enumerate(events, 1)):
            self.options, self.now, self.at_most, self.through = [], None, None, None

    def includes(self, event, seq):
        return (self.through is None or seq <= self.through) and (self.at_most is None or event["at"] <= self.at_most)


def same(mine, theirs):
    if mine in (None, "") and theirs in (None, ""):
        return True
    if mine is None or theirs is None:
        return False
    try:
        a, b = float(mine), float(theirs)
        return abs(a - b) <= 1e-6 * max(1.0, abs(a))
    except (TypeError, ValueError):
        return str(mine) == str(theirs)


def json_differences(name, table, done):
    """Where the JSON of an answer says other than its CSV: the same keys in the header's order, a
    number for a number, null or "" for an empty cell, true or false for a flag."""
    if done.returncode != 0:
        return [f"{name} --format json: exit {done.returncode}, {done.stderr.strip()}"]
    rows = json.loads(done.stdout)
    if not isinstance(rows, list):
        rows = [rows]
    found = []
    if len(rows) != len(table) - 1:
        found.append(f"{name}: {len(table) - 1} CSV rows, {len(rows)} JSON objects")
    for number, (row, cells) in enumerate(zip(rows, table[1:]), 1):
        if list(row) != table[0]:
            found.append(f"{name} --format json, row {number}: keys {list(row)}, CSV header {table[0]}")
            break
        for key, value, cell in zip(table[0], row.values(), cells):
            if not json_says(value, cell):
                found.append(f"{name} --format json, row {number}, {key}: JSON {value!r}, CSV {cell!r}")
                return found
    return found


def json_says(value, cell):
    """Whether a JSON value says what its CSV cell does."""
    if value is None or cell == "":
        return cell == "" and value in (None, "")
    if isinstance(value, bool):
        return cell == ("true" if value else "false")
    if isinstance(value, (int, float)):
        return same(value, cell)
    return isinstance(value, str) and value == cell


def compare(name, mine, theirs):
    """The rows that differ; gtio's columns past the contract's (the queue's extras) are not compared."""
    found = []
    if len(mine) != len(theirs):
        found.append(f"{name}: {len(mine)} rows here, {len(theirs)} from gtio")
    for number, (row, answer) in enumerate(zip(mine, theirs), 1):
        if not all(same(a, b) for a, b in zip(row, answer[:len(row)])) or len(answer) < len(row):
            found.append(f"{name}, row {number}: here {row}, gtio {answer}")
            if len(found) > 4:
                break
    return found


def run_seed(gtio, seed, count, parts, postgres=None, console=False):
    folder = tempfile.mkdtemp(prefix=f"crosscheck-{seed}-")
    found, databases = [], []
    for part in parts:
        events = (model_log if part == "models" else insight_log)(seed, count)
        r = random.Random(seed * 31 + (1 if part == "models" else 2))
        path = os.path.join(folder, f"{part}.jsonl")
        with open(path, "w") as file:
            for event in events:
                file.write(json.dumps({**event, "at": iso(event["at"])}, ensure_ascii=False) + "\n")
        # In one ingest or several, so that the tables are also kept by the writers' catch-ups.
        store = os.path.join(folder, f"{part}.gtio")
        if postgres:
            database = f"crosscheck_{os.getpid()}_{seed}_{part}"
            subprocess.run(["psql", postgres, "-qc", f"DROP DATABASE IF EXISTS {database}", "-c", f"CREATE DATABASE {database}"],
                           check=True, capture_output=True)
            databases.append(database)
            store = postgres.rsplit("/", 1)[0] + "/" + database
        cuts = sorted(r.sample(range(1, len(events)), r.choice([0, 1, 3])))
        for first, end in zip([0] + cuts, cuts + [len(events)]):
            chunk = os.path.join(folder, f"{part}-{first}.jsonl")
            with open(chunk, "w") as file:
                for event in events[first:end]:
                    file.write(json.dumps({**event, "at": iso(event["at"])}, ensure_ascii=False) + "\n")
            subprocess.run([gtio, "ingest", chunk, "--store", store, "--quiet"], check=True, capture_output=True)
        view = View(events, r)
        # In one seed of four every answer is also asked as JSON, which must say what the CSV says.
        with_json, formats_differ = r.random() < 0.25, []

        def run(words, output):
            command = [*words, *view.options, "--format", output] + (["--raw-csv"] if output == "csv" else [])
            if console:
                return subprocess.run([gtio, "--store", store, "-c", shlex.join(command)], capture_output=True, text=True)
            return subprocess.run([gtio, *command, "--store", store], capture_output=True, text=True)

        def ask(*words):
            # As the text is (--raw-csv): a spreadsheet's guard against formulas is not the rules'.
            done = run(words, "csv")
            if done.returncode != 0:
                return [["exit " + str(done.returncode), done.stderr.strip()]]
            table = list(csv.reader(io.StringIO(done.stdout)))
            if with_json:
                formats_differ.extend(json_differences(" ".join(words), table, run(words, "json")))
            return table[1:]

        differences = check_models(ask, events, view) if part == "models" else check_insights(ask, events, view, r)
        differences += formats_differ
        found += [f"{part} ({path}{', ' + ' '.join(view.options) if view.options else ''}): {line}" for line in differences]
    if not found:
        shutil.rmtree(folder)
        for database in databases:
            subprocess.run(["psql", postgres, "-qc", f"DROP DATABASE {database}"], check=True, capture_output=True)
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("gtio")
    parser.add_argument("first", nargs="?", type=int, default=1)
    parser.add_argument("last", nargs="?", type=int)
    parser.add_argument("--events", type=int, default=500)
    parser.add_argument("--only", choices=["models", "insights"])
    parser.add_argument("--postgres", metavar="URL")
    parser.add_argument("--console", action="store_true")
    arguments = parser.parse_args()
    parts = [arguments.only] if arguments.only else ["models", "insights"]
    failed = False
    for seed in range(arguments.first, (arguments.last or arguments.first + 19) + 1):
        found = run_seed(arguments.gtio, seed, arguments.events, parts, arguments.postgres, arguments.console)
        print(f"seed {seed}: " + ("same" if not found else f"{len(found)} differences"))
        for line in found[:12]:
            print("  " + line)
        failed = failed or bool(found)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
