"""observation.py: the observation tensor of a player (docs/python.md,
"Observation tensor"), built from the engine's view of that player
(ch_view_json), never from the full state: what the view leaves out cannot
reach the tensor. Seats are relative: row 0 of every per-player block is the
observing player, row k the player k seats after (clockwise).
"""
import numpy as np

from ._lib import ffi, lib

PLOT_FLAGS = ["hq", "upside", "roof", "nopiece", "free"]
EVENT_SLOTS = 12  # max(CH_EV_KINDS, CH_GE_KINDS)


class Layout:
    """Sizes and offsets of the blocks for one Game (P players, C companies,
    K cards, N plots)."""

    def __init__(self, game):
        P, C, K, N = game.num_players(), game.ncompanies, game.ncards, game.nplots
        self.P, self.C, self.K, self.N = P, C, K, N
        self.nphases = lib.CH_PH_COUNT
        self.blocks = [
            ("plots", N, 1 + (C + 1) + len(PLOT_FLAGS)),
            ("companies", C, 5 + P),
            ("players", P, 7 + C),
            ("cards", K, 4 + P),
            ("piles", 1, 3 + EVENT_SLOTS),
            ("turn", 1, self.nphases + 3 * P + 5),
            ("bids", 1, P + 2),
        ]
        self.offset = {}
        o = 0
        for name, rows, cols in self.blocks:
            self.offset[name] = (o, rows, cols)
            o += rows * cols
        self.size = o
        self.phase_index = {ffi.string(lib.ch_phase_name(i)).decode(): i
                            for i in range(self.nphases)}
        ed_ga = game._ed == lib.CH_ED_GOLDEN_AGE
        kinds = lib.CH_GE_KINDS if ed_ga else lib.CH_EV_KINDS
        name_of = lib.ch_ga_event_name if ed_ga else lib.ch_event_name
        self.event_index = {ffi.string(name_of(k)).decode(): k for k in range(kinds)}
        self._stamp = None
        self._cards = {}
        self._plots = {}
        self._companies = {}

    def _static(self, state, p):
        """Names of cards, plots and companies to their indices, read from the
        view's static part (it changes only when ch_view_static_stamp does)."""
        stamp = lib.ch_view_static_stamp(state._st, p)
        if stamp == self._stamp and self._cards:
            return
        text = lib.ch_view_json(state._st, p, lib.CH_JSON_COMPACT | lib.CH_JSON_STATIC)
        try:
            import json
            st = json.loads(ffi.string(text).decode())
        finally:
            lib.ch_free(text)
        self._cards = {c["name"]: c["id"] for c in st["cards"]}
        self._plots = {q["name"]: i for i, q in enumerate(st["board"]["plots"])}
        self._companies = {ffi.string(lib.ch_company_name(state._st, c)).decode(): c
                           for c in range(self.C)}
        self._stamp = stamp

    def block(self, t, name):
        o, rows, cols = self.offset[name]
        return t[o:o + rows * cols].reshape(rows, cols)

    def tensor(self, state, p, v):
        self._static(state, p)
        P, C = self.P, self.C
        rel = lambda seat: (seat - p) % P  # noqa: E731
        co = self._companies
        t = np.zeros(self.size, dtype=np.float32)

        b = self.block(t, "plots")
        for q in v["plots"]:
            i = self._plots[q["plot"]]
            b[i, 0] = q["height"]
            b[i, 1 + (0 if q["owner"] is None else 1 + co[q["owner"]])] = 1
            for f in q["flags"]:
                b[i, 2 + C + PLOT_FLAGS.index(f)] = 1

        b = self.block(t, "companies")
        for c, x in enumerate(v["companies"]):
            b[c, 0] = x["value"]
            b[c, 1] = 1 if x["on_chart"] else 0
            b[c, 2] = x["bank"]
            b[c, 3] = 0 if x["hq"] is None else 1
            if x.get("flag") is None:
                b[c, 4] = 1
            else:
                b[c, 5 + rel(x["flag"])] = 1

        b = self.block(t, "players")
        cards = self.block(t, "cards")
        for x in v["players"]:
            k = rel(x["seat"])
            b[k, 0] = x["cash"]
            b[k, 1] = x["action_cards"]
            b[k, 2] = x["roofs"]
            b[k, 3] = x["hand_count"]
            b[k, 4] = x["flags"]
            b[k, 5] = x["hidden_levels"]
            if "stocks" in x:
                b[k, 6] = 1
                for name, n in x["stocks"].items():
                    b[k, 7 + co[name]] = n
            else:
                b[k, 7:7 + C] = -1
            for name in x.get("hand", ()):
                cards[self._cards[name], 0] = 1
            for name in x.get("known", ()):
                cards[self._cards[name], 4 + k] = 1
        piles = v["piles"]
        for name in piles["market"]:
            if name is not None:
                cards[self._cards[name], 1] = 1
        for name in piles["discard"]:
            cards[self._cards[name], 2] = 1
        for name in piles["look"]:
            if name is not None and name in self._cards:
                cards[self._cards[name], 3] = 1

        b = self.block(t, "piles")
        b[0, 0] = piles["deck_count"]
        b[0, 1] = piles["reserve_count"]
        b[0, 2] = piles["event_deck_count"]
        for name in piles["event_open"]:
            if name is not None:
                b[0, 3 + self.event_index[name]] += 1

        b = self.block(t, "turn")
        tu = v["turn"]
        b[0, self.phase_index[tu["phase"]]] = 1
        o = self.nphases
        b[0, o + rel(tu["active"])] = 1
        if tu["actor"] is not None and tu["actor"] < P:
            b[0, o + P + rel(tu["actor"])] = 1
        for s in v["deciders"]:
            b[0, o + 2 * P + rel(s)] = 1
        o += 3 * P
        b[0, o] = 1 if p in v["deciders"] else 0
        b[0, o + 1] = 1 if tu["end_triggered"] else 0
        b[0, o + 2] = 1 if tu["over"] else 0
        b[0, o + 3] = tu["number"]
        b[0, o + 4] = tu["passes"]

        b = self.block(t, "bids")
        ev = v["event"]
        for seat, bid in enumerate(ev["bids"]):
            b[0, rel(seat)] = -1 if bid is None else bid
        b[0, P] = 1 if ev["bids_revealed"] else 0
        b[0, P + 1] = ev["bid_round"]
        return t
