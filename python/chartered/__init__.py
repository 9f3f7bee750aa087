"""chartered: Python bindings of libchartered, the rules engine of Chartered:
Building Amsterdam and Chartered: The Golden Age (docs/python.md).

    import chartered
    game = chartered.load_game("golden-age", players=4)
    state = game.new_initial_state(seed=7)
    while not state.is_terminal():
        p = state.current_player()          # SIMULTANEOUS during sealed bids
        ...
        state.apply_action(action, p)
    print(state.returns())

The shape follows OpenSpiel (Game, State, current_player, legal_actions,
apply_action, is_terminal, returns, clone, information_state_string,
observation_tensor, resample_from_infostate); chartered.Env is a reset/step
environment with an action mask. Uses cffi in ABI mode over libchartered.so
and numpy, both from Debian (python3-cffi, python3-numpy).
"""
from ._lib import VERSION as __version__, LIB_PATH, HEADER_PATH, DECLARATIONS  # noqa: F401
from .game import (CHANCE, SIMULTANEOUS, INVALID, TERMINAL, ChError, Game, State,  # noqa: F401
                   load_game, pack, unpack, deserialize_state)
from .env import Env  # noqa: F401
from .aec import AECEnv  # noqa: F401
from .vector import VectorEnv  # noqa: F401
from .bots import Bot, RandomBot, GreedyBot, RolloutBot, ISMCTSBot  # noqa: F401
from .playout import random_playout  # noqa: F401
