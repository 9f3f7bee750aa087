"""fuzz_env.py: a seeded random-action fuzzer of the Python package's Env and
State API (python/chartered, docs/python.md; issue 28 "What to build" 3).
libFuzzer has no Python side here (atheris is not packaged in Debian), so
this drives the API the way a learning agent or a search would, at random,
for a given time, and checks what must hold at every step:

- Env: the observation has the game's tensor size; the mask has exactly one
  1 per legal move, at the start; a slot outside it raises ValueError and
  changes nothing; rewards come at the end only, 1.0 for each winner;
- State: every decider has a legal move until the game ends (and none
  after); the full check (validate) passes; each legal move prints and reads
  back to itself; an illegal or junk action raises ChError or
  ValueError/TypeError and changes nothing; clone() is equal and
  independent; the state's JSON loads back equal;
- hidden information: a resample for any player (resample_from_infostate) is
  a valid state, has a legal move for its deciders or is over, and leaves
  that player's information state and observation tensor as they were.

Everything comes from one seed per game: the setup (edition, players, preset,
events, arrangement), every choice and every resample. A game that breaks a
check is printed with its seed, and with --crashes DIR written there as
regress-SEED (its text: the seed); --replay runs such files (the checked-in
ones are tests/fuzz/corpus/python_env/, replayed by the CTest test
python_fuzz_env before a short random run).

usage: PYTHONPATH=python CHARTERED_LIB=build/lib/libchartered.so python3 tests/python/fuzz_env.py
           [--seconds N] [--seed S] [--crashes DIR] [--replay FILE-OR-DIR...]
"""
import argparse
import os
import random
import sys
import time
import traceback

import numpy as np

import chartered
from chartered import ChError, Env

ARRANGEMENTS = {"amsterdam": ["standard", "quick-battle", "crossroads", "outliers"],
                "golden-age": [None]}


