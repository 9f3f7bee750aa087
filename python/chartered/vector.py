"""vector.py: VectorEnv, N games stepped by one C call (ch_vec_step,
src/core/vec.c; docs/python.md "Vector environment").

Gymnasium's vector conventions: reset(seed) -> (observations, infos),
step(actions) -> (observations, rewards, terminations, truncations, infos),
with arrays over the N games and a game that ends restarted in the same step
(autoreset_mode "same-step": the outputs of that row are the new game's,
its rewards and flags the finished game's). Multi-agent: each row is one
game, the observation and mask are those of the seat deciding now
(infos["player"]), and rewards is N x players (every seat's return, 1 for
each winner, at the step its game ended).

The arrays are numpy arrays that the library writes in place (no copies):
the ones a step returns are overwritten by the next step; copy=True returns
copies instead. The mask and the observations are read-only (the library
clears only what it set, and rewrites only the observation rows that changed).
"""
import secrets

import numpy as np

from ._lib import ffi, lib
from .game import ChError, State, _int, _msg_text, _U64, load_game

try:  # optional: only for the spaces
    import gymnasium as _gym
except ImportError:  # pragma: no cover - depends on the machine
    _gym = None


class VectorEnv:
    """VectorEnv(edition, num_envs, players=4, observations=True,
    legal_cap=1024, max_game_length=None, copy=False, **game parameters)."""

    metadata = {"autoreset_mode": "same-step"}

    def __init__(self, edition="amsterdam", num_envs=64, players=4, observations=True,
                 legal_cap=1024, max_game_length=None, copy=False, autoreset=True, **params):
        n = _int(num_envs, "num_envs")
        cap = _int(legal_cap, "legal_cap")
        if not 1 <= n <= 1 << 20:
            raise ValueError(f"num_envs must be 1 to {1 << 20}, not {n}")
        if cap < 1:
            raise ValueError(f"legal_cap must be at least 1, not {cap}")
        self.game = load_game(edition, players=players, **params)
        g = self.game
        length = g.max_game_length() if max_game_length is None else _int(max_game_length, "max_game_length")
        if not 0 <= length < 1 << 31:
            raise ValueError(f"max_game_length must be 0 (none) to 2^31-1, not {length}")
        self.num_envs = n
        self.num_players = g.num_players()
        self.num_actions = g.num_distinct_actions()
        self.obs_size = g.observation_tensor_size()
        self.legal_cap = cap
        self.copy = bool(copy)
        self.max_game_length = length
        P, A, O = self.num_players, self.num_actions, self.obs_size
        # the buffers the library writes (ch_vec_out): kept alive by self
        self.player = np.zeros(n, np.int32)
        self.rewards = np.zeros((n, P), np.float32)
        self._term = np.zeros(n, np.uint8)
        self._trunc = np.zeros(n, np.uint8)
        self.terminations = self._term.view(np.bool_)
        self.truncations = self._trunc.view(np.bool_)
        self._obs = np.zeros((n, O), np.float32) if observations else None
        # read-only like the mask: the library rewrites only the rows of the
        # plots and cards that changed, so a write into it would stay there
        self.observations = None if self._obs is None else self._obs.view()
        if self.observations is not None:
            self.observations.flags.writeable = False
        self._mask = np.zeros((n, A), np.uint8)
        self.action_mask = self._mask.view()
        self.action_mask.flags.writeable = False
        self.legal = np.zeros((n, cap), np.int32)
        self.num_legal = np.zeros(n, np.int32)
        self.seeds = np.zeros(n, np.uint64)
        self.lengths = np.zeros(n, np.int32)
        self._actions = np.zeros(n, np.int32)
        out = ffi.new("ch_vec_out *")
        self._keep = []

        def ptr(ctype, arr):
            c = ffi.from_buffer(ctype, arr)
            self._keep.append(c)
            return c
        out.player = ptr("int32_t[]", self.player)
        out.rewards = ptr("float[]", self.rewards)
        out.terminated = ptr("uint8_t[]", self._term)
        out.truncated = ptr("uint8_t[]", self._trunc)
        out.obs = ptr("float[]", self._obs) if observations else ffi.NULL
        out.mask = ptr("uint8_t[]", self._mask)
        out.legal = ptr("int32_t[]", self.legal)
        out.legal_cap = cap
        out.nlegal = ptr("int32_t[]", self.num_legal)
        out.seed = ptr("uint64_t[]", self.seeds)
        out.length = ptr("int32_t[]", self.lengths)
        self._out = out
        self._act_ptr = ptr("int32_t[]", self._actions)
        self._msg = ffi.new("ch_msg *")
        v = ffi.new("ch_vec **")
        self.autoreset = bool(autoreset)
        if not self.autoreset:
            self.metadata = {"autoreset_mode": "disabled"}
        rc = lib.ch_vec_new(v, g._setup, g._board, n, length,
                            0 if self.autoreset else lib.CH_VEC_NO_AUTORESET, out, self._msg)
        if rc != lib.CH_OK:
            raise ChError(rc, _msg_text(self._msg))
        self._vec = ffi.gc(v[0], lib.ch_vec_free)
        self._ready = False
        self.infos = {"player": self.player, "action_mask": self.action_mask, "legal_ids": self.legal,
                      "num_legal": self.num_legal, "seed": self.seeds, "length": self.lengths}

    # ---- spaces (Gymnasium's when it is importable) ----------------------------------
    @property
    def single_observation_space(self):
        if _gym is None:
            return ((self.obs_size,), np.float32)
        return _gym.spaces.Box(low=0.0, high=np.inf, shape=(self.obs_size,), dtype=np.float32)

    @property
    def single_action_space(self):
        if _gym is None:
            return ((), np.int64, self.num_actions)
        return _gym.spaces.Discrete(self.num_actions)

    @property
    def observation_space(self):
        if _gym is None:
            return ((self.num_envs, self.obs_size), np.float32)
        return _gym.spaces.Box(low=0.0, high=np.inf, shape=(self.num_envs, self.obs_size), dtype=np.float32)

    @property
    def action_space(self):
        if _gym is None:
            return ((self.num_envs,), np.int64, self.num_actions)
        return _gym.spaces.MultiDiscrete(np.full(self.num_envs, self.num_actions))

    # ---- the loop ------------------------------------------------------------------------
    def _result(self):
        if not self.copy:
            return self.observations, self.infos
        return (None if self.observations is None else self.observations.copy(),
                {k: v.copy() for k, v in self.infos.items()})

    def reset(self, seed=None, options=None):
        """Deal every game anew: game i from seed + i (a random seed when
        none is given; infos["seed"] says which). Returns (observations,
        infos); observations is None when the env was made without them."""
        seed = secrets.randbits(64) if seed is None else _int(seed, "seed")
        if not 0 <= seed <= _U64:
            raise ValueError(f"seed must be an int from 0 to 2^64-1, not {seed!r}")
        rc = lib.ch_vec_reset(self._vec, seed, self._msg)
        if rc != lib.CH_OK:
            raise ChError(rc, _msg_text(self._msg))
        self._ready = True
        return self._result()

    def step(self, actions):
        """Apply actions[i] (a legal id of game i's decider) in every game.
        Returns (observations, rewards, terminations, truncations, infos).
        An illegal id raises ChError naming the game, and nothing changes."""
        a = np.asarray(actions)
        if a.shape != (self.num_envs,) or a.dtype.kind not in "iu":
            raise ValueError(f"actions must be {self.num_envs} integer ids, not {a.dtype} {a.shape}")
        if not self._ready:
            raise ValueError("reset() first")
        if a.dtype == np.int32:
            self._actions[:] = a
        else:
            if a.size and (a.min() < 0 or a.max() >= self.num_actions):
                bad = int(np.flatnonzero((a < 0) | (a >= self.num_actions))[0])
                raise ValueError(f"game {bad}: action id {a[bad]} is out of range "
                                 f"(0 to {self.num_actions - 1})")
            self._actions[:] = a
        rc = lib.ch_vec_step(self._vec, self._act_ptr, self._msg)
        if rc != lib.CH_OK:
            raise ChError(rc, _msg_text(self._msg))
        obs, infos = self._result()
        if self.copy:
            return obs, self.rewards.copy(), self.terminations.copy(), self.truncations.copy(), infos
        return obs, self.rewards, self.terminations, self.truncations, infos

    def reset_game(self, i, seed=None):
        """Deal game i alone anew from seed (a random one when none is given)."""
        i = _int(i, "a game")
        if not 0 <= i < self.num_envs:
            raise ValueError(f"game {i} does not exist (0 to {self.num_envs - 1})")
        seed = secrets.randbits(64) if seed is None else _int(seed, "seed")
        if not 0 <= seed <= _U64:
            raise ValueError(f"seed must be an int from 0 to 2^64-1, not {seed!r}")
        if not self._ready:
            raise ValueError("reset() first")
        rc = lib.ch_vec_reset_game(self._vec, i, seed, self._msg)
        if rc != lib.CH_OK:
            raise ChError(rc, _msg_text(self._msg))

    # ---- helpers -----------------------------------------------------------------------
    def legal_ids(self, i):
        """Game i's legal ids (engine order; from the mask when they pass legal_cap)."""
        i = _int(i, "a game")
        if not 0 <= i < self.num_envs:
            raise ValueError(f"game {i} does not exist (0 to {self.num_envs - 1})")
        k = int(self.num_legal[i])
        if k <= self.legal_cap:
            return self.legal[i, :k].copy()
        return np.flatnonzero(self._mask[i]).astype(np.int32)

    def sample_legal(self, rng):
        """A uniformly random legal id for every game: the random policy,
        vectorized. rng is a numpy Generator (or anything with random());
        one 64-bit number is drawn from it and the library draws the ids
        from that (ch_vec_sample: the same rng state and games give the
        same ids). A game that ended and waits for reset_game (autoreset
        off) gets -1."""
        if not self._ready:
            raise ValueError("reset() first")
        bits = getattr(rng, "bit_generator", None)
        seed = int(bits.random_raw()) if bits is not None else int(rng.random() * 2.0 ** 53)
        out = np.empty(self.num_envs, np.int32)
        rc = lib.ch_vec_sample(self._vec, seed, ffi.from_buffer("int32_t[]", out), self._msg)
        if rc != lib.CH_OK:
            raise ChError(rc, _msg_text(self._msg))
        return out

    def state(self, i):
        """A copy of game i as a State (to inspect it, or for a bot); its
        history is not kept by the vector (serialize() then gives its JSON)."""
        i = _int(i, "a game")
        p = lib.ch_vec_state(self._vec, i)
        if p == ffi.NULL:
            raise ValueError(f"game {i}: out of range, or reset() first")
        return State(self.game, _from_ptr=p)

    def close(self):
        pass

    def __repr__(self):
        return f"VectorEnv({self.game!r}, num_envs={self.num_envs})"
