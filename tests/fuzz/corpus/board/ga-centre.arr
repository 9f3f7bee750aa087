# ga-centre.arr: the city centre side of the board of Chartered: The Golden
# Age, used with 4 to 6 players (RULINGS.md, "Chartered: The Golden Age", Setup
# presets).
# Format: docs/formats.md, "Board and arrangement files".
#
# The Golden Age is played on one double-sided board, so this arrangement
# places a single board: City Centre, lots 1-95, from
# data/boards/ga-centre.board (a reconstruction: correct that file, not this
# one). The library resolves the board names of the Golden Age arrangements
# among the Golden Age boards (files boards/ga-*).
arrangement centre

place "City Centre" 0 0
