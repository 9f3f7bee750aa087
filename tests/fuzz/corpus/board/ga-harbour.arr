# ga-harbour.arr: the harbour side of the board of Chartered: The Golden Age,
# used with 2 or 3 players (RULINGS.md, "Chartered: The Golden Age", Setup
# presets).
# Format: docs/formats.md, "Board and arrangement files".
#
# The Golden Age is played on one double-sided board, so this arrangement
# places a single board: Harbour, lots 1-60, from data/boards/ga-harbour.board
# (a reconstruction: correct that file, not this one). The library resolves
# the board names of the Golden Age arrangements among the Golden Age boards
# (files boards/ga-*), so this Harbour is not Building Amsterdam's district.
arrangement harbour

place Harbour 0 0
