"""test_vector.py: chartered.VectorEnv (ch_vec_step; issue 34, "What to build" 3;
docs/python.md "Vector environment").
- The vector env equals N single games stepped one by one through the State
  API: the same random legal ids, each game restarted from the next seed when
  it ends (lower rows first); at every step the decider, mask, legal ids,
  observation, rewards, end flags, seeds and lengths agree, and each row's
  state(i) equals its twin.
- An illegal id raises ChError naming the game and changes no game and no
  output; malformed actions raise ValueError.
- The mask and the observations are read-only (the library rewrites only
  the parts that changed).
- autoreset=False leaves an ended game alone until reset_game(i, seed);
  copy=True returns copies; sample_legal draws legal ids only, the same ones
  from the same rng state (a Generator, or a random.Random), -1 for a game
  that ended and waits, and refuses before reset().
usage: python3 test_vector.py
"""
import sys

import numpy as np

import chartered
from chartered import ChError

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, flush=True)


def twins(edition, n, steps, seed, **params):
    env = chartered.VectorEnv(edition, n, legal_cap=64, **params)
    game = env.game
    obs, infos = env.reset(seed=seed)
    singles = [game.new_initial_state(seed + i) for i in range(n)]
    nxt = seed + n
    rng = np.random.default_rng(seed)
    ends = 0
    for t in range(steps):
        for i, s in enumerate(singles):
            p = s.deciders()[0]
            check(infos["player"][i] == p, f"{edition} step {t} game {i}: decider")
            mask = s.legal_actions_mask(p)
            check(np.array_equal(infos["action_mask"][i], mask), f"{edition} step {t} game {i}: mask")
            check(sorted(env.legal_ids(i)) == list(np.flatnonzero(mask)), f"{edition} step {t}: legal ids")
            check(np.array_equal(obs[i], s.observation_tensor(p)), f"{edition} step {t} game {i}: obs")
            check(int(infos["seed"][i]) == s.seed and infos["length"][i] == len(s.history()),
                  f"{edition} step {t} game {i}: seed or length")
        if t % 50 == 0:
            check(all(env.state(i) == singles[i] for i in range(n)), f"{edition} step {t}: states")
        acts = env.sample_legal(rng)
        check(all(infos["action_mask"][i][acts[i]] for i in range(n)), f"{edition}: sample_legal")
        obs, rewards, term, trunc, infos = env.step(acts)
        for i, s in enumerate(singles):
            s.apply_action_id(int(acts[i]), s.deciders()[0])
            check(not trunc[i], f"{edition}: truncated")
            if s.is_terminal():
                check(term[i] and list(rewards[i]) == s.returns(), f"{edition} game {i}: rewards at the end")
                singles[i] = game.new_initial_state(nxt)
                nxt += 1
                ends += 1
            else:
                check(not term[i] and not rewards[i].any(), f"{edition} game {i}: rewards while playing")
    return env, ends


env, ends = twins("amsterdam", 3, 700, 5)
env2, ends2 = twins("golden-age", 4, 500, 70, players=3, events=True)
check(ends >= 2 and ends2 >= 3, f"too few games ended ({ends}, {ends2})")
print(f"twins: {ends + ends2} games ended, every step equal")

# ---- refusals change nothing ----------------------------------------------------------
env = chartered.VectorEnv("amsterdam", 4, players=4)
env.reset(seed=3)
rng = np.random.default_rng(1)
for _ in range(30):
    env.step(env.sample_legal(rng))
acts = env.sample_legal(rng)
bad = acts.copy()
bad[2] = int(np.flatnonzero(env.action_mask[2] == 0)[0])
before = [env.state(i) for i in range(4)]
outs = [a.copy() for a in (env.observations, env.action_mask, env.player, env.rewards, env.legal,
                           env.num_legal, env.seeds, env.lengths)]
try:
    env.step(bad)
    check(False, "an illegal id was accepted")
except ChError as e:
    check("game 2" in str(e) and e.code == chartered._lib.lib.CH_EILLEGAL, f"the refusal does not name the game: {e}")
for b in ([0, 0, 0], np.zeros(4, np.float32), np.array([0, 0, 0, 1 << 40]), np.array([0, 0, 0, -1])):
    try:
        env.step(b)
        check(False, f"actions {b!r} accepted")
    except (ValueError, ChError):
        pass
check(all(env.state(i) == before[i] for i in range(4)), "a refused step changed a game")
check(all(np.array_equal(a, b) for a, b in zip(outs, (env.observations, env.action_mask, env.player,
                                                      env.rewards, env.legal, env.num_legal, env.seeds,
                                                      env.lengths))), "a refused step changed an output")
for arr, what in ((env.action_mask, "mask"), (env.observations, "observations")):
    try:  # the library rewrites only what changed: a write would stay
        arr[0, 0] = 1
        check(False, f"the {what} are writable")
    except ValueError:
        pass
env.step(acts)  # the legal ones still play
check(not chartered.VectorEnv("golden-age", 2).__dict__["_ready"], "ready before reset")

# ---- autoreset off, copies ------------------------------------------------------------
env = chartered.VectorEnv("golden-age", 2, players=2, autoreset=False, copy=True, observations=False)
obs, infos = env.reset(seed=8)
check(obs is None and env.metadata["autoreset_mode"] == "disabled", "autoreset=False")
done = [False, False]
rng = np.random.default_rng(2)
for t in range(3000):
    _, r, term, trunc, infos = env.step(env.sample_legal(rng))
    infos["player"][0] = 99  # a copy: the env's own arrays are untouched
    check(env.player[0] != 99, "copy=True returned the env's array")
    for i in range(2):
        if term[i]:
            done[i] = True
            check(r[i].sum() >= 1, "no winner")
        if done[i]:
            check(env.player[i] == -1 and env.num_legal[i] == 0 and env.state(i).is_terminal(),
                  "an ended game did not stay ended")
    if all(done):
        break
check(all(done), "games did not end")
env.reset_game(0, 123)
check(env.state(0) == env.game.new_initial_state(123) and env.player[0] >= 0, "reset_game")
ids = env.sample_legal(np.random.default_rng(4))
check(ids[1] == -1 and env.action_mask[0][ids[0]] == 1, f"sample_legal with an ended game: {ids}")

# ---- sample_legal: reproducible from the rng's state, any rng with random() ------------
import random  # noqa: E402

env = chartered.VectorEnv("amsterdam", 8, players=4, observations=False)
try:
    env.sample_legal(np.random.default_rng(0))
    check(False, "sample_legal before reset()")
except ValueError:
    pass
env.reset(seed=5)
for _ in range(20):
    a = env.sample_legal(np.random.default_rng(11))
    b = env.sample_legal(np.random.default_rng(11))
    c = env.sample_legal(random.Random(3))
    check(np.array_equal(a, b) and a.dtype == np.int32, "sample_legal differs for one rng state")
    check(all(env.action_mask[i][a[i]] and env.action_mask[i][c[i]] for i in range(8)), "an illegal sample")
    env.step(a)

if failures:
    print(f"{len(failures)} failures")
    sys.exit(1)
print("ok")
