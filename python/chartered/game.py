"""game.py: Game and State, the OpenSpiel-shaped API over libchartered.

A State owns one ch_state (a plain struct: clone() is a copy). Actions are
integers that pack a ch_move (docs/python.md, "Actions"): the same move is the
same integer in every state, legal_actions() lists the legal ones in the
engine's order, and action_to_string / string_to_action go through the
engine's move notation. Every call that the engine refuses raises ChError with
the engine's reason and leaves the state as it was; bad arguments raise
ValueError or TypeError before the engine is called. Nothing here can abort
the interpreter: the engine never exits on input, and every index is checked
first.
"""
import json
import operator
import os
import re
import secrets
import sys

import numpy as np

from ._lib import ffi, lib
from . import observation as _obs

# OpenSpiel's player ids (pyspiel.PlayerId)
CHANCE = -1
SIMULTANEOUS = -2
INVALID = -3
TERMINAL = -4

EDITIONS = {"amsterdam": lib.CH_ED_AMSTERDAM, "golden-age": lib.CH_ED_GOLDEN_AGE}
PRESETS = {"golden-age": lib.CH_GA_PRINTED, "golden-age-first": lib.CH_GA_FIRST}
# The legal-move buffer's first length; it grows when a list is longer (a
# sealed bid or a Coopmanscappen gift lists one move per florin of cash, and
# cash has no fixed ceiling: the bank never runs out, Ruling R-06).
_LEGAL_CAP = 1 << 12
_U64 = (1 << 64) - 1
_MOVE_BYTES = ffi.sizeof("ch_move")
_LITTLE = sys.byteorder == "little"
assert _MOVE_BYTES == 8 and ffi.offsetof("ch_move", "n") == 4, "ch_move is not packed as pack() reads it"


class ChError(Exception):
    """The engine refused: .code is its status (CH_E*), .name its name
    ("illegal"), .reason the engine's message ("Harbour C1 is not in your hand")."""

    def __init__(self, code, reason):
        self.code = int(code)
        self.name = ffi.string(lib.ch_strerror(self.code)).decode()
        self.reason = reason
        super().__init__(f"{self.name}: {reason}")


def _int(x, what):
    """x as a Python int: an int or a numpy integer (operator.index), never a bool."""
    if type(x) is int:  # the common case first: this runs at every step
        return x
    if isinstance(x, (bool, np.bool_)):
        raise TypeError(f"{what} is an int, not bool")
    try:
        return operator.index(x)
    except TypeError:
        raise TypeError(f"{what} is an int, not {type(x).__name__}") from None


def _msg_text(msg):
    return ffi.string(msg.text).decode("utf-8", "replace")


def pack(m):
    """The action integer of a ch_move."""
    return (m.type | (m.a << 8) | (m.b << 16) | (m.c << 24) |
            ((m.n & 0xFFFFFFFF) << 32))


def unpack(action, out):
    """Fill the ch_move out from an action integer; ValueError if it cannot be one."""
    action = _int(action, "an action")
    if action < 0 or action >> 64:
        raise ValueError(f"action {action} is out of range (0 to 2^64-1)")
    t = action & 0xFF
    if t == 0 or t >= lib.CH_M_NTYPES:
        raise ValueError(f"action {action} has no move type (type {t})")
    out.type = t
    out.a = (action >> 8) & 0xFF
    out.b = (action >> 16) & 0xFF
    out.c = (action >> 24) & 0xFF
    n = (action >> 32) & 0xFFFFFFFF
    out.n = n - (1 << 32) if n >= 1 << 31 else n
    return out