class Failure(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Failure(what)


def setup_of(rng):
    edition = rng.choice(["amsterdam", "golden-age"])
    if edition == "amsterdam":
        return edition, {"players": rng.randint(2, 5), "arrangement": rng.choice(ARRANGEMENTS[edition])}
    return edition, {"players": rng.randint(2, 6), "preset": rng.choice(["golden-age", "golden-age-first"]),
                     "events": rng.random() < 0.7}


def junk_action(rng, legal):
    """An action that is not legal now: a legal one with a field changed, or random bits."""
    r = rng.random()
    if r < 0.4 and legal:
        a = rng.choice(legal)
        return a ^ (1 << rng.randrange(0, 40))
    if r < 0.8:
        return rng.getrandbits(rng.choice([8, 16, 32, 48]))
    return rng.choice([-1, 2 ** 64, True, 1.5, "draw", None])


def check_state(st, rng, stats):
    """The checks of a state (not every step: they cost more than a move)."""
    try:
        st.validate()
    except ChError as e:
        raise Failure(f"validate: {e}")
    n = st.game.num_players()
    if st.is_terminal():
        check(all(st.legal_actions(p) == [] for p in range(n)), "a legal move after the end")
        ret = st.returns()
        check(sum(ret) >= 1 and all(x in (0.0, 1.0) for x in ret), f"returns {ret}")
        return
    who = st.deciders()
    check(who, "not over, and nobody decides")
    for p in who:
        legal = st.legal_actions(p)
        check(legal, f"player {p} decides ({st.phase()}) and has no legal move")
        for a in rng.sample(legal, min(3, len(legal))):
            text = st.action_to_string(p, a)
            check(st.string_to_action(p, text) == a, f"{text!r} does not read back to its action")
    # a junk action changes nothing
    p = who[0]
    before = st.clone()
    legal = st.legal_actions(p)
    a = junk_action(rng, legal)
    if a in legal:
        pass
    else:
        try:
            st.apply_action(a, p)
            raise Failure(f"the junk action {a!r} was applied")
        except (ChError, ValueError, TypeError, OverflowError):
            pass
        check(st == before, f"a refused action {a!r} changed the state")
        stats["refused"] += 1
    # clone and JSON
    c = st.clone()
    check(c == st, "a clone differs")
    if legal:
        c.apply_action(legal[0], p)
        check(st == before, "playing on a clone changed the original")
    again = st.game.state_from_json(st.to_json())
    check(again == st, "the state's JSON does not load back equal")
    # a resample for a random player
    q = rng.randrange(n)
    seed = rng.getrandbits(64)
    r = st.resample_from_infostate(q, seed)
    stats["resamples"] += 1
    try:
        r.validate()
    except ChError as e:
        raise Failure(f"resample for player {q} (seed {seed}): {e}")
    if not r.is_terminal():
        for d in r.deciders():
            check(r.legal_actions(d), f"resample for player {q} (seed {seed}): player {d} decides "
                  f"({r.phase()}) and has no legal move")
    check(r.information_state_string(q).split("\nown:")[0] ==
          st.information_state_string(q).split("\nown:")[0],
          f"resample for player {q} (seed {seed}) changed what the player sees")
    check(np.array_equal(r.observation_tensor(q), st.observation_tensor(q)),
          f"resample for player {q} (seed {seed}) changed the player's tensor")


def play(game_seed, stats, deadline=None):
    rng = random.Random(game_seed)
    edition, params = setup_of(rng)
    env = Env(edition, max_actions=rng.choice([2048, 4096]), names=rng.random() < 0.1, **params)
    obs, info = env.reset(rng.getrandbits(64))
    size = env.observation_size
    check_every = rng.choice([1, 5, 20])
    for step in range(100000):
        if deadline is not None and time.monotonic() > deadline:
            return
        check(obs.shape == (size,) and obs.dtype == np.float32, f"observation shape {obs.shape}")
        legal = info["legal"]
        mask = info["action_mask"]
        check(int(mask.sum()) == len(legal) and (len(legal) == 0 or mask[:len(legal)].all()),
              "the mask is not one 1 per legal move, at the start")
        if info["player"] == chartered.TERMINAL:
            check(not legal, "legal moves at the end")
            check_state(env.state, rng, stats)
            stats["games"] += 1
            return
        check(legal, f"step {step}: nobody can move ({env.state.phase()})")
        if step % check_every == 0:
            check_state(env.state, rng, stats)
        if rng.random() < 0.02:
            before = env.state.clone()
            bad = rng.choice([len(legal), len(legal) + rng.randrange(1000), -1])
            try:
                env.step(bad)
                raise Failure(f"slot {bad} of {len(legal)} was played")
            except ValueError:
                pass
            check(env.state == before, "a refused slot changed the state")
        # mostly uniform; sometimes the first or the last slot (passes, ends
        # of lists: long games and the big lists of bids and offers)
        r = rng.random()
        slot = 0 if r < 0.1 else len(legal) - 1 if r < 0.2 else rng.randrange(len(legal))
        obs, rewards, done, trunc, info = env.step(slot)
        stats["steps"] += 1
        check(not trunc, "truncated")
        if done:
            check(float(rewards.sum()) >= 1.0, f"no winner's reward at the end: {rewards}")
        else:
            check(not rewards.any(), f"a reward before the end: {rewards}")
    raise Failure("a game of 100,000 decisions")


def run_one(game_seed, stats, crashes, deadline=None):
    try:
        play(game_seed, stats, deadline)
        return True
    except (Failure, Exception) as e:  # noqa: B014 - any exception is a finding
        print(f"FAIL game seed {game_seed}: {type(e).__name__}: {e}", file=sys.stderr)
        traceback.print_exc()
        stats["failures"] += 1
        if crashes:
            os.makedirs(crashes, exist_ok=True)
            with open(os.path.join(crashes, f"regress-{game_seed}"), "w") as f:
                f.write(f"{game_seed}\n")
        return False


def replay_files(paths):
    for path in paths:
        if os.path.isdir(path):
            for name in sorted(os.listdir(path)):
                if not name.startswith("."):
                    yield os.path.join(path, name)
        else:
            yield path


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=0)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--crashes", default=None)
    ap.add_argument("--replay", nargs="*", default=[])
    args = ap.parse_args()
    stats = {"games": 0, "steps": 0, "resamples": 0, "refused": 0, "failures": 0}
    ok = True
    n = 0
    for path in replay_files(args.replay):
        with open(path) as f:
            seed = int(f.read().split()[0])
        ok &= run_one(seed, stats, None)
        n += 1
    if args.replay:
        print(f"fuzz_env: replayed {n} games")
    if args.seconds > 0:
        master = random.Random(args.seed if args.seed is not None else time.time_ns())
        start = time.monotonic()
        deadline = start + args.seconds
        while time.monotonic() < deadline:
            ok &= run_one(master.getrandbits(63), stats, args.crashes, deadline)
        print(f"fuzz_env: {time.monotonic() - start:.0f} s, master seed {args.seed}", end="; ")
    print(", ".join(f"{k} {v}" for k, v in stats.items()))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
