"""aec.py: AECEnv, an environment in PettingZoo's AEC (agent environment
cycle) shape over the fixed action space (docs/python.md "PettingZoo-style
environment"). Agents are "player_0" ... "player_{n-1}"; one acts at a time
(a sealed bid's bidders act in seat order, none seeing the others' bids);
observe(agent) is that seat's C tensor and action_mask(agent) its legal
ids; rewards are the returns (1 for each winner) given when the game ends.
PettingZoo itself is not needed; when Gymnasium is importable the spaces are
Gymnasium spaces, else plain (shape, dtype) tuples.
"""
import numpy as np

from .game import load_game

try:  # optional: only for the spaces
    import gymnasium as _gym
except ImportError:  # pragma: no cover - depends on the machine
    _gym = None


class AECEnv:
    """reset(seed=None); while agents: obs, reward, term, trunc, info = last();
    step(action id, or None for a finished agent)."""

    metadata = {"name": "chartered_aec_v0", "is_parallelizable": False}

    def __init__(self, edition="amsterdam", players=4, **params):
        self.game = load_game(edition, players=players, **params)
        n = self.game.num_players()
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        self.num_actions = self.game.num_distinct_actions()
        self.obs_size = self.game.observation_tensor_size()
        self.state = None
        self.agents = []

    # ---- spaces ----------------------------------------------------------------
    def observation_space(self, agent):
        if _gym is None:
            return ((self.obs_size,), np.float32)
        return _gym.spaces.Box(low=0.0, high=np.inf, shape=(self.obs_size,), dtype=np.float32)

    def action_space(self, agent):
        if _gym is None:
            return ((), np.int64, self.num_actions)
        return _gym.spaces.Discrete(self.num_actions)

    # ---- the cycle ---------------------------------------------------------------
    def reset(self, seed=None, options=None):
        self.state = self.game.new_initial_state(seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._decisions = 0
        self._select()

    def _select(self):
        s = self.state
        if s.is_terminal():
            ret = s.returns()
            for a in self.agents:
                self.rewards[a] = ret[self._index[a]]
                self._cumulative_rewards[a] += ret[self._index[a]]
                self.terminations[a] = True
            # finished agents step with None, in seat order, until none is left
            self.agent_selection = self.agents[0] if self.agents else None
            return
        self.agent_selection = self.possible_agents[s.deciders()[0]]

    def observe(self, agent):
        return self.state.observation_tensor(self._index[agent])

    def action_mask(self, agent):
        p = self._index[agent]
        if self.state.is_terminal() or p not in self.state.deciders():
            return np.zeros(self.num_actions, dtype=np.uint8)
        return self.state.legal_actions_mask(p)

    def last(self, observe=True):
        a = self.agent_selection
        info = dict(self.infos[a])
        info["action_mask"] = self.action_mask(a)
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
        self._cumulative_rewards[a] = 0.0
        for b in self.rewards:
            self.rewards[b] = 0.0
        self.state.apply_action_id(action, self._index[a])  # ChError/ValueError: unchanged
        self._decisions += 1
        if not self.state.is_terminal() and self._decisions >= self.game.max_game_length():
            for b in self.agents:
                self.truncations[b] = True
            self.agent_selection = self.agents[0]
            return
        self._select()

    def agent_iter(self, max_iter=2 ** 63):
        """PettingZoo's loop: the agent to act next while any is left."""
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection
