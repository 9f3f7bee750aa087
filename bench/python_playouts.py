#!/usr/bin/env python3
"""python_playouts.py: random playouts per second from Python, next to the C
engine's own figure (`chartered bench`), for docs/python.md and
docs/performance.md. Two Python paths: the OpenSpiel-shaped API
(legal_actions() as a list of ints, apply_action() with the check), and
chartered.random_playout (the C calls driven from one Python loop). Prints
playouts per CPU second of each (process time, so that a loaded machine
skews the figure less) and their ratio to the C figure (the C bench's
games_per_cpu_second); one thread each. Say how loaded the machine was.

    PYTHONPATH=python CHARTERED_LIB=build/lib/libchartered.so \
        /usr/bin/python3 bench/python_playouts.py build/chartered [SECONDS]
"""
import json
import os
import random
import subprocess
import sys
import time

import chartered

binary = sys.argv[1]
seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 5.0
for ed in ("amsterdam", "golden-age"):
    c = json.loads(subprocess.run([binary, "bench", "--edition", ed, "--players", "4",
                                   "--seconds", str(seconds), "--json"],
                                  check=True, capture_output=True, text=True).stdout)
    c_rate = c["games_per_cpu_second"]  # per CPU second: fair on a loaded machine
    game = chartered.load_game(ed, players=4)
    rates = {}
    for name in ("api", "random_playout"):
        n, t0, seed = 0, time.process_time(), 1
        rng = random.Random(1)
        while time.process_time() - t0 < seconds:
            s = game.new_initial_state(seed)
            if name == "api":
                while not s.is_terminal():
                    p = s.deciders()[0]
                    s.apply_action(rng.choice(s.legal_actions(p)), p)
            else:
                chartered.random_playout(s, seed)
            n += 1
            seed += 1
        rates[name] = n / (time.process_time() - t0)
    print(f"{ed}, 4 players: C {c_rate:.0f} playouts/CPU-s; Python API {rates['api']:.1f}/CPU-s "
          f"(ratio 1:{c_rate / rates['api']:.0f}); Python random_playout "
          f"{rates['random_playout']:.1f}/CPU-s (ratio 1:{c_rate / rates['random_playout']:.0f}); "
          f"load average {os.getloadavg()[0]:.1f}")
