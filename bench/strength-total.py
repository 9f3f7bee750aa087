#!/usr/bin/env python3
"""strength-total.py: add up the strength runs of bench/strength.sh.

A figure at the issue's full setting (200 games, ISMCTS at one second a move)
takes hours on a small machine, so it is measured in several runs with
disjoint seeds (game i of a run has seed SEED+i), each kept under
bench/results/. This script finds every summary.json under the directories it
is given, groups the runs by edition, figure (the directory name ends in -N)
and the first bot's spec, and prints the total of games, wins and the 95%
Wilson interval, like the arena's own, for each group. Runs whose seed ranges
overlap within a group are refused: the same deal must not count twice.

usage: python3 bench/strength-total.py [--target FIG=RATE ...] [DIR ...]
       (default: bench/results)
--target 2=0.60 prints figure 2 against 60% (issue 33) instead of issue 4's
45%; the figures and their default targets are those of bench/strength.sh.
"""
import json
import math
import os
import re
import sys

TARGETS = {"1": 0.70, "2": 0.45, "3": 0.70}


def wilson(wins, n, z=1.959964):
    """The 95% Wilson score interval of wins out of n."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def runs(roots):
    for root in roots:
        if not os.path.isdir(root):
            sys.exit(f"strength-total: '{root}' is not a directory")
        for d, _, files in os.walk(root):
            if "summary.json" in files:
                yield d, os.path.join(d, "summary.json")


def main(argv):
    targets = dict(TARGETS)
    args = argv[1:]
    while args and args[0] == "--target":
        if len(args) < 2 or not re.fullmatch(r"[123]=(0(\.\d+)?|1(\.0+)?)", args[1]):
            sys.exit("strength-total: --target takes FIG=RATE, a figure 1-3 and a rate "
                     "from 0 to 1, e.g. --target 2=0.60")
        fig, rate = args[1].split("=")
        targets[fig] = float(rate)
        args = args[2:]
    roots = args or ["bench/results"]
    groups = {}
    for d, path in sorted(runs(roots)):
        try:
            with open(path) as f:
                s = json.load(f)
            run, bot = s["run"], s["bots"][0]
        except (OSError, ValueError, KeyError, IndexError) as e:
            sys.exit(f"strength-total: {path}: not an arena summary ({e})")
        m = re.search(r"-(\d)$", os.path.basename(d))
        fig = m.group(1) if m else "?"
        key = (run["edition"], fig, run["players"], bot["bot"])
        g = groups.setdefault(key, {"wins": 0, "seats": 0, "seconds": 0.0,
                                    "turns": 0, "games": 0, "seeds": []})
        first, last = run["seed"], run["seed"] + run["games"] - 1
        for a, b, other in g["seeds"]:
            if first <= b and a <= last:
                sys.exit(f"strength-total: {d} (seeds {first}-{last}) overlaps "
                         f"{other} (seeds {a}-{b}): a deal would count twice")
        g["seeds"].append((first, last, d))
        g["wins"] += bot["wins"]
        g["seats"] += bot["seats"]
        g["games"] += s["games_counted"]
        g["seconds"] += s.get("seconds", 0.0)
        g["turns"] += s.get("turns", 0)
    if not groups:
        sys.exit(f"strength-total: no summary.json under {' '.join(roots)}")
    print(f"{'edition':<11} {'fig':>3} {'p':>1}  {'first bot':<34} {'won':>9}  "
          f"{'rate':>6}  {'95% CI':<13} {'target':>6}  runs  s/game")
    for key in sorted(groups):
        ed, fig, players, bot = key
        g = groups[key]
        lo, hi = wilson(g["wins"], g["seats"])
        rate = g["wins"] / g["seats"] if g["seats"] else 0.0
        t = targets.get(fig)
        target = f"{100 * t:.0f}%" if t is not None else "-"
        per = g["seconds"] / g["games"] if g["games"] else 0.0
        print(f"{ed:<11} {fig:>3} {players:>1}  {bot:<34} "
              f"{g['wins']:>4}/{g['seats']:<4}  {100 * rate:5.1f}%  "
              f"{100 * lo:4.1f}-{100 * hi:4.1f}%  {target:>6}  {len(g['seeds']):>4}  "
              f"{per:6.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