class Game:
    """One kind of game: edition, player count, board, preset and events.

    load_game("amsterdam", players=4) or load_game("golden-age", players=5,
    preset="golden-age-first", events=True); arrangement= names a built-in
    arrangement (Building Amsterdam: standard, quick-battle, crossroads,
    outliers; The Golden Age: harbour or centre, by default its preset's side).
    variant= is a variant file's path (docs/variants.md), as the chartered
    command's --variant FILE: its settings (money, hands, hand limit, open
    cards, supply, events) apply to every game; the edition, players, preset,
    events and arrangement it names are used unless given here, and refused
    (ValueError) when given otherwise. variant_text= is the file's text
    itself (get_parameters gives it, so a Game is remade without the file).
    """

    def __init__(self, edition=None, players=None, arrangement=None,
                 preset=None, events=None, variant=None, variant_text=None):
        var = None
        if variant is not None or variant_text is not None:
            if variant is not None and variant_text is not None:
                raise ValueError("give variant (a path) or variant_text, not both")
            if variant is not None:
                if not isinstance(variant, (str, os.PathLike)):
                    raise TypeError("variant is a path (str or os.PathLike)")
                with open(variant, "rb") as f:
                    raw = f.read()
                name = os.fsencode(variant)
            else:
                if not isinstance(variant_text, str):
                    raise TypeError("variant_text is a str")
                raw = variant_text.encode()
                name = b"variant"
            var = ffi.new("ch_variant *")
            msg = ffi.new("ch_msg *")
            rc = lib.ch_variant_parse(var, raw, len(raw), name, msg)
            if rc != lib.CH_OK:
                raise ChError(rc, _msg_text(msg))
            self.variant_text = raw.decode("utf-8", "replace")

            def merge(mine, theirs, what):
                if mine is not None and mine != theirs:
                    raise ValueError(f"{what}={mine!r}, but the variant says {theirs!r}")
                return theirs
            if var.edition >= 0:
                edition = merge(edition, [k for k, v in EDITIONS.items() if v == var.edition][0],
                                "edition")
            if var.nplayers:
                players = merge(players, var.nplayers, "players")
            if var.preset >= 0:
                preset = merge(preset, [k for k, v in PRESETS.items() if v == var.preset][0],
                               "preset")
            if var.arrangement[0] != b"\0":
                arr = ffi.string(var.arrangement).decode()
                if "/" in arr or arr.endswith((".arr", ".board")):
                    raise ValueError(f"the variant plays on the file {arr!r}: Python takes "
                                     "built-in arrangements only (the chartered command reads files)")
                arrangement = merge(arrangement, arr, "arrangement")
        else:
            self.variant_text = None
        edition = "amsterdam" if edition is None else edition
        players = 4 if players is None else players
        preset = "golden-age" if preset is None else preset
        if var is not None and var.events >= 0 and edition == "golden-age":
            events = merge(None if events is None else bool(events), bool(var.events), "events")
        events = False if events is None else events
        if edition not in EDITIONS:
            raise ValueError(f"unknown edition {edition!r} (amsterdam or golden-age)")
        players = _int(players, "players")
        if preset not in PRESETS:
            raise ValueError(f"unknown preset {preset!r} (golden-age or golden-age-first)")
        self.edition = edition
        self._ed = EDITIONS[edition]
        self.preset = preset
        self.events = bool(events)
        self._setup = ffi.new("ch_setup *")
        lib.ch_setup_default(self._setup, self._ed)
        self._setup.nplayers = players
        if self._ed == lib.CH_ED_GOLDEN_AGE:
            self._setup.preset = PRESETS[preset]
            self._setup.events = int(self.events)
            if arrangement is None:
                side = lib.ch_ga_side(PRESETS[preset], players)
                if side == ffi.NULL:
                    raise ValueError(f"The Golden Age is for 2 to 6 players, not {players}")
                arrangement = ffi.string(side).decode()
        elif arrangement is None:
            arrangement = "standard"
        if var is not None:
            msg = ffi.new("ch_msg *")
            rc = lib.ch_variant_apply(var, self._setup, msg)
            if rc != lib.CH_OK:
                raise ChError(rc, _msg_text(msg))
        if not isinstance(arrangement, str):
            raise TypeError("arrangement is a str")
        self.arrangement = arrangement
        self._board = ffi.new("ch_board *")
        msg = ffi.new("ch_msg *")
        rc = lib.ch_board_builtin(self._board, self._ed, arrangement.encode(), msg)
        if rc != lib.CH_OK:
            raise ChError(rc, _msg_text(msg))
        # a trial game checks the player count with the engine's own reason
        st = ffi.new("ch_state *")
        rc = lib.ch_new(st, self._setup, self._board, msg)
        if rc != lib.CH_OK:
            raise ChError(rc, _msg_text(msg))
        self._players = players
        self.nplots = lib.ch_state_board(st).nplots
        self.ncards = st.ncards
        self.ncompanies = st.ncompanies
        self.layout = _obs.Layout(st)
        self._nactions = lib.ch_num_distinct_actions(self._ed, players)
        self._params = {"players": players, "arrangement": arrangement}
        if self._ed == lib.CH_ED_GOLDEN_AGE:
            self._params.update(preset=preset, events=self.events)
        if self.variant_text is not None:
            self._params["variant_text"] = self.variant_text

    def num_players(self):
        return self._players

    def num_distinct_actions(self):
        """The size of the fixed action space (docs/python.md "The fixed
        action space"): every id means the same move in every state."""
        return self._nactions

    def max_game_length(self):
        """A bound on the decisions of one game: the longest game met was
        1,164 decisions (issue 34) and none of 2,000 random games of
        test_selfplay.py comes near; MAX_GAME_LENGTH leaves room for that."""
        return MAX_GAME_LENGTH

    def get_parameters(self):
        """The game's parameters as a dict (load_game(short_name, **them))."""
        return dict(self._params)

    def __str__(self):
        """OpenSpiel's game string, "chartered_amsterdam(arrangement=standard,
        players=4)": load_game(str(game)) makes the same game. A game of a
        variant has no such string (its text holds what a game string
        cannot): ValueError; use get_parameters() then."""
        if "variant_text" in self._params:
            raise ValueError("a game of a variant has no game string: use get_parameters()")
        items = ",".join(f"{k}={v}" for k, v in sorted(self._params.items()))
        return f"{SHORT_NAMES[self.edition]}({items})"

    def observation_tensor_shape(self):
        return [self.layout.size]

    def information_state_tensor_shape(self):
        """[observation_tensor_size() + HISTORY_COLUMNS] (docs/python.md
        "Information state")."""
        return [self.layout.size + HISTORY_COLUMNS]

    def information_state_tensor_size(self):
        return self.layout.size + HISTORY_COLUMNS

    def observation_tensor_size(self):
        return self.layout.size

    def get_type(self):
        """What OpenSpiel's GameType says, as a dict."""
        return {"short_name": SHORT_NAMES[self.edition],
                "dynamics": "sequential (simultaneous sealed bids)",
                "chance_mode": "sampled_stochastic",
                "information": "imperfect_information",
                "utility": "general_sum",
                "reward_model": "terminal",
                "min_num_players": 2, "max_num_players": 5 if self._ed == 0 else 6,
                "provides_information_state_string": True,
                "provides_observation_tensor": True,
                "provides_information_state_tensor": True,
                "provides_observation_string": True}

    def new_initial_state(self, seed=None):
        """A new game dealt from seed (0 to 2^64-1): the same seed gives the
        same game; without one, a random seed (state.seed says which)."""
        return State(self, secrets.randbits(64) if seed is None else seed)

    def state_from_position(self, text):
        """A State from a position (docs/formats.md "Positions": a scenario, a
        rulebook example) of this game's edition, player count and board.
        A position the loader refuses raises ChError with its reason (line and
        what was wrong); one of another game raises ValueError."""
        return State(self, _load=("position", text))

    def state_from_json(self, text):
        """A State from the full state's JSON (State.to_json, ch_state_to_json)."""
        return State(self, _load=("json", text))

    def __repr__(self):
        return (f"load_game({self.edition!r}, players={self._players}, "
                f"arrangement={self.arrangement!r}"
                + (f", preset={self.preset!r}, events={self.events}" if self._ed else "")
                + (f", variant_text={self.variant_text!r}" if self.variant_text is not None else "")
                + ")")


