#!/usr/bin/env python3
"""random_agent.py: a random agent through the Python package's reset/step
environment (chartered.Env, docs/python.md): every seat picks a uniformly
random slot allowed by the action mask. Prints each game's winners.

    PYTHONPATH=python python3 examples/random_agent.py --edition golden-age --players 4 --games 3
"""
import argparse

import numpy as np

import chartered


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--edition", default="amsterdam", choices=["amsterdam", "golden-age"])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    env = chartered.Env(a.edition, players=a.players)
    rng = np.random.default_rng(a.seed)
    for g in range(a.games):
        obs, info = env.reset(seed=a.seed + g)
        done, steps = False, 0
        while not done:
            legal_slots = np.flatnonzero(info["action_mask"])
            obs, rewards, done, _, info = env.step(int(rng.choice(legal_slots)))
            steps += 1
        scores, winners = env.state.scores()
        print(f"game {g + 1} (seed {a.seed + g}): {steps} decisions, scores {scores}, "
              f"winners {[w + 1 for w in winners]}, rewards {rewards.tolist()}")


if __name__ == "__main__":
    main()
