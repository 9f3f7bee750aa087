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
import sys

import numpy as np

from ._lib import ffi, lib
from .game import TERMINAL, ChError, _msg_text, load_game

_LITTLE = sys.byteorder == "little"


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
        # The step calls the library directly (issue 34: the State API's
        # checks, its packing and unpacking of moves and a new list of zeros
        # a step were most of an Env step): the legal moves go into this
        # env's own buffer (not the State's, which a caller's legal_actions
        # may overwrite between steps), and slot i is applied as its ch_move.
        self._grow(1 << 12)
        self._floats = ffi.typeof("float[]")
        self._dm = ffi.new("unsigned *")
        self._msg = ffi.new("ch_msg *")
        self._nplayers = self.game.num_players()
        self._obs_size = self.game.observation_tensor_size()

    def _grow(self, cap):
        self._cap = cap
        self._buf = ffi.new("ch_move[]", cap)
        # a ch_move's 8 bytes, read as a little-endian 64-bit integer, are
        # its packed action (game.pack): one numpy view of the whole buffer,
        # made once (numpy.frombuffer at every step cost a few microseconds)
        self._packed = np.frombuffer(ffi.buffer(self._buf), dtype="<u8") if _LITTLE else None

    @property
    def observation_size(self):
        return self._obs_size

    def _obs(self):
        st = self.state._st
        kind = lib.ch_decider(st, self._dm)
        if kind == lib.CH_DEC_TERMINAL:
            self._player = None
            self._legal = []
            mask = np.zeros(self.max_actions, dtype=np.int8)
            return (np.zeros(self._obs_size, dtype=np.float32),
                    {"player": TERMINAL, "action_mask": mask, "legal": [],
                     "max_actions": self.max_actions})
        # the lowest deciding seat: the decider, or during sealed bids the
        # first bidder in seat order (bids hidden from the others)
        m = self._dm[0]
        p = self._player = (m & -m).bit_length() - 1
        n = lib.ch_legal(st, p, self._buf, self._cap)
        if n > self._cap:  # ch_legal returns the full count, like snprintf
            self._grow(n)
            n = lib.ch_legal(st, p, self._buf, n)
        n = max(n, 0)
        if _LITTLE:
            legal = self._packed[:n].tolist()
        else:
            legal = self.state.legal_actions(p)
        self._legal = legal
        if n > self.max_actions:
            self.max_actions = 1 << (n - 1).bit_length()
        mask = np.zeros(self.max_actions, dtype=np.int8)
        mask[:n] = 1
        info = {"player": p, "action_mask": mask, "legal": list(legal),
                "max_actions": self.max_actions}
        if self.names:
            info["moves"] = [self.state.action_to_string(p, a) for a in legal]
        obs = np.empty(self._obs_size, dtype=np.float32)
        lib.ch_observation(st, p, ffi.from_buffer(self._floats, obs), self._obs_size)  # p decides: cannot fail
        return obs, info

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
        if type(slot) is not int:
            if isinstance(slot, (bool, np.bool_)) or not isinstance(slot, (int, np.integer)):
                raise TypeError("the action is a slot number (int)")
            slot = int(slot)
        legal = self._legal
        if not 0 <= slot < len(legal):
            raise ValueError(f"slot {slot} is not a legal move (the mask allows 0 to "
                             f"{len(legal) - 1})")
        p = self._player
        st = self.state
        # slot's ch_move as the buffer holds it (the same move as legal[slot]);
        # ch_apply checks it, so a refused move changes nothing
        rc = lib.ch_apply(st._st, p, self._buf[slot], self._msg)
        if rc != lib.CH_OK:
            raise ChError(rc, _msg_text(self._msg))
        st._history.append((p, legal[slot]))
        obs, info = self._obs()
        if self._player is None:
            return obs, np.array(st.returns(), dtype=np.float32), True, False, info
        return obs, np.zeros(self._nplayers, dtype=np.float32), False, False, info
