#!/usr/bin/env python3
"""bot.py: an example bot for the chartered bot protocol (docs/bot-protocol.md).

Python 3, standard library only. Run it through the engine, for example

    chartered arena --bot "exec:python3 examples/bot.py" --bot random --games 10

It plays legally for either edition. Its taste: among the building moves it
prefers one that merges companies, then one that lets a company expand, then
one next to a lone warehouse (a founding); otherwise it makes a random legal
move, bidding modestly when it has to bid. It seeds its random choices from
the engine's "seed" line, so a run of games is reproducible.
"""
import json
import random
import sys

NAME, VERSION = "pybot", "1.0"


def send(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def expand(legal):
    """The legal lines as (text, lo, hi): a move (lo = hi = None) or a range
    'range PREFIX fLO fHI' (every 'PREFIX fN' for LO <= N <= HI)."""
    out = []
    for line in legal:
        if line.startswith("range "):
            words = line.split(" ")
            lo, hi = int(words[-2][1:]), int(words[-1][1:])
            out.append((" ".join(words[1:-2]), lo, hi))
        else:
            out.append((line, None, None))
    return out


class Board:
    """Plot names, neighbours and owners from a view."""

    def __init__(self, view):
        self.adjacent = {p["name"]: p["adjacent"] for p in view["board"]["plots"]}
        self.owner = {}
        self.height = {}
        for p in view["plots"]:
            self.owner[p["plot"]] = p["owner"]
            self.height[p["plot"]] = p["height"]

    def target_plots(self, move):
        """The plots a 'play ...' move builds on."""
        text = move[len("play "):]
        if text.endswith(" roof"):
            text = text[: -len(" roof")]
        plots = []
        for part in text.split(" + "):
            words = part.split(" ")
            if words and len(words[0]) == 2 and words[0][0] == "L" and words[0][1].isdigit():
                part = " ".join(words[1:])  # "L3 Harbour C1": a level card
            if part in self.adjacent:
                plots.append(part)
        return plots

    def score(self, move):
        """3 merges, 2 expands a company, 1 founds next to a lone warehouse."""
        plots = self.target_plots(move)
        companies, lone = set(), False
        for plot in plots:
            for n in self.adjacent.get(plot, []):
                if n in plots:
                    continue
                if self.owner.get(n):
                    companies.add(self.owner[n])
                elif self.height.get(n, 0) > 0:
                    lone = True
        if len(companies) >= 2:
            return 3
        if len(companies) == 1:
            return 2
        if lone or len(plots) >= 2:
            return 1
        return 0


def choose(view, legal, rng):
    moves = expand(legal)
    singles = [m for m, lo, hi in moves if lo is None]
    ranges = [(m, lo, hi) for m, lo, hi in moves if lo is not None]
    plays = [m for m in singles if m.startswith("play ")]
    if plays and view is not None:
        board = Board(view)
        scored = [(board.score(m), m) for m in plays]
        best = max(s for s, _ in scored)
        if best > 0:
            pick = rng.choice([m for s, m in scored if s == best])
            return pick, "build scoring %d of %d plays" % (best, len(plays))
    bids = [r for r in ranges if r[0] == "bid"]
    if bids and not singles:
        _, lo, hi = bids[0]
        amount = min(hi, lo + rng.randint(0, 40))
        return "bid f%d" % amount, "modest bid"
    if singles:
        # avoid paying to refresh the market unless nothing else is left
        calm = [m for m in singles if m != "refresh"] or singles
        return rng.choice(calm), "random among %d" % len(calm)
    prefix, lo, hi = rng.choice(ranges)
    return "%s f%d" % (prefix, rng.randint(lo, min(hi, lo + 40))), "random amount"


def main():
    rng = random.Random(0)
    view, legal, seat = None, [], None
    while True:
        raw = sys.stdin.readline()
        if not raw:
            return  # the engine went away
        line = raw.rstrip("\r\n")
        cmd, _, arg = line.partition(" ")
        if cmd == "chartered":
            send("bot %s %s" % (NAME, VERSION))
        elif cmd == "game":
            view, legal = None, []
            json.loads(arg)  # the table: edition, players, arrangement, ...
        elif cmd == "seat":
            seat = int(arg)
        elif cmd == "seed":
            rng.seed(int(arg))
        elif cmd == "time":
            pass  # milliseconds per move; this bot is always fast
        elif cmd == "view":
            view = json.loads(arg)
        elif cmd == "legal":
            legal = [sys.stdin.readline().rstrip("\r\n") for _ in range(int(arg))]
        elif cmd == "go":
            move, why = choose(view, legal, rng)
            send("info seat %s: %s" % (seat, why))
            send("move " + move)
        elif cmd == "end":
            pass  # {"scores": [...], "winners": [...], ...}
        elif cmd == "quit":
            return
        # anything else: ignore, as the protocol asks


if __name__ == "__main__":
    main()
