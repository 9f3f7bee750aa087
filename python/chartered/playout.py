"""playout.py: random play that mirrors `chartered selfplay` move for move.

random_playout(state, seed) plays the game to its end exactly as the C
self-play checker (src/cli/cmd_selfplay.c) does for a game of that seed: the
lowest-numbered deciding player moves (sealed bids: seat order), choosing
uniformly among ch_legal's moves with the library's xoshiro256** (ch_rng)
seeded with seed ^ 0x5eedc0ffee123457, applied with ch_apply_fast. So Python
and C give the same games for the same seeds (tests/python/test_selfplay.py).
"""
from ._lib import ffi, lib

_MIX = 0x5eedc0ffee123457
_CAP = 1 << 14  # the move buffer's first length; it grows for a longer list


def random_playout(state, seed, max_decisions=100000):
    """Play state to its end; returns the number of decisions made."""
    st = state._st
    rng = ffi.new("ch_rng *")
    lib.ch_rng_seed(rng, (seed ^ _MIX) & ((1 << 64) - 1))
    cap = _CAP
    buf = ffi.new("ch_move[]", cap)
    mask = ffi.new("unsigned *")
    n = 0
    terminal = lib.CH_DEC_TERMINAL
    while lib.ch_decider(st, mask) != terminal:
        if n >= max_decisions:
            raise RuntimeError(f"no end after {max_decisions} decisions")
        m = mask[0]
        p = (m & -m).bit_length() - 1
        cnt = lib.ch_legal(st, p, buf, cap)
        if cnt > cap:  # a rich player's bid: one move per florin; grow
            cap = cnt
            buf = ffi.new("ch_move[]", cap)
            cnt = lib.ch_legal(st, p, buf, cap)
        if cnt <= 0:
            raise RuntimeError(f"player {p} has {cnt} legal moves")
        lib.ch_apply_fast(st, p, buf[lib.ch_rng_below(rng, cnt)])
        n += 1
    return n
