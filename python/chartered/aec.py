"""aec.py: AECEnv, an environment in PettingZoo's AEC (agent environment
cycle) shape over the fixed action space (docs/python.md "PettingZoo-style
environment"). Agents are "player_0" ... "player_{n-1}"; one acts at a time
(a sealed bid's bidders act in seat order, none seeing the others' bids);
observe(agent) is that seat's C tensor and action_mask(agent) its legal
ids; rewards are the returns (1 for each winner) given when the game ends.
PettingZoo itself is not needed; when Gymnasium is importable the spaces are
Gymnasium spaces, else plain (shape, dtype) tuples.

The game is a vector of one game (vector.py, ch_vec_step without
autoreset): a step is one C call that applies the id and lists the next
decider's legal ids and mask, so an agent loop costs a few microseconds of
Python a decision (it went through the State API before: a checked apply,
the mask rebuilt whole, 20-43 games a second; docs/performance.md).
"""
import numpy as np

from ._lib import ffi, lib
from .game import ChError, _int
from .vector import VectorEnv

try:  # optional: only for the spaces
    import gymnasium as _gym
except ImportError:  # pragma: no cover - depends on the machine
    _gym = None


class AECEnv:
    """reset(seed=None); while agents: obs, reward, term, trunc, info = last();
    step(action id, or None for a finished agent)."""

    metadata = {"name": "chartered_aec_v0", "is_parallelizable": False}

    def __init__(self, edition="amsterdam", players=4, **params):
        self._vec = VectorEnv(edition, 1, players=players, observations=False, autoreset=False,
                              **params)
        self.game = self._vec.game
        n = self.game.num_players()
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        self.num_actions = self.game.num_distinct_actions()
        self.obs_size = self.game.observation_tensor_size()
        self._zeros = np.zeros(self.num_actions, dtype=np.uint8)
        self._zeros.flags.writeable = False
        self._st = None
        self._seed = None
        self._ids = []
        self.agents = []
        self.agent_selection = None

    # ---- spaces ----------------------------------------------------------------
    def observation_space(self, agent):
        if _gym is None:
            return ((self.obs_size,), np.float32)
        return _gym.spaces.Box(low=0.0, high=np.inf, shape=(self.obs_size,), dtype=np.float32)

    def action_space(self, agent):
        if _gym is None:
            return ((), np.int64, self.num_actions)
        return _gym.spaces.Discrete(self.num_actions)

    # ---- the game ----------------------------------------------------------------
    @property
    def state(self):
        """The game as a State, rebuilt by replaying its seed and ids (its
        history included): for inspection, not for the agent loop."""
        if self._st is None:
            return None
        s = self.game.new_initial_state(self._seed)
        for p, i in self._ids:
            s.apply_action_id(i, p)
        return s

    # ---- the cycle ---------------------------------------------------------------
    def reset(self, seed=None, options=None):
        self._vec.reset(seed=seed)
        self._st = lib.ch_vec_state(self._vec._vec, 0)  # the same game until the next reset
        self._seed = int(self._vec.seeds[0])
        self._ids = []
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._decider = int(self._vec.player[0])
        self.agent_selection = self.possible_agents[self._decider]

    def observe(self, agent):
        """agent's observation tensor (a new float32 array)."""
        t = np.empty(self.obs_size, dtype=np.float32)
        rc = lib.ch_observation(self._st, self._index[agent], ffi.from_buffer("float[]", t), self.obs_size)
        if rc != lib.CH_OK:
            raise ChError(rc, "ch_observation")
        return t

    def action_mask(self, agent):
        """The legal ids of agent as a uint8 mask (read-only; the deciding
        agent's is the library's buffer, rewritten by the next step); zeros
        for an agent not deciding."""
        if self._index[agent] != self._decider:
            return self._zeros
        return self._vec.action_mask[0]

    def legal_ids(self, agent):
        """agent's legal ids (int32, engine order); empty when not deciding."""
        if self._index[agent] != self._decider:
            return self._vec.legal[0, :0]
        k = int(self._vec.num_legal[0])
        if k <= self._vec.legal_cap:
            return self._vec.legal[0, :k]
        return np.flatnonzero(self._vec.action_mask[0]).astype(np.int32)

    def last(self, observe=True):
        a = self.agent_selection
        info = dict(self.infos[a])
        info["action_mask"] = self.action_mask(a)
        info["legal_ids"] = self.legal_ids(a)
        return (self.observe(a) if observe else None, self._cumulative_rewards[a],
                self.terminations[a], self.truncations[a], info)

    def step(self, action):
        a = self.agent_selection
        if a is None:
            raise ValueError("reset() first: no agent is left")
        if self.terminations[a] or self.truncations[a]:
            if action is not None:
                raise ValueError(f"{a} is done: step(None)")
            self.agents.remove(a)
            self.agent_selection = self.agents[0] if self.agents else None
            return
        if action is None:
            raise ValueError(f"{a} must act: step(None) is for finished agents")
        i = _int(action, "an action id")
        if not 0 <= i < self.num_actions:
            raise ValueError(f"action id {i} names no move of this game (0 to {self.num_actions - 1})")
        vec = self._vec
        vec._actions[0] = i
        rc = lib.ch_vec_step(vec._vec, vec._act_ptr, vec._msg)  # refused: nothing changed
        if rc != lib.CH_OK:
            raise ChError(rc, ffi.string(vec._msg.text).decode("utf-8", "replace"))
        self._ids.append((self._decider, i))
        self._cumulative_rewards[a] = 0.0
        for b in self.rewards:
            self.rewards[b] = 0.0
        self._decider = int(vec.player[0])
        if vec._term[0] or vec._trunc[0]:
            done = self.terminations if vec._term[0] else self.truncations
            rw = vec.rewards[0]
            for b in self.agents:
                r = float(rw[self._index[b]])
                self.rewards[b] = r
                self._cumulative_rewards[b] += r
                done[b] = True
            # finished agents step with None, in seat order, until none is left
            self.agent_selection = self.agents[0]
            return
        self.agent_selection = self.possible_agents[self._decider]

    def agent_iter(self, max_iter=2 ** 63):
        """PettingZoo's loop: the agent to act next while any is left."""
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection
