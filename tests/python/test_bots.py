"""test_bots.py: the Python bots (chartered.Bot, RandomBot, GreedyBot,
RolloutBot, ISMCTSBot over the library's bots; docs/python.md "Bots") as policies of the
State API, AECEnv and VectorEnv:
- every id a bot answers is legal for the seat deciding, in whole games of
  both editions through each of the three;
- in a VectorEnv the greedy bot, seated in one seat against random bots,
  wins most of its games (it wins 99-100% in docs/bots.md): a bot wired to
  the wrong seat or game would win about its even share;
- a bot is deterministic given its seed; unknown names and options, a
  finished game and a seat not deciding are refused with a reason.
usage: python3 test_bots.py
"""
import sys

import numpy as np

import chartered
from chartered import ChError, GreedyBot, ISMCTSBot, RandomBot, RolloutBot

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, flush=True)


# ---- the State API and AECEnv: whole games, every answer legal ---------------------
for ed, n in (("amsterdam", 3), ("golden-age", 4)):
    game = chartered.load_game(ed, players=n)
    bots = [GreedyBot(seed=1), RandomBot(seed=2), ISMCTSBot(seed=3, iterations=8)] + \
        [RolloutBot(seed=4, rollouts=2, depth=3)] * (n - 3)
    s = game.new_initial_state(9)
    while not s.is_terminal():
        p = s.deciders()[0]
        i = bots[p](s, p)
        check(i in set(s.legal_action_ids(p)), f"{ed}: {bots[p]!r} answered an illegal id {i}")
        s.apply_action_id(i, p)
    env = chartered.AECEnv(ed, players=n)
    env.reset(seed=10)
    steps = 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last(observe=False)
        if term or trunc:
            env.step(None)
            continue
        i = bots[env.possible_agents.index(agent)](env)
        check(info["action_mask"][i] == 1, f"{ed}: AEC answer {i} not in the mask")
        env.step(i)
        steps += 1
    check(steps > 50 and env.state.is_terminal(), f"{ed}: the AEC game did not end")

# ---- VectorEnv: greedy in seat 1 against random players ---------------------------------
env = chartered.VectorEnv("golden-age", 8, players=2, observations=False)
env.reset(seed=100)
greedy, rand = GreedyBot(seed=5), RandomBot(seed=6)
wins = games = 0
while games < 16:
    seat1 = np.flatnonzero(env.player == 1)
    seat0 = np.flatnonzero(env.player == 0)
    acts = greedy(env, rows=seat1) + rand(env, rows=seat0)
    check(all(env.action_mask[i, acts[i]] for i in range(env.num_envs)), "vector: an illegal answer")
    _, r, term, trunc, _ = env.step(acts)
    for i in np.flatnonzero(term | trunc):
        games += 1
        wins += r[i, 1] == 1 and r[i, 0] == 0
check(wins >= 12, f"greedy in seat 1 won {wins} of {games} against random: not wired to its seat")
print(f"vector: greedy won {wins} of {games} games against random")

# ---- determinism, refusals -------------------------------------------------------------
game = chartered.load_game("amsterdam", players=4)
s = game.new_initial_state(4)
check(ISMCTSBot(seed=7, iterations=40)(s) == ISMCTSBot(seed=7, iterations=40)(s), "ismcts not deterministic")
check(RolloutBot(seed=7, rollouts=3)(s) == RolloutBot(seed=7, rollouts=3)(s), "rollout not deterministic")
check(GreedyBot(seed=1).describe().startswith("greedy"), "describe")
for bad in (lambda: chartered.Bot("alphago"), lambda: ISMCTSBot(colour="blue"),
            lambda: RolloutBot(rollouts=0),
            lambda: chartered.Bot("random", seed=-1)):
    try:
        bad()
        check(False, "a bad bot was made")
    except (ChError, ValueError) as e:
        check(str(e), "no reason")
other = (s.current_player() + 1) % 4
try:
    RandomBot()(s, other)
    check(False, "a bot answered for a seat not deciding")
except ChError as e:
    check(e.code == chartered._lib.lib.CH_ETURN, f"not deciding: {e}")
try:
    RandomBot()("state")
    check(False, "a bot played a str")
except TypeError:
    pass

if failures:
    print(f"{len(failures)} failures")
    sys.exit(1)
print("ok")
