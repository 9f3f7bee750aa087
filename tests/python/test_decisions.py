"""test_decisions.py: every decision type of both editions through the Python API
(issue 20: "Both editions, every decision type"; docs/python.md).

For each edition, every move type its rules have and every phase in which a
player decides must be met and played through legal_actions() and
apply_action() (sealed bids: apply_actions()), with action_to_string() and
string_to_action() giving the action back, the observation tensor of the
documented size, and the full state valid after the move. Random games (a
bounded number) meet most; the rare ones come from the scenario positions of
tests/positions (Game.state_from_position) and one written here (The Golden
Age's pass: no purchase, no card, nothing to sell). A type that is never met
fails the test, naming it.
usage: python3 test_decisions.py SRCDIR
"""
import glob
import os
import random
import sys

import numpy as np

import chartered
from chartered import SIMULTANEOUS, ChError
from chartered._lib import ffi, lib

SRC = sys.argv[1]
TYPES = {getattr(lib, n): n[5:].lower() for n in dir(lib)
         if n.startswith("CH_M_") and n not in ("CH_M_NONE", "CH_M_NTYPES")}
PHASES = {getattr(lib, n): n[6:].lower() for n in dir(lib)
          if n.startswith("CH_PH_") and n not in ("CH_PH_COUNT", "CH_PH_OVER")}
# what each edition's rules have (src/core/turn.c and events.c; ga_turn.c)
EXPECT = {
    "amsterdam": (set(TYPES.values()) - {"free", "flag"},
                  set(PHASES.values()) - {"forced", "free", "evsell"}),
    "golden-age": ({"draw", "take", "refresh", "done", "play", "pass", "sell", "buy", "found",
                    "credit", "merge", "free", "flag"},
                   {"turn", "purchase", "found", "free", "credit", "merge", "trade", "evsell",
                    "forced"}),
}
# The Golden Age's pass: f20 (no purchase at f50), no card, no stock to sell
GA_PASS = """edition golden-age
players 2
seed 3
turn 3 player 1 phase turn
warehouse Harbour 4 height 2 Gold hq
warehouse Harbour 5 Gold
company Gold f40
player 1 cash f20 flags 2
hand 1 none
player 2 cash f100 flags 2
hand 2 random 5
"""

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL: " + what)


def play_one(s, p, a, seen, where):
    """Apply action a of player p with the API's checks; record its type and phase."""
    m = ffi.new("ch_move *")
    chartered.game.unpack(a, m)
    t, ph = TYPES[m.type], PHASES[s._st.phase]
    text = s.action_to_string(p, a)
    check(s.string_to_action(p, text) == a, f"{where}: '{text}' does not read back as {a}")
    obs = s.observation_tensor(p)
    check(obs.shape == (s.game.observation_tensor_size(),) and obs.dtype == np.float32,
          f"{where}: observation tensor {obs.shape} {obs.dtype}")
    if s.current_player() == SIMULTANEOUS:
        # a sealed bid: every bidder's action at once, this one for p
        who = s.deciders()
        s.apply_actions([(a if q == p else s.legal_actions(q)[0]) if q in who else 0
                         for q in range(s.game.num_players())])
    else:
        s.apply_action(a, p)
    s.validate()
    seen[0].add(t)
    seen[1].add(ph)


def main():
    for ed, params in [("amsterdam", {"players": 4}),
                       ("golden-age", {"players": 4, "events": True}),
                       ("golden-age", {"players": 3, "preset": "golden-age-first",
                                       "events": True})]:
        game = chartered.load_game(ed, **params)
        want_types, want_phases = EXPECT[ed]
        seen = (set(), set())
        games = 0
        for seed in range(40):  # bounded: random games meet most types
            if want_types <= seen[0] and want_phases <= seen[1]:
                break
            s = game.new_initial_state(seed)
            rng = random.Random(seed)
            while not s.is_terminal():
                p = s.deciders()[0]
                play_one(s, p, rng.choice(s.legal_actions(p)), seen, f"{ed} seed {seed}")
            games += 1
        from_games = set(seen[0])
        # the scenario positions: every legal action of their first decisions
        prefix = "ba-" if ed == "amsterdam" else "ga-"
        texts = [open(f, encoding="utf-8").read()
                 for f in sorted(glob.glob(os.path.join(SRC, "tests/positions", prefix + "*.pos")))]
        if ed == "golden-age":
            texts.append(GA_PASS)
        for text in texts:
            players = int(next(l.split()[1] for l in text.splitlines() if l.startswith("players")))
            # the game the position is of (its event cards change the card count)
            base, err = None, None
            for extra in ([{}] if ed == "amsterdam" else
                          [{"events": False}, {"events": True}]):
                try:
                    base = chartered.load_game(ed, players=players,
                                               **extra).state_from_position(text)
                    break
                except (ChError, ValueError) as e:
                    err = e
            if base is None:
                check(False, f"{ed}: a scenario position does not load: {err}")
                continue
            frontier = [base]
            for _ in range(6):  # a few decisions deep, every branch
                nxt = []
                for s in frontier:
                    if s.is_terminal():
                        continue
                    p = s.deciders()[0]
                    for a in s.legal_actions(p)[:40]:
                        c = s.clone()
                        play_one(c, p, a, seen, f"{ed} position")
                        nxt.append(c)
                frontier = nxt[:60]
        missing_t, missing_p = sorted(want_types - seen[0]), sorted(want_phases - seen[1])
        check(not missing_t, f"{ed} {params}: move types never played: {missing_t}")
        check(not missing_p, f"{ed} {params}: phases never met: {missing_p}")
        print(f"{ed} {params}: {len(seen[0])} move types ({len(from_games)} in {games} random "
              f"games, the rest from positions), {len(seen[1])} phases")
    # a position of another game is refused, and a malformed one carries the reason
    ga = chartered.load_game("golden-age", players=3)
    try:
        ga.state_from_position(GA_PASS)
        check(False, "a 2-player position loaded into a 3-player game")
    except ValueError:
        pass
    try:
        chartered.load_game("golden-age", players=2).state_from_position(
            GA_PASS.replace("company Gold f40", "company Gold f41"))
        check(False, "a company value off the chart loaded")
    except ChError as e:
        check("position:" in str(e), f"the loader's reason lacks its line: {e}")
    s = chartered.load_game("amsterdam", players=3).new_initial_state(9)
    chartered.random_playout(s, 9, max_decisions=100000)
    t = s.game.state_from_json(s.to_json())
    check(t == s, "state_from_json(to_json()) is not the same state")
    if failures:
        print(f"{len(failures)} failures")
        sys.exit(1)
    print("ok")


if __name__ == "__main__":
    main()