SHORT_NAMES = {"amsterdam": "chartered_amsterdam", "golden-age": "chartered_golden_age"}
# The information state tensor's last block (docs/python.md "Information
# state"): the player's own decisions so far / 1,000, then the player's moves
# of each move type t (ch_move_type 1 .. CH_M_NTYPES - 1) / 100.
HISTORY_COLUMNS = lib.CH_M_NTYPES
_HISTORY_SCALE = np.array([1000] + [100] * (HISTORY_COLUMNS - 1), dtype=np.float32)
MAX_GAME_LENGTH = 10000


def _parse_game_string(text):
    """OpenSpiel's game string "name(key=value,...)" as (name, dict): values
    are ints, True/False, or text (a value may not hold "," or ")"; a
    variant_text cannot be given this way)."""
    m = re.fullmatch(r"\s*([A-Za-z0-9_-]+)\s*(?:\((.*)\))?\s*", text, re.S)
    if not m:
        raise ValueError(f"{text!r} is not a game string (name or name(key=value,...))")
    params = {}
    for item in filter(None, (m.group(2) or "").split(",")):
        key, eq, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or not key.isidentifier():
            raise ValueError(f"{text!r}: {item!r} is not key=value")
        if key in params:
            raise ValueError(f"{text!r}: {key} is given twice")
        if re.fullmatch(r"-?[0-9]+", value):
            value = int(value)
        elif value in ("True", "False", "true", "false"):
            value = value in ("True", "true")
        params[key] = value
    return m.group(1), params


