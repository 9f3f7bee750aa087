#!/usr/bin/env python3
"""research_speed.py: games per CPU second through the Python package, for
docs/python.md and docs/performance.md (issue 34): random games of both
editions, 4 players, (1) legal_actions + apply_action, (2) the same with
the deciding player's observation_tensor at every decision, (3) the
PettingZoo-style AECEnv (last(): observation, mask and legal ids; step of a
random legal id), (4) the VectorEnv (N games a C call; random legal ids by
sample_legal) at N = 1, 64 and 256 with masks only, and at 64 with
observations too. Prints two lines per edition.

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
            ids = info["legal_ids"]
            env.step(int(ids[int(rng.random() * len(ids))]))


def vector(ed, n, games, observations):
    """Games per CPU second of a VectorEnv of n games: at least `games`
    ended and 1,500 steps (about four games' lengths: the games all start
    together, so a short run would count only the first, shortest ones);
    a run of fewer than 10 games (the examples' test) only checks the path."""
    least = 1500 if games >= 10 else 1
    games = games if games >= 10 else 1
    env = chartered.VectorEnv(ed, n, players=4, observations=observations)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    done = steps = 0
    t = time.process_time()
    while done < games or steps < least:
        steps += 1
        _, _, term, trunc, _ = env.step(env.sample_legal(rng))
        done += int(np.count_nonzero(term) + np.count_nonzero(trunc))
    return done / (time.process_time() - t)


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
        v = [vector(ed, n, games * k, False) for n, k in ((1, 1), (64, 10), (256, 20))]
        vo = vector(ed, 64, games * 5, True)
        print(f"{ed}, 4 players: VectorEnv with masks N=1 {v[0]:.1f}, N=64 {v[1]:.1f}, "
              f"N=256 {v[2]:.1f} games/CPU-s; with observations N=64 {vo:.1f}", flush=True)


if __name__ == "__main__":
    main()
