#!/usr/bin/env python3
"""v2bot.py: a bot of protocol version 2 (docs/bot-protocol.md) for
tests/cli_protocol2.sh. It advertises four options, plays a random legal move
(seeded by the engine's "seed" line, its amount drawn inside a range), and
appends what it received to the file named by CH_V2_REPORT, one JSON object
a line: its process id at the handshake, each option set, each game start
(with the position it was given), and each decision (the public moves it was
told, its clock and the move it sent). The test compares those with the
arena's game files. Standard library only."""
import json
import os
import random
import sys

REPORT = os.environ.get("CH_V2_REPORT")


def report(obj):
    if REPORT:
        with open(REPORT, "a") as f:
            f.write(json.dumps(obj) + "\n")


def send(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def choose(legal, rng):
    line = rng.choice(legal)
    if line.startswith("range "):
        prefix, lo, hi = line[6:].rsplit(" ", 2)
        amount = rng.randint(int(lo[1:]), int(hi[1:]))
        return "%s f%d" % (prefix, amount)
    return line


def main():
    rng = random.Random(0)
    options = {}
    game = seat = None
    moves = None
    clock = None
    legal = []
    lines = iter(sys.stdin.readline, "")
    for raw in lines:
        line = raw.rstrip("\n")
        cmd, _, rest = line.partition(" ")
        if cmd == "chartered":
            report({"hello": rest, "pid": os.getpid()})
            send("protocol 2")
            send("option depth int 3 1 10")
            send("option style choice calm calm wild")
            send("option greeting string hello there")
            send("option log bool false")
            send("bot v2bot 2.0")
        elif cmd == "setoption":
            name, _, value = rest.partition(" ")
            options[name] = value
            report({"setoption": name, "value": value, "pid": os.getpid()})
        elif cmd == "isready":
            send("readyok")
        elif cmd == "newgame":
            game = json.loads(rest)["game"]
        elif cmd == "game":
            report({"error": "a version-1 'game' line"})
        elif cmd == "seat":
            seat = int(rest)
        elif cmd == "seed":
            rng = random.Random(int(rest))
        elif cmd == "position":
            view = json.loads(rest)
            report({"newgame": game, "seat": seat, "pid": os.getpid(),
                    "viewer": view["viewer"], "options": options})
        elif cmd == "moves":
            moves = rest.split("; ") if rest else []
        elif cmd == "legal":
            legal = [next(lines).rstrip("\n") for _ in range(int(rest))]
        elif cmd == "clock":
            clock = [int(x) for x in rest.split()]
        elif cmd == "go":
            mv = choose(legal, rng)
            report({"game": game, "seat": seat, "moves": moves, "clock": clock,
                    "move": mv})
            moves = None
            send("move " + mv)
        elif cmd == "quit":
            report({"quit": os.getpid()})
            return


main()
