"""test_selfplay.py: the Python package plays thousands of random games of
both editions and gets the same games as the C self-play checker for the same
seeds: for each configuration, `chartered selfplay --games G --seed S` and
chartered.random_playout over seeds S..S+G-1 must agree on the total number
of decisions, the number of turns and the wins by seat. A few games per
configuration are also played through the OpenSpiel-shaped API
(legal_actions / apply_action, choosing with the same generator) and must end
in the very same state (byte for byte).
usage: python3 test_selfplay.py CHARTERED_BINARY
"""
import json
import subprocess
import sys

import chartered
from chartered._lib import ffi, lib

BIN = sys.argv[1]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, flush=True)


CONFIGS = [  # (edition, players, preset, events, games)
    ("amsterdam", 2, None, None, 250), ("amsterdam", 3, None, None, 250),
    ("amsterdam", 4, None, None, 250), ("amsterdam", 5, None, None, 250),
    ("golden-age", 2, "golden-age", "off", 200), ("golden-age", 3, "golden-age-first", "on", 200),
    ("golden-age", 4, "golden-age", "on", 200), ("golden-age", 5, "golden-age-first", "off", 200),
    ("golden-age", 6, "golden-age", "on", 200),
]
SEED = 9100


def api_playout(state, seed):
    """The same random game through the public Python API."""
    rng = ffi.new("ch_rng *")
    lib.ch_rng_seed(rng, seed ^ 0x5eedc0ffee123457)
    n = 0
    while not state.is_terminal():
        p = state.deciders()[0]
        acts = state.legal_actions(p)
        state.apply_action(acts[lib.ch_rng_below(rng, len(acts))], p)
        n += 1
    return n


total = 0
for ed, np_, preset, events, games in CONFIGS:
    args = [BIN, "selfplay", "--edition", ed, "--players", str(np_), "--games", str(games),
            "--seed", str(SEED)]
    params = {}
    if preset:
        args += ["--preset", preset, "--events", events]
        params = {"preset": preset, "events": events == "on"}
    c = json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)
    game = chartered.load_game(ed, players=np_, **params)
    decisions = turns = 0
    wins = [0] * 6
    for i in range(games):
        s = game.new_initial_state(SEED + i)
        decisions += chartered.random_playout(s, SEED + i)
        turns += s._st.turn_no
        for w in s.scores()[1]:
            wins[w] += 1
        if i < 3:
            t = game.new_initial_state(SEED + i)
            api_playout(t, SEED + i)
            check(t == s, f"{ed} {np_}p seed {SEED + i}: the API game differs from the fast one")
    what = f"{ed} {np_} players {preset or ''} events {events or ''}: {games} games"
    check(c["violations"] == 0, f"{what}: C self-play found violations")
    check(c["decisions"] == decisions, f"{what}: decisions C {c['decisions']} Python {decisions}")
    check(c["wins_by_seat"] == wins[:np_], f"{what}: wins C {c['wins_by_seat']} Python {wins}")
    check(abs(c["avg_turns"] - round(turns / games, 1)) < 0.051,
          f"{what}: turns C {c['avg_turns']} Python {turns / games:.1f}")
    total += games
    print(f"{what}: {decisions} decisions, wins {wins[:np_]}", flush=True)

if failures:
    print(f"{len(failures)} failures")
    sys.exit(1)
print(f"ok: {total} random games in Python, the same as C's self-play")
