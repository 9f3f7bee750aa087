"""test_infostate.py: information states and strings respect hidden
information (issue 34, "Tests"; docs/python.md "Information state"), in the
style of tests/test_obs.c and test_api.py: along random games of both
editions (sealed bids included), at decisions, for every seat p,
everything p cannot see is re-dealt (resample_from_infostate: other hands,
the deck's order, others' unrevealed bids, in The Golden Age others'
stocks) and p's information_state_tensor, information_state_string,
observation_string and observation_tensor must come out the same. The
re-deals must change the state, and a re-deal for another seat must change
p's strings at some decisions (else the comparison could not fail). The
tensor has its documented shape and its history block counts p's moves
(counted on from the last call: it equals a count of the whole history).
usage: python3 test_infostate.py
"""
import random
import sys

import numpy as np

import chartered
from chartered import SIMULTANEOUS

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, flush=True)


compared = changed = others_differ = sims = 0
for ed, n, params, seeds in [("amsterdam", 4, {}, range(2)), ("amsterdam", 2, {}, range(1)),
                             ("golden-age", 4, {"events": True}, range(2)),
                             ("golden-age", 3, {"preset": "golden-age-first"}, range(1))]:
    game = chartered.load_game(ed, players=n, **params)
    size = game.information_state_tensor_size()
    check(game.information_state_tensor_shape() == [size] and
          size == game.observation_tensor_size() + chartered.game.HISTORY_COLUMNS, f"{ed}: shape")
    check(game.get_type()["provides_information_state_tensor"], f"{ed}: get_type")
    for seed in seeds:
        s = game.new_initial_state(seed)
        rng = random.Random(seed)
        step = 0
        while not s.is_terminal():
            sim = s.current_player() == SIMULTANEOUS
            sims += sim
            if step % 11 == 0 or sim:
                for p in range(n):
                    t = s.information_state_tensor(p)
                    check(t.shape == (size,) and t.dtype == np.float32 and np.isfinite(t).all(),
                          f"{ed}: tensor shape or values")
                    # the block counted here from the whole history; the State counts
                    # on from its last call (and a re-deal below, a clone, from the start)
                    want = np.zeros(chartered.game.HISTORY_COLUMNS, np.float32)
                    for q, a in s.history():
                        if q == p:
                            want[0] += 1
                            want[a & 0xFF] += 1
                    want[0] /= 1000
                    want[1:] /= 100
                    check(np.array_equal(t[game.observation_tensor_size():], want),
                          f"{ed} seed {seed} step {step}: history block of seat {p}")
                    views = (t, s.information_state_string(p), s.observation_string(p),
                             s.observation_tensor(p))
                    r = s.resample_from_infostate(p, seed * 7919 + step)
                    changed += r != s
                    compared += 1
                    again = (r.information_state_tensor(p), r.information_state_string(p),
                             r.observation_string(p), r.observation_tensor(p))
                    for name, a, b in zip(("information_state_tensor", "information_state_string",
                                           "observation_string", "observation_tensor"), views, again):
                        same = np.array_equal(a, b) if isinstance(a, np.ndarray) else a == b
                        check(same, f"{ed} seed {seed} step {step} ({s.phase()}): seat {p}'s {name} "
                                    "changes when what it cannot see is re-dealt")
                    # the control: a re-deal for the next seat re-deals p's own hand
                    o = s.resample_from_infostate((p + 1) % n, seed * 31 + step)
                    others_differ += o.information_state_string(p) != views[1]
            p = s.deciders()[0]
            s.apply_action(rng.choice(s.legal_actions(p)), p)
            step += 1
check(sims > 0, "no sealed bid met")
check(changed * 10 > compared * 9, f"re-deals changed the state only {changed} times of {compared}")
check(others_differ * 2 > compared, f"another seat's re-deal changed p's string only {others_differ} "
                                    f"times of {compared}: the comparison could not fail")
print(f"information states: {compared} seats re-dealt ({changed} changed the state, {others_differ} "
      f"controls differed), {sims} sealed-bid decisions")
if failures:
    print(f"{len(failures)} failures")
    sys.exit(1)
print("ok")
