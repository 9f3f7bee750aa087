#!/usr/bin/env python3
"""strength-margin.py: a strength screen with less noise than the win rate.

Forty or eighty games cannot tell a 55% bot from a 60% one by wins alone
(the Wilson interval of 60 games is some 25 points wide). Each game of an
arena run also says by how much the bot won or lost: this script reads the
games.csv files under the directories it is given, and for one bot (by
default the first bot of each run, the ISMCTS seat of bench/strength.sh's
figure 2) prints per setting:
  - games, wins and the win rate with its 95% Wilson interval;
  - the mean score margin over the best other player (positive: won by that
    much) with a 95% interval (mean +- 1.96 standard errors);
  - the mean rank (1 = best score; a shared score counts as the better rank)
    with its interval.
With --pair A B (two directories run on the same seeds) it prints the mean
of the per-seed differences of the margin, B less A, with its interval: the
same deals on both sides take out much of the luck of the deal.

usage: python3 bench/strength-margin.py [--bot SPEC] DIR ...
       python3 bench/strength-margin.py [--bot SPEC] --pair DIR-A DIR-B
"""
import csv
import math
import os
import sys

Z = 1.959964


def wilson(wins, n):
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + Z * Z / n
    c = (p + Z * Z / (2 * n)) / d
    h = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def mean_ci(xs):
    n = len(xs)
    if n == 0:
        return 0.0, 0.0
    m = sum(xs) / n
    if n < 2:
        return m, float("inf")
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, Z * math.sqrt(var / n)


def games(root, bot):
    """{(edition, spec): {seed: (won, margin, rank)}} of the bot (spec, or
    None: each run's first bot) in every games.csv under root."""
    if not os.path.isdir(root):
        sys.exit(f"strength-margin: '{root}' is not a directory")
    out = {}
    for d, _, files in sorted(os.walk(root)):
        if "games.csv" not in files:
            continue
        path = os.path.join(d, "games.csv")
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        if rows and ("winners" not in rows[0] or "score1" not in rows[0]):
            sys.exit(f"strength-margin: {path}: not an arena games.csv")
        want = bot
        if want is None and rows:
            # the run's first bot: seats rotate, so game 1 seats it first
            want = rows[0]["bot1"]
        for r in rows:
            if r.get("error"):
                continue
            np = int(r["players"])
            bots = [r[f"bot{i}"] for i in range(1, np + 1)]
            if want not in bots:
                continue
            seat = bots.index(want)
            sc = [int(r[f"score{i}"]) for i in range(1, np + 1)]
            best_other = max(s for i, s in enumerate(sc) if i != seat)
            rank = 1 + sum(1 for i, s in enumerate(sc) if i != seat and s > sc[seat])
            winners = {int(w) for w in r["winners"].replace(";", " ").split()}
            seed = int(r["seed"])
            g = out.setdefault((r["edition"], want), {})
            if seed in g:
                sys.exit(f"strength-margin: seed {seed} of {want} twice under {root}")
            g[seed] = (seat + 1 in winners, sc[seat] - best_other, rank)
    if not out:
        sys.exit(f"strength-margin: no games of the bot under {root}")
    return out


def one(root, bot):
    g = games(root, bot)
    if len(g) != 1:
        sys.exit(f"strength-margin: {root} holds {len(g)} settings; --pair needs one (--bot SPEC)")
    return next(iter(g.values()))


def line(name, g):
    n = len(g)
    w = sum(1 for v in g.values() if v[0])
    lo, hi = wilson(w, n)
    m, mh = mean_ci([v[1] for v in g.values()])
    r, rh = mean_ci([v[2] for v in g.values()])
    print(f"{name:<40} {n:>4} {w:>4} {100 * w / n:5.1f}% ({100 * lo:4.1f}-{100 * hi:4.1f}%)  "
          f"margin {m:+7.1f} +-{mh:5.1f}  rank {r:4.2f} +-{rh:4.2f}")


def main(argv):
    args = argv[1:]
    bot = None
    if len(args) >= 2 and args[0] == "--bot":
        bot, args = args[1], args[2:]
    if args and args[0] == "--pair":
        if len(args) != 3:
            sys.exit("strength-margin: --pair takes two directories")
        a, b = one(args[1], bot), one(args[2], bot)
        common = sorted(set(a) & set(b))
        if not common:
            sys.exit("strength-margin: the two runs share no seed")
        for name, g in ((args[1], a), (args[2], b)):
            line(name, {s: g[s] for s in common})
        m, mh = mean_ci([b[s][1] - a[s][1] for s in common])
        dw = sum(b[s][0] for s in common) - sum(a[s][0] for s in common)
        print(f"{'B - A on ' + str(len(common)) + ' common seeds':<40} wins {dw:+d}  "
              f"margin {m:+7.1f} +-{mh:5.1f}")
        return 0
    if not args:
        sys.exit(__doc__.strip().splitlines()[-2].strip())
    print(f"{'edition and bot':<40} {'n':>4} {'won':>4} {'rate (95% Wilson)':<20}  "
          f"mean margin over the best other, mean rank (95% intervals)")
    for root in args:
        for (ed, spec), g in sorted(games(root, bot).items()):
            line(f"{ed} {spec}", g)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
