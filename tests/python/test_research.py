"""test_research.py: what learning code relies on (issue 34, step 3;
docs/python.md "The fixed action space", "Observation tensor built in C",
"Copies, pickles and seeds").
- The fixed action space: along random games of both editions, every legal
  action has an id below num_distinct_actions(), the id gives the action
  back, the mask is exactly the legal ids, apply_action_id plays the move,
  and the notation reads back to the id.
- numpy integers are accepted for players, actions, ids and seeds.
- clone, copy.deepcopy, pickle and serialize/deserialize_state give equal
  states with identical futures (the same moves lead to equal states).
- A random seed when none is given; load_game accepts get_type()'s
  short_name; max_game_length() bounds real games.
- observation_tensor is the C tensor, written into a caller's array in place.
- OpenSpiel's game string round-trips; Gymnasium's spaces have the shapes
  (with a stand-in module when Gymnasium is not installed).
usage: python3 test_research.py
"""
import copy
import pickle
import random
import sys

import numpy as np

import chartered
from chartered import SIMULTANEOUS, ChError

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, flush=True)


def random_step(s, rng):
    p = s.deciders()[0]
    s.apply_action(rng.choice(s.legal_actions(p)), p)


# ---- the fixed action space ------------------------------------------------------
moves = 0
for ed, n, params, seeds in [("amsterdam", 4, {}, range(3)), ("amsterdam", 2, {}, range(2)),
                             ("golden-age", 4, {"events": True}, range(2)),
                             ("golden-age", 6, {"preset": "golden-age-first"}, range(1))]:
    game = chartered.load_game(ed, players=n, **params)
    size = game.num_distinct_actions()
    check(size == chartered._lib.lib.ch_num_distinct_actions(game._ed, n), f"{ed}: size")
    for seed in seeds:
        s = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            for p in s.deciders():
                legal = s.legal_actions(p)
                mask = s.legal_actions_mask(p)
                check(mask.shape == (size,) and mask.dtype == np.uint8, f"{ed}: mask shape")
                ids = sorted(s.action_id(a) for a in legal)
                check(len(set(ids)) == len(ids), f"{ed} seed {seed}: two legal moves share an id")
                check(list(np.flatnonzero(mask)) == ids, f"{ed} seed {seed}: mask != legal ids")
                check(list(s.legal_action_ids(p)) == ids, f"{ed} seed {seed}: legal_action_ids")
                for a in legal[:50]:
                    i = s.action_id(a)
                    check(0 <= i < size and s.action_from_id(i, p) == a,
                          f"{ed} seed {seed}: action {a} -> id {i} does not come back")
                    text = s.action_to_string(p, a)
                    check(s.action_id_to_string(p, i) == text and
                          s.string_to_action_id(p, text) == i, f"{ed}: notation of id {i}")
                    moves += 1
            p = s.deciders()[0]
            ids = s.legal_action_ids(p)
            t = s.clone()
            i = int(ids[rng.randrange(len(ids))])
            s.apply_action_id(np.int64(i), p)
            t.apply_action(t.action_from_id(i, p), p)
            check(s == t, f"{ed} seed {seed}: apply_action_id differs from apply_action")
game = chartered.load_game("amsterdam", players=4)
s = game.new_initial_state(1)
check(all(s.legal_actions_mask(q).sum() == 0 for q in range(4) if q not in s.deciders()),
      "a player who does not decide has legal moves in the mask")
for bad in (-1, game.num_distinct_actions(), 10 ** 12):
    try:
        s.action_from_id(bad, 0)
        check(False, f"action_from_id({bad}) accepted")
    except (ValueError, OverflowError):
        pass
print(f"fixed action space: {moves} moves round-tripped")

# ---- numpy integers --------------------------------------------------------------
s = game.new_initial_state(np.uint64(5))
p = s.current_player()
a = s.legal_actions(np.int32(p))[0]
s2 = s.clone()
s.apply_action(np.int64(a), np.int64(p))
s2.apply_action(a, p)
check(s == s2, "a numpy action plays differently")
check(isinstance(s.history()[-1][1], int), "history keeps a numpy int")
check(s.action_to_string(np.int8(p), np.uint64(a)) == s2.action_to_string(p, a), "numpy in notation")
check(s.observation_tensor(np.int64(0)).shape == (game.observation_tensor_size(),), "numpy player")
try:
    s.apply_action(True)
    check(False, "a bool action was accepted")
