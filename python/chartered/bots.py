"""bots.py: the library's bots (src/ai: random, greedy, rollout, ISMCTS; docs/bots.md)
as Python policies over the fixed action space (docs/python.md "Bots").

A bot is called on what holds the game and answers with action ids:
    bot(state)          the id for the State's decider (or bot(state, player))
    bot(aec_env)        the id for the AECEnv's agent_selection
    bot(vector_env)     an int32 array of ids, one per game (rows= a subset:
                        the other rows get 0, for mixing a learner with bots)
It reads the game in place (no copy), and like every bot of the library
decides from a copy determinized for its seat (ch_bot_choose), so it never
sees what that seat cannot. A move without an id (a bid above
CH_ACTION_MONEY_MAX florins, Ruling R-06) is played as the largest legal id,
the nearest amount that has one (amounts are the last ids of their sections).
"""
import numpy as np

from ._lib import ffi, lib
from .game import ChError, State, SIMULTANEOUS, TERMINAL, _int, _msg_text, _U64


class Bot:
    """Bot(name, options="", seed=0): name "random", "greedy", "rollout" or "ismcts";
    options "key=value,...", e.g. "iterations=200" or "cpu=0.1,playout=fast"
    (docs/bots.md). Deterministic given its seed."""

    def __init__(self, name, options="", seed=0):
        if not isinstance(name, str) or not isinstance(options, str):
            raise TypeError("the name and options are str")
        seed = _int(seed, "seed")
        if not 0 <= seed <= _U64:
            raise ValueError(f"seed must be an int from 0 to 2^64-1, not {seed!r}")
        b = ffi.new("ch_bot **")
        self._msg = ffi.new("ch_msg *")
        rc = lib.ch_bot_new(b, name.encode(), options.encode(), seed, self._msg)
        if rc != lib.CH_OK:
            raise ChError(rc, _msg_text(self._msg))
        self._bot = ffi.gc(b[0], lib.ch_bot_free)
        self._move = ffi.new("ch_move *")
        self.name = name
        self.options = options

    def _id(self, st, p, legal):
        """The id of the bot's move for seat p in the ch_state st; legal():
        the legal ids, for a move without an id."""
        rc = lib.ch_bot_choose(self._bot, st, p, self._move, self._msg)
        if rc != lib.CH_OK:
            raise ChError(rc, _msg_text(self._msg))
        i = lib.ch_action_encode(st, self._move[0])
        return int(i) if i >= 0 else int(np.max(legal()))

    def __call__(self, game, player=None, rows=None):
        # a VectorEnv: every game (or rows), its decider
        if hasattr(game, "num_envs"):
            out = np.zeros(game.num_envs, np.int32)
            for i in (range(game.num_envs) if rows is None else rows):
                p = int(game.player[i])
                if p < 0:
                    continue  # an ended game waiting for its deal (autoreset=False)
                st = lib.ch_vec_state(game._vec, i)
                out[i] = self._id(st, p, lambda: game.legal_ids(i))
            return out
        # an AECEnv: the agent to act
        if hasattr(game, "agent_selection"):
            agent = game.agent_selection
            if agent is None or game.terminations[agent] or game.truncations[agent]:
                raise ValueError("no agent is deciding: step(None) for a finished agent")
            return self._id(game._st, game._index[agent], lambda: game.legal_ids(agent))
        if isinstance(game, State):
            if player is None:
                player = game.current_player()
                if player == TERMINAL:
                    raise ChError(lib.CH_EOVER, "the game is over")
                if player == SIMULTANEOUS:
                    player = game.deciders()[0]
            p = game._player(player)
            return self._id(game._st, p, lambda: game.legal_action_ids(p))
        raise TypeError(f"a bot plays a State, an AECEnv or a VectorEnv, not {type(game).__name__}")

    def describe(self):
        return ffi.string(lib.ch_bot_describe(self._bot)).decode()

    def __repr__(self):
        return f"Bot({self.describe()!r})"


class RandomBot(Bot):
    """A uniformly random legal move (the library's random bot)."""

    def __init__(self, seed=0):
        super().__init__("random", "", seed)


class GreedyBot(Bot):
    """The library's one-ply greedy bot (docs/bots.md)."""

    def __init__(self, seed=0):
        super().__init__("greedy", "", seed)


class RolloutBot(Bot):
    """Between greedy and ISMCTS, a few ms a move (docs/bots.md): greedy's
    best moves played on a few decisions from a few determinizations;
    rollouts=, width=, depth=, policy= ("greedy", "fast"), trust=, as
    keywords."""

    def __init__(self, seed=0, **options):
        text = ",".join(f"{k}={v}" for k, v in options.items())
        super().__init__("rollout", text, seed)


class ISMCTSBot(Bot):
    """Information-set MCTS (docs/bots.md): iterations=, cpu= or time=
    (seconds a move), threads=, playout= ("fast", "random", "greedy"),
    memory= (MiB), and the other options of ch_bot_new, as keywords."""

    def __init__(self, seed=0, **options):
        text = ",".join(f"{k}={v}" for k, v in options.items())
        super().__init__("ismcts", text, seed)