def load_game(edition=None, **params):
    """OpenSpiel's pyspiel.load_game: a Game from its name ("amsterdam",
    "golden-age", or the short_name get_type() reports) and parameters given
    as keywords, or as a game string "chartered_amsterdam(players=3)" (what
    str(game) gives; keywords given too must not contradict it)."""
    if isinstance(edition, str) and "(" in edition:
        edition, given = _parse_game_string(edition)
        for k, v in params.items():
            if k in given and given[k] != v:
                raise ValueError(f"{k}={v!r}, but the game string says {given[k]!r}")
        params = {**given, **params}
    for ed, short in SHORT_NAMES.items():
        if edition == short:
            edition = ed
    return Game(edition, **params)


def _restore(edition, params, seed, history, json_text):
    """Unpickle a State: replay its history from its seed (or load its JSON)."""
    game = load_game(edition, **params)
    if json_text is not None:
        return game.state_from_json(json_text)
    s = game.new_initial_state(seed)
    for p, a in history:
        s.apply_action(a, p)
    return s


class State:
    """A game in progress. See docs/python.md for the API and its conventions."""

    __slots__ = ("game", "_st", "_buf", "_cap", "_msg", "_move", "_history", "seed", "_dm", "_own")

    def __init__(self, game, seed=0, _copy_of=None, _load=None, _from_ptr=None):
        self.game = game
        self._st = ffi.new("ch_state *")
        self._buf = None
        self._cap = 0
        self._msg = ffi.new("ch_msg *")
        self._move = ffi.new("ch_move *")
        self._dm = ffi.new("unsigned *")
        self.seed = None
        self._own = {}  # information_state_tensor: per player, its moves counted so far
        if _copy_of is not None:
            ffi.memmove(self._st, _copy_of._st, ffi.sizeof("ch_state"))
            self._history = list(_copy_of._history)
            self.seed = _copy_of.seed
            return
        if _load is not None:
            self._load(*_load)
            return
        if _from_ptr is not None:  # a copy of a ch_state the library keeps (a vector's game)
            ffi.memmove(self._st, _from_ptr, ffi.sizeof("ch_state"))
            self._history = []  # not known: serialize() gives the JSON
            return
        seed = _int(seed, "seed")
        if seed < 0 or seed > _U64:
            raise ValueError(f"seed must be an int from 0 to 2^64-1, not {seed!r}")
        self.seed = seed
        game._setup.seed = seed
        rc = lib.ch_new(self._st, game._setup, game._board, self._msg)
        if rc != lib.CH_OK:
            raise ChError(rc, _msg_text(self._msg))
        self._history = []

    def _load(self, kind, text):
        if not isinstance(text, str):
            raise TypeError("the position or JSON is a str")
        data = text.encode()
        if kind == "position":
            rc = lib.ch_position_read(self._st, data, len(data), b"position", self._msg)
        else:
            rc = lib.ch_state_from_json(self._st, data, self._msg)
        if rc != lib.CH_OK:
            raise ChError(rc, _msg_text(self._msg))
        g, st = self.game, self._st
        if (st.edition != g._ed or st.nplayers != g._players or lib.ch_state_board(st).nplots != g.nplots
                or st.ncards != g.ncards or st.ncompanies != g.ncompanies):
            raise ValueError(
                f"the {kind} is a game of {'golden-age' if st.edition else 'amsterdam'}, "
                f"{st.nplayers} players, {lib.ch_state_board(st).nplots} plots, not of {g!r}")
        self._history = []  # the moves before it are not known
        self.seed = None

    # ---- who decides ----------------------------------------------------------
    def _mask(self):
        kind = lib.ch_decider(self._st, self._dm)
        return kind, self._dm[0]

    def current_player(self):
        """The deciding player (0-based); SIMULTANEOUS (-2) when several bid at
        once (sealed bids: see deciders()); TERMINAL (-4) when the game is over.
        Never CHANCE: chance is sampled inside the engine (docs/python.md)."""
        kind, mask = self._mask()
        if kind == lib.CH_DEC_TERMINAL:
            return TERMINAL
        if kind == lib.CH_DEC_SIMULTANEOUS:
            return SIMULTANEOUS
        return (mask & -mask).bit_length() - 1

    def deciders(self):
        """Every player who must decide now (several during sealed bids)."""
        kind, mask = self._mask()
        return [p for p in range(self.game._players) if mask >> p & 1]

    def is_terminal(self):
        return self._mask()[0] == lib.CH_DEC_TERMINAL

    def is_chance_node(self):
        return False

    def is_simultaneous_node(self):
        return self._mask()[0] == lib.CH_DEC_SIMULTANEOUS

    def _player(self, player):
        player = _int(player, "a player")
        if not 0 <= player < self.game._players:
            raise ValueError(f"player {player} does not exist (0 to {self.game._players - 1})")
        return player

    def _default_player(self, player):
        if player is not None:
            return self._player(player)
        p = self.current_player()
        if p == TERMINAL:
            raise ChError(lib.CH_EOVER, "the game is over")
        if p == SIMULTANEOUS:
            raise ValueError("several players decide at once (sealed bids): name the "
                             f"player, one of {self.deciders()}")
        return p

    # ---- moves ---------------------------------------------------------------
    def _legal_moves(self, p):
        if self._buf is None:
            self._cap = _LEGAL_CAP
            self._buf = ffi.new("ch_move[]", self._cap)
        n = lib.ch_legal(self._st, p, self._buf, self._cap)
        if n > self._cap:  # ch_legal returns the full count, like snprintf
            self._cap = n
            self._buf = ffi.new("ch_move[]", self._cap)
            n = lib.ch_legal(self._st, p, self._buf, self._cap)
        return max(n, 0)

    def legal_actions(self, player=None):
        """The legal actions of player (default: the one deciding), in the
        engine's order; [] for a player who does not decide now."""
        if player is None:
            p = self.current_player()
            if p == TERMINAL:
                return []
            if p == SIMULTANEOUS:
                raise ValueError("several players decide at once: legal_actions(player)")
        else:
            p = self._player(player)
            if p not in self.deciders():
                return []
        n = self._legal_moves(p)
        # a ch_move's 8 bytes, read as a little-endian 64-bit integer, are
        # its packed action (type | a << 8 | b << 16 | c << 24 | n << 32):
        # numpy reads the whole list at once (a Python loop over the cffi
        # structs was most of a step: issue 34)
        if _LITTLE:
            return np.frombuffer(ffi.buffer(self._buf, n * _MOVE_BYTES), dtype="<u8").tolist()
        b = self._buf
        return [pack(b[i]) for i in range(n)]

    # ---- the fixed action space (docs/python.md) ---------------------------------
    def _mask_player(self, player):
        if player is None:
            p = self.current_player()
            if p == SIMULTANEOUS:
                raise ValueError("several players decide at once: name the player")
            return p
        return self._player(player)

    def legal_actions_mask(self, player=None, out=None):
        """The legal moves of player as a numpy uint8 mask of
        game.num_distinct_actions() (1: legal), written by the library
        (ch_action_mask) into out (a C-contiguous uint8 array of that size)
        or a new array; all zeros for a player who does not decide now."""
        p = self._mask_player(player)
        n = self.game._nactions
        if out is None:
            out = np.empty(n, dtype=np.uint8)  # ch_action_mask writes every byte
        elif (out.dtype != np.uint8 or out.shape != (n,) or not out.flags.c_contiguous
              or not out.flags.writeable):
            raise ValueError(f"out must be a writable contiguous uint8 array of {n}")
        if p == TERMINAL:
            out[:] = 0
            return out
        rc = lib.ch_action_mask(self._st, p, ffi.from_buffer("uint8_t[]", out), n, ffi.NULL)
        if rc < 0:
            raise ChError(-rc, "ch_action_mask")
        return out

    def legal_action_ids(self, player=None):
        """The ids of the legal moves, ascending (numpy int64)."""
        return np.flatnonzero(self.legal_actions_mask(player))

    def action_from_id(self, action_id, player=None):
        """The action (packed move) of a fixed-space id for player; ValueError
        for an id out of range or naming nothing in this game."""
        p = self._default_player(player) if player is None else self._player(player)
        i = _int(action_id, "an action id")
        if lib.ch_action_decode(self._st, p, i, self._move) != lib.CH_OK:
            raise ValueError(f"action id {i} names no move of this game "
                             f"(0 to {self.game._nactions - 1})")
        return pack(self._move[0])

    def action_id(self, action):
        """The fixed-space id of an action; ValueError when it has none."""
        i = lib.ch_action_encode(self._st, unpack(action, self._move)[0])
        if i < 0:
            raise ValueError(f"action {action} has no id (amounts above "
                             f"f{lib.CH_ACTION_MONEY_MAX} have none)")
        return i

    def apply_action_id(self, action_id, player=None):
        """apply_action of the move of a fixed-space id."""
        p = self._default_player(player)
        self.apply_action(self.action_from_id(action_id, p), p)

    def action_id_to_string(self, player, action_id):
        """The id's move in the engine's notation (ch_action_str)."""
        return self.action_to_string(player, self.action_from_id(action_id, player))

    def string_to_action_id(self, player, text):
        """The id of a move in notation (ch_action_parse)."""
        p = self._player(player)
        if not isinstance(text, str):
            raise TypeError("a move is a str")
        i = ffi.new("int32_t *")
        rc = lib.ch_action_parse(self._st, p, text.encode(), i, self._msg)
        if rc != lib.CH_OK:
            raise ChError(rc, _msg_text(self._msg))
        return i[0]

    def apply_action(self, action, player=None):
        """Apply an action of player (default: the one deciding; during sealed
        bids name the player). An illegal action raises ChError with the
        engine's reason and changes nothing."""
        p = self._default_player(player)
        m = unpack(action, self._move)
        rc = lib.ch_apply(self._st, p, m[0], self._msg)
        if rc != lib.CH_OK:
            raise ChError(rc, _msg_text(self._msg))
        self._history.append((p, pack(m[0])))

    def apply_actions(self, actions):
        """OpenSpiel's simultaneous move: actions[p] for every player p (entries
        of players who do not decide are ignored); applied in seat order. All
        are checked first, so a refused one changes nothing."""
        if not self.is_simultaneous_node():
            raise ValueError("apply_actions is for simultaneous nodes; use apply_action")
        if len(actions) != self.game._players:
            raise ValueError(f"{len(actions)} actions for {self.game._players} players")
        who = self.deciders()
        for p in who:
            m = unpack(actions[p], self._move)
            rc = lib.ch_check(self._st, p, m[0], self._msg)
            if rc != lib.CH_OK:
                raise ChError(rc, f"player {p}: " + _msg_text(self._msg))
        trial = self.clone()
        for p in who:
            trial.apply_action(actions[p], p)  # a later bid may depend on an earlier
        ffi.memmove(self._st, trial._st, ffi.sizeof("ch_state"))
        self._history = trial._history

    def action_to_string(self, player, action):
        """The move in the engine's notation ("play Harbour C1")."""
        self._player(player)
        m = unpack(action, self._move)
        buf = ffi.new("char[]", 256)
        lib.ch_move_str(self._st, m[0], buf, 256)
        return ffi.string(buf).decode()

    def string_to_action(self, player, text):
        """The action of a move in notation for player; ChError when it does not read."""
        p = self._player(player)
        if not isinstance(text, str):
            raise TypeError("a move is a str")
        rc = lib.ch_move_parse(self._st, p, text.encode(), self._move, self._msg)
        if rc != lib.CH_OK:
            raise ChError(rc, _msg_text(self._msg))
        return pack(self._move[0])

    def history(self):
        """The actions applied so far, as (player, action) pairs."""
        return list(self._history)

    # ---- outcomes ---------------------------------------------------------------
    def scores(self):
        """Final scores in florins (cash + stocks at value) and the winners."""
        sc = ffi.new("int32_t[]", lib.CH_MAX_PLAYERS)
        w = ffi.new("unsigned *")
        rc = lib.ch_scores(self._st, sc, w)
        if rc != lib.CH_OK:
            raise ChError(rc, "the game is not over")
        n = self.game._players
        return [sc[i] for i in range(n)], [p for p in range(n) if w[0] >> p & 1]

    def returns(self):
        """1.0 for each winner (a shared win counts for every winner), 0.0 for
        the others; all 0.0 while the game runs (docs/python.md)."""
        n = self.game._players
        if not self.is_terminal():
            return [0.0] * n
        _, winners = self.scores()
        return [1.0 if p in winners else 0.0 for p in range(n)]

    def rewards(self):
        return self.returns() if self.is_terminal() else [0.0] * self.game._players

    # ---- information -------------------------------------------------------------
    def view(self, player):
        """What player may see, as the engine's JSON view (a dict); -1: a spectator."""
        if player != -1:
            self._player(player)
        text = lib.ch_view_json(self._st, player, lib.CH_JSON_COMPACT | lib.CH_JSON_DYNAMIC)
        if text == ffi.NULL:
            raise MemoryError("ch_view_json")
        try:
            return json.loads(ffi.string(text).decode())
        finally:
            lib.ch_free(text)

    def information_state_string(self, player):
        """player's information: the engine's view for player (every hidden
        thing removed) as compact JSON, plus the player's own past actions."""
        p = self._player(player)
        text = lib.ch_view_json(self._st, p, lib.CH_JSON_COMPACT | lib.CH_JSON_DYNAMIC)
        try:
            view = ffi.string(text).decode()
        finally:
            lib.ch_free(text)
        own = ",".join(str(a) for q, a in self._history if q == p)
        return view + "\nown:" + own

    def observation_string(self, player):
        p = self._player(player)
        text = lib.ch_view_json(self._st, p, lib.CH_JSON_COMPACT | lib.CH_JSON_DYNAMIC)
        try:
            return ffi.string(text).decode()
        finally:
            lib.ch_free(text)

    def observation_tensor(self, player):
        """A float32 numpy vector of game.observation_tensor_size() built from
        player's view only; the layout is docs/python.md's."""
        p = self._player(player)
        n = self.game.layout.size
        t = np.empty(n, dtype=np.float32)
        lib.ch_observation(self._st, p, ffi.from_buffer("float[]", t), n)  # p checked: cannot fail
        return t

    def information_state_tensor(self, player):
        """player's information state as a float32 vector of
        game.information_state_tensor_size(): the observation tensor, then
        what player did (the "history" block: decisions, moves by type).
        Built from what player may see and did only; a summary, not a
        perfect-recall encoding (information_state_string keeps every own
        move): docs/python.md "Information state"."""
        p = self._player(player)
        n = self.game.layout.size
        t = np.empty(n + HISTORY_COLUMNS, dtype=np.float32)
        lib.ch_observation(self._st, p, ffi.from_buffer("float[]", t), n)  # p checked: cannot fail
        # the counts go on from the last call's (the history only grows; a
        # new list, as apply_actions makes, is counted again)
        hist = self._history
        mine = self._own.get(p)
        if mine is None or mine[0] is not hist or mine[1] > len(hist):
            mine = [hist, 0, np.zeros(HISTORY_COLUMNS, dtype=np.float32)]
            self._own[p] = mine
        counts = mine[2]
        for q, a in hist[mine[1]:]:
            if q == p:
                counts[0] += 1
                counts[a & 0xFF] += 1
        mine[1] = len(hist)
        np.divide(counts, _HISTORY_SCALE, out=t[n:])
        return t

    def observation_tensor_into(self, player, out):
        """Write player's tensor into out (a contiguous float32 array of
        game.observation_tensor_size(), e.g. a row of a batch) without a copy."""
        p = self._player(player)
        n = self.game.layout.size
        if (out.dtype != np.float32 or out.shape != (n,) or not out.flags.c_contiguous
                or not out.flags.writeable):
            raise ValueError(f"out must be a writable contiguous float32 array of {n}")
        rc = lib.ch_observation(self._st, p, ffi.from_buffer("float[]", out), n)
        if rc != lib.CH_OK:
            raise ChError(rc, "ch_observation")
        return out

    def resample_from_infostate(self, player, seed=0):
        """A new State that player cannot tell from this one: what player
        cannot see (other hands, deck order, others' unrevealed bids, in The
        Golden Age others' stocks) re-dealt consistently with player's view
        (ch_determinize)."""
        p = self._player(player)
        seed = _int(seed, "seed")
        if not 0 <= seed <= _U64:
            raise ValueError("seed must be an int from 0 to 2^64-1")
        s = self.clone()
        lib.ch_determinize(s._st, p, seed)
        return s

    # ---- the rest ------------------------------------------------------------------
    def clone(self):
        return State(self.game, _copy_of=self)

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()

    def serialize(self):
        """The state as text: the game, the seed and the (player, action)
        history, replayed by deserialize; a state loaded from a position or
        JSON (no seed) carries its full JSON instead."""
        g = self.game
        doc = {"edition": g.edition, "params": g.get_parameters()}
        if self.seed is None:
            doc["json"] = self.to_json()
        else:
            doc["seed"] = self.seed
            doc["history"] = [[p, a] for p, a in self._history]
        return json.dumps(doc)

    def __reduce__(self):
        g = self.game
        if self.seed is None:
            return (_restore, (g.edition, g.get_parameters(), None, None, self.to_json()))
        return (_restore, (g.edition, g.get_parameters(), self.seed, list(self._history), None))

    def validate(self):
        """Run the engine's full consistency check; ChError if it fails."""
        rc = lib.ch_validate(self._st, self._msg)
        if rc != lib.CH_OK:
            raise ChError(rc, _msg_text(self._msg))

    def to_json(self):
        """The full state (hidden things included) as the engine's JSON text."""
        text = lib.ch_state_to_json(self._st)
        try:
            return ffi.string(text).decode()
        finally:
            lib.ch_free(text)

    def phase(self):
        return ffi.string(lib.ch_phase_name(self._st.phase)).decode()

    def __str__(self):
        return self.to_json()

    def __eq__(self, other):
        return isinstance(other, State) and ffi.buffer(self._st)[:] == ffi.buffer(other._st)[:]

    __hash__ = None


def deserialize_state(text):
    """The State of State.serialize()'s text (its history replayed)."""
    doc = json.loads(text)
    return _restore(doc["edition"], doc["params"], doc.get("seed"),
                    [tuple(x) for x in doc.get("history", [])], doc.get("json"))