except TypeError:
    pass

# ---- copies, pickles, serialization: equal states, identical futures ---------------
for ed, params in [("amsterdam", {}), ("golden-age", {"events": True})]:
    g = chartered.load_game(ed, players=4, **params)
    s = g.new_initial_state(21)
    rng = random.Random(3)
    for _ in range(150):
        random_step(s, rng)
    copies = {"clone": s.clone(), "deepcopy": copy.deepcopy(s), "pickle": pickle.loads(pickle.dumps(s)),
              "serialize": chartered.deserialize_state(s.serialize())}
    for how, c in copies.items():
        check(c == s and c.history() == s.history() and c.seed == s.seed, f"{ed}: {how} differs")
    for how, c in copies.items():
        r1, r2 = random.Random(9), random.Random(9)
        a, b = s.clone(), c
        while not a.is_terminal():
            random_step(a, r1)
            random_step(b, r2)
            if a != b:
                break
        check(a == b and b.is_terminal(), f"{ed}: the future after {how} differs")
    # a state loaded from JSON has no seed: it pickles as its JSON
    j = g.state_from_json(s.to_json())
    check(pickle.loads(pickle.dumps(j)) == j and j.seed is None, f"{ed}: pickle of a loaded state")

# ---- seeds, names, lengths ---------------------------------------------------------
a, b = game.new_initial_state(), game.new_initial_state()
check(isinstance(a.seed, int) and a.seed != b.seed and a != b, "no random seed without one")
env = chartered.Env("amsterdam", 4)
o1, _ = env.reset()
seed1 = env.state.seed
env.reset()
check(env.state.seed != seed1, "Env.reset() deals the same game every time")
for ed in ("amsterdam", "golden-age"):
    g = chartered.load_game(ed, players=4)
    short = g.get_type()["short_name"]
    g2 = chartered.load_game(short, **g.get_parameters())
    check(g2.get_type() == g.get_type() and g2.num_distinct_actions() == g.num_distinct_actions(),
          f"load_game({short!r})")
    # OpenSpiel's game string: str(game) loads the same game back
    text = str(g)
    check(text.startswith(short + "(") and chartered.load_game(text).get_parameters() == g.get_parameters(),
          f"{ed}: the game string {text!r} does not load the same game")
    longest = 0
    for seed in range(20):
        longest = max(longest, chartered.random_playout(g.new_initial_state(seed), seed))
    check(0 < longest <= g.max_game_length() < 100000, f"{ed}: max_game_length {g.max_game_length()}")
for bad in ("amsterdam(players)", "amsterdam(players=3", "amsterdam(players=3,players=4)",
            "amsterdam(1=2)", "chess(players=2)"):
    try:
        chartered.load_game(bad)
        check(False, f"the game string {bad!r} was accepted")
    except ValueError:
        pass
try:
    chartered.load_game("amsterdam(players=3)", players=4)
    check(False, "a keyword contradicting the game string was accepted")
except ValueError:
    pass
check(chartered.load_game("chartered_golden_age(players=5,events=True)").get_parameters()["events"] is True,
      "a game string's bool")

# ---- the observation tensor in place ---------------------------------------------------
s = game.new_initial_state(8)
batch = np.zeros((2, game.observation_tensor_size()), dtype=np.float32)
s.observation_tensor_into(0, batch[1])
check(np.array_equal(batch[1], s.observation_tensor(0)) and not batch[0].any(),
      "observation_tensor_into does not write the row in place")
frozen = np.zeros(game.observation_tensor_size(), np.float32)
frozen.flags.writeable = False
frozen_mask = np.zeros(game.num_distinct_actions(), np.uint8)
frozen_mask.flags.writeable = False
try:
    s.legal_actions_mask(s.current_player(), out=frozen_mask)
    check(False, "a read-only mask buffer was written")
except ValueError:
    pass
check(not frozen_mask.any(), "a read-only mask buffer changed")
for bad in (np.zeros(3, np.float32), np.zeros(game.observation_tensor_size(), np.float64), frozen,
            batch[:, 0]):
    try:
        s.observation_tensor_into(0, bad)
        check(False, "a wrong buffer was accepted")
    except ValueError:
        pass
check(set(game.layout.offset) == {"plots", "companies", "players", "cards", "piles", "turn", "event"},
      "layout blocks")

