"""observation.py: the layout of the observation tensor (docs/python.md,
"Observation tensor built in C"). The tensor itself is written by the
library (ch_observation, src/core/obs.c) straight into a numpy array, from
what the player may see only; this names its blocks (ch_observation_block)
so that code can read one block as a 2-D view.
"""
from ._lib import ffi, lib


class Layout:
    """Blocks of one Game's tensor: name -> (offset, rows, columns)."""

    def __init__(self, st):
        self.offset = {}
        o, r, c = ffi.new("int *"), ffi.new("int *"), ffi.new("int *")
        i = 0
        while True:
            name = lib.ch_observation_block(st, i, o, r, c)
            if name == ffi.NULL:
                break
            self.offset[ffi.string(name).decode()] = (o[0], r[0], c[0])
            i += 1
        self.blocks = [(n, rows, cols) for n, (_, rows, cols) in self.offset.items()]
        self.size = lib.ch_observation_size(st)

    def block(self, t, name):
        """Block name of tensor t as a (rows, columns) view."""
        o, rows, cols = self.offset[name]
        return t[o:o + rows * cols].reshape(rows, cols)
