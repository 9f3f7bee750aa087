"""env.py: a reset/step environment for reinforcement learning with an action
mask (docs/python.md, "Environment").

The action space is dense: action i means the i-th legal move of the deciding
player, in the engine's order; the mask has a 1 for i < the number of legal
moves. Its length is max_actions, which grows (to the next power of two) when
a legal list is longer and never shrinks: no fixed length holds every list,
since a sealed bid or a Coopmanscappen gift lists one move per florin of the
player's cash, and cash has no ceiling in the rules (the bank never runs out,
Ruling R-06; 2,182 moves, a sealed bid, at seed 63, step 263, four greedy
players seeded 63). (chartered's moves do not fit a small
fixed list: a two-card founding names two cards and a plot, a bid an amount;
so the slot in the legal list is the action, and info["legal"] gives each
slot's packed action and info["moves"] its notation when asked.) The
observation is the deciding player's observation tensor. One environment
drives every seat: step() returns the next decider's observation; rewards are
the returns of every player, given once, when the game ends.
"""
import numpy as np

from .game import SIMULTANEOUS, TERMINAL, load_game


class Env:
    def __init__(self, edition="amsterdam", players=4, max_actions=2048, names=False, **params):
        if isinstance(max_actions, bool) or not isinstance(max_actions, int) or max_actions < 1:
            raise ValueError(f"max_actions must be a positive int, not {max_actions!r}")
        self.game = load_game(edition, players=players, **params)
        self.max_actions = max_actions
        self.names = names
        self.state = None
        self._legal = []
        self._player = None

    @property
    def observation_size(self):
        return self.game.observation_tensor_size()

    def _decider(self):
        p = self.state.current_player()
        if p == SIMULTANEOUS:
            p = self.state.deciders()[0]  # sealed bids: in seat order, hidden from the others
        return p

    def _obs(self):
        if self.state.is_terminal():
            self._player = None
            self._legal = []
            mask = np.zeros(self.max_actions, dtype=np.int8)
            return (np.zeros(self.observation_size, dtype=np.float32),
                    {"player": TERMINAL, "action_mask": mask, "legal": [],
                     "max_actions": self.max_actions})
        p = self._player = self._decider()
        self._legal = self.state.legal_actions(p)
        if len(self._legal) > self.max_actions:
            self.max_actions = 1 << (len(self._legal) - 1).bit_length()
        mask = np.zeros(self.max_actions, dtype=np.int8)
        mask[:len(self._legal)] = 1
        info = {"player": p, "action_mask": mask, "legal": list(self._legal),
                "max_actions": self.max_actions}
        if self.names:
            info["moves"] = [self.state.action_to_string(p, a) for a in self._legal]
        return self.state.observation_tensor(p), info

    def reset(self, seed=None):
        """A new game from seed (without one, a random seed); returns
        (observation, info) of the first decider."""
        self.state = self.game.new_initial_state(seed)
        return self._obs()

    def step(self, slot):
        """Play the legal move in slot of the deciding player. Returns
        (observation, rewards, terminated, truncated, info): rewards is a numpy
        vector over all players (their returns at the end, else zeros). A slot
        outside the mask raises ValueError and changes nothing."""
        if self.state is None or self._player is None:
            raise ValueError("reset() first: the game is over or not started")
        if isinstance(slot, (bool, np.bool_)) or not isinstance(slot, (int, np.integer)):
            raise TypeError("the action is a slot number (int)")
        if not 0 <= slot < len(self._legal):
            raise ValueError(f"slot {slot} is not a legal move (the mask allows 0 to "
                             f"{len(self._legal) - 1})")
        self.state.apply_action(self._legal[int(slot)], self._player)
        obs, info = self._obs()
        done = self.state.is_terminal()
        rewards = np.array(self.state.returns() if done else [0.0] * self.game.num_players(),
                           dtype=np.float32)
        return obs, rewards, done, False, info
