arrangement fuzz
place "Fuzz One" 0 0
place Jordaan 1 0
seam "Fuzz One" Jordaan canal bridges 1 4
# harbour.board: the Harbour district board of Chartered: Building Amsterdam.
# Format: docs/formats.md, "Board and arrangement files".
#
# Reconstruction (RULINGS.md, "Building Amsterdam", Boards): 6 columns A-F by
# 4 rows 1-4, a plot named by column letter then row number ("Harbour C1").
# Orthogonal neighbours are connected. A canal runs between rows 2 and 3,
# crossed by bridges at columns B and E only. If your copy of the game differs,
# correct it here: every built-in arrangement reads this file.
board Fuzz One
row    A1 B1 C1 D1 E1 F1
row    A2 B2 C2 D2 E2 F2
canal  ~  =  ~  ~  =  ~
row    A3 B3 C3 D3 E3 F3
row    A4 B4 C4 D4 E4 F4