# ---- the PettingZoo-style environment -------------------------------------------------
for ed, params in [("amsterdam", {}), ("golden-age", {"events": True})]:
    env = chartered.AECEnv(ed, players=4, **params)
    for seed in range(2):
        env.reset(seed=seed)
        ref = env.game.new_initial_state(seed)
        rng = np.random.default_rng(seed)
        steps = 0
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            p = env.possible_agents.index(agent)
            check(p in ref.deciders() and p == ref.deciders()[0], f"{ed}: {agent} is not the decider")
            mask = info["action_mask"]
            check(np.array_equal(mask, ref.legal_actions_mask(p)), f"{ed}: AEC mask differs")
            check(np.array_equal(obs, ref.observation_tensor(p)), f"{ed}: AEC observation differs")
            legal = np.flatnonzero(mask)
            if steps == 3:  # an illegal id is refused and changes nothing
                bad = int(np.flatnonzero(mask == 0)[0])
                before = env.state.clone()
                try:
                    env.step(bad)
                    check(False, f"{ed}: an illegal id was accepted")
                except (ChError, ValueError):
                    pass
                check(env.state == before and env.agent_selection == agent, f"{ed}: refusal changed things")
            i = int(rng.choice(legal))
            env.step(i)
            ref.apply_action_id(i, p)
            steps += 1
        check(ref.is_terminal() and env.state == ref and not env.agents, f"{ed}: AEC game differs")
        check(sum(env._cumulative_rewards.values()) >= 1, f"{ed}: no winner rewarded")
    check(env.observation_space("player_0") is not None and env.action_space("player_0") is not None,
          "spaces")
print("AEC environment: ok")

# ---- Gymnasium's spaces -------------------------------------------------------------
# Gymnasium is not a Debian package, so the machine usually has none: the spaces are
# then plain shapes. Here a stand-in with the documented constructors
# (spaces.Box(low, high, shape, dtype), Discrete(n), MultiDiscrete(nvec)) is put in its
# place and the two modules are loaded again, to check what they would build.
import importlib  # noqa: E402
import types  # noqa: E402

if "gymnasium" not in sys.modules:
    made = []

    class _Space:
        def __init__(self, *args, **kw):
            self.kind, self.args, self.kw = type(self).__name__, args, kw
            made.append(self)

    stub = types.ModuleType("gymnasium")
    stub.spaces = types.SimpleNamespace(**{k: type(k, (_Space,), {})
                                           for k in ("Box", "Discrete", "MultiDiscrete")})
    sys.modules["gymnasium"] = stub
    try:
        vec_mod = importlib.reload(chartered.vector)
        aec_mod = importlib.reload(chartered.aec)
        venv = vec_mod.VectorEnv("golden-age", 3, players=4)
        aenv = aec_mod.AECEnv("amsterdam", players=3)
        O, A = venv.obs_size, venv.num_actions
        box = venv.single_observation_space
        check(box.kind == "Box" and box.kw["shape"] == (O,) and box.kw["dtype"] == np.float32 and
              box.kw["low"] == 0.0, f"VectorEnv.single_observation_space: {box.kind} {box.kw}")
        d = venv.single_action_space
        check(d.kind == "Discrete" and d.args == (A,), "VectorEnv.single_action_space")
        check(venv.observation_space.kw["shape"] == (3, O), "VectorEnv.observation_space")
        md = venv.action_space
        check(md.kind == "MultiDiscrete" and list(md.args[0]) == [A] * 3, "VectorEnv.action_space")
        g3 = chartered.load_game("amsterdam", players=3)
        ob, ac = aenv.observation_space("player_1"), aenv.action_space("player_1")
        check(ob.kind == "Box" and ob.kw["shape"] == (g3.observation_tensor_size(),),
              "AECEnv observation_space")
        check(ac.kind == "Discrete" and ac.args == (g3.num_distinct_actions(),), "AECEnv action_space")
    finally:
        del sys.modules["gymnasium"]
        importlib.reload(chartered.vector)
        importlib.reload(chartered.aec)
    plain = chartered.VectorEnv("amsterdam", 1).single_action_space
    check(plain[2] == chartered.load_game("amsterdam").num_distinct_actions(),
          "without Gymnasium: plain shapes")
    print(f"Gymnasium spaces (a stand-in): {len(made)} built, ok")

if failures:
    print(f"{len(failures)} failures")
    sys.exit(1)
print("ok")
