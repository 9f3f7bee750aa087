#!/usr/bin/env python3
"""research_speed.py: games per CPU second through the Python package, for
docs/python.md and docs/performance.md (issue 34): random games of both
editions, 4 players, (1) legal_actions + apply_action, (2) the same with
the deciding player's observation_tensor at every decision, (3) the
PettingZoo-style AECEnv (last(): observation and mask; step of a random
legal id). Prints one line per edition and path.

usage: PYTHONPATH=python python3 examples/research_speed.py [GAMES]
"""
import random
import sys
import time

import numpy as np

import chartered


def legal_apply(game, seed, observe):
    s = game.new_initial_state(seed)
    rng = random.Random(seed)
    while not s.is_terminal():
        p = s.deciders()[0]
        if observe:
            s.observation_tensor(p)
        s.apply_action(rng.choice(s.legal_actions(p)), p)


def aec(env, seed):
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))


def rate(fn, games):
    t = time.process_time()
    for g in range(games):
        fn(g)
    return games / (time.process_time() - t)


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    for ed in ("amsterdam", "golden-age"):
        game = chartered.load_game(ed, players=4)
        env = chartered.AECEnv(ed, players=4)
        r1 = rate(lambda g: legal_apply(game, g, False), games)
        r2 = rate(lambda g: legal_apply(game, g, True), games)
        r3 = rate(lambda g: aec(env, g), games)
        print(f"{ed}, 4 players, {games} games: legal+apply {r1:.1f} games/CPU-s; "
              f"with observations {r2:.1f}; AECEnv {r3:.1f}", flush=True)


if __name__ == "__main__":
    main()
