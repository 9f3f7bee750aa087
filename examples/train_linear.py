#!/usr/bin/env python3
"""train_linear.py: a linear softmax policy learns to beat random play by
REINFORCE, numpy only (issue 34, "An example that learns"; docs/python.md
"Learning").

The policy scores each legal id a of the fixed action space by
    logit(a) = b[a] + W[type(a)] . x
with x the decider's observation tensor (the C tensor), type(a) the move
type of id a (29 kinds: play, buy, sell, ...) and b a bias per id: about
90,000 weights for The Golden Age. It plays seat 0 of a VectorEnv of games
against random players in the other seats (sample_legal), and after each
game moves its weights along the gradient of the log-probabilities of its
own choices, times (return - baseline), the return 1 for a win; the
baseline is the running mean return. Every --report games it prints its
win rate over them; at the end it plays --eval games with its weights
fixed (drawing from the policy, as in training) and prints the win rate
with a Wilson 95% interval, against the even share (1/players) that a
random player gets; "before training" is the same with every weight 0,
which is uniform random play.

usage: PYTHONPATH=python python3 examples/train_linear.py [--seconds 120]
       [--edition golden-age] [--players 2] [--envs 32] [--eval 400] [--seed 1]
       [--tiny]   (a few seconds: for the tests)
"""
import argparse
import math
import time

import numpy as np

import chartered
from chartered._lib import ffi, lib


def wilson(wins, n, z=1.96):
    """The Wilson score interval of a proportion (95%)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


def move_types(game):
    """The move type (ch_move_type) of every id of the game's action space,
    0 for an id that names no move of it."""
    s = game.new_initial_state(0)
    m = ffi.new("ch_move *")
    t = np.zeros(game.num_distinct_actions(), np.int64)
    for i in range(len(t)):
        if lib.ch_action_decode(s._st, 0, i, m) == lib.CH_OK:
            t[i] = m.type
    return t


class Linear:
    def __init__(self, game, rng):
        self.types = move_types(game)
        self.ntypes = lib.CH_M_NTYPES
        self.W = np.zeros((self.ntypes, game.observation_tensor_size()), np.float64)
        self.b = np.zeros(game.num_distinct_actions(), np.float64)
        self.rng = rng

    def probs(self, x, legal):
        """Softmax over the legal ids given the observation x."""
        z = self.b[legal] + (self.W @ x)[self.types[legal]]
        z -= z.max()
        e = np.exp(z)
        return e / e.sum()

    def act(self, x, legal):
        """A legal id drawn from the policy: its index in legal, and the probabilities."""
        p = self.probs(x, legal)
        return int(self.rng.choice(len(legal), p=p)), p


def play(env, policy, learn, games, lr_b, lr_w, report, deadline=None, log=print):
    """Play `games` games (or until the CPU deadline); learn from each if
    asked. Each row counts its first games only, ceil(games / rows) of them:
    the games that end first are the short ones, and a count of them would
    weigh short games more. Returns (wins, games counted)."""
    n = env.num_envs
    quota = -(-games // n) if games < 1 << 62 else games
    row_games = np.zeros(n, np.int64)
    P = env.num_players
    # per row, this game's gradient of the sum of log-probabilities of seat 0's choices
    gW = np.zeros((n, policy.ntypes, env.obs_size))
    gb = [dict() for _ in range(n)]
    obs, infos = env.reset(seed=int(policy.rng.integers(1 << 62)))
    rng = policy.rng
    wins = played = window_wins = window = 0
    baseline = 1.0 / P
    while (row_games < quota).any() and (deadline is None or time.process_time() < deadline):
        acts = env.sample_legal(rng)
        for i in np.flatnonzero(env.player == 0):
            k = int(env.num_legal[i])
            legal = env.legal[i, :k] if k <= env.legal_cap else env.legal_ids(i)
            x = obs[i].astype(np.float64)
            j, p = policy.act(x, legal)
            acts[i] = legal[j]
            if learn:  # d log p(j) / d logits = onehot(j) - p
                coef = -p
                coef[j] += 1
                g = np.bincount(policy.types[legal], weights=coef, minlength=policy.ntypes)
                gW[i] += np.outer(g, x)
                d = gb[i]
                for a, c in zip(legal.tolist(), coef.tolist()):
                    d[a] = d.get(a, 0.0) + c
        obs, rewards, term, trunc, infos = env.step(acts)
        for i in np.flatnonzero(term | trunc):
            row_games[i] += 1
            if row_games[i] > quota:
                continue
            r = float(rewards[i, 0] == 1 and rewards[i].sum() == 1)  # a win, not shared
            wins += r
            window_wins += r
            played += 1
            window += 1
            if learn:
                adv = r - baseline
                baseline += 0.01 * (r - baseline)
                policy.W += lr_w * adv * gW[i]
                for a, c in gb[i].items():
                    policy.b[a] += lr_b * adv * c
            gW[i] = 0
            gb[i] = {}
            if report and window == report:
                lo, hi = wilson(window_wins, window)
                log(f"games {played:6d}: win rate {window_wins / window:.3f} over the last {window} "
                    f"({lo:.3f}-{hi:.3f})")
                window_wins = window = 0
    return wins, played


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--edition", default="golden-age")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--envs", type=int, default=32)
    ap.add_argument("--seconds", type=float, default=120.0, help="CPU seconds of training")
    ap.add_argument("--eval", type=int, default=400, help="games to evaluate on")
    ap.add_argument("--report", type=int, default=500)
    ap.add_argument("--lr-b", type=float, default=0.05)
    ap.add_argument("--lr-w", type=float, default=0.0005)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tiny", action="store_true", help="a run of a few seconds (tests)")
    a = ap.parse_args()
    if a.tiny:
        a.seconds, a.eval, a.report, a.envs = 2.0, 16, 20, 8
    rng = np.random.default_rng(a.seed)
    env = chartered.VectorEnv(a.edition, a.envs, players=a.players)
    policy = Linear(env.game, rng)
    share = 1.0 / a.players
    print(f"{a.edition}, {a.players} players: a linear policy in seat 0 against random players, "
          f"{a.envs} games at once, {a.seconds:g} CPU seconds of REINFORCE", flush=True)
    before, n0 = play(env, policy, False, a.eval, 0, 0, 0)
    lo, hi = wilson(before, n0)
    print(f"before training: win rate {before / n0:.3f} ({lo:.3f}-{hi:.3f}) over {n0} games", flush=True)
    t = time.process_time()
    _, trained = play(env, policy, True, 1 << 62, a.lr_b, a.lr_w, a.report, deadline=t + a.seconds,
                      log=lambda s: print(s, flush=True))
    wins, n = play(env, policy, False, a.eval, 0, 0, 0)
    lo, hi = wilson(wins, n)
    verdict = "beats random" if lo > share else "does not beat random measurably"
    print(f"after {trained} training games: win rate {wins / n:.3f} (Wilson 95% {lo:.3f}-{hi:.3f}) "
          f"over {n} games against random, even share {share:.3f}: {verdict}", flush=True)


if __name__ == "__main__":
    main()
