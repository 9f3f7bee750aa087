# standard.arr: the standard arrangement of Chartered: Building Amsterdam, the
# one the rulebook's setup uses for beginning players.
# Format: docs/formats.md, "Board and arrangement files".
#
# Reconstruction (RULINGS.md, "Building Amsterdam", Boards; the rulebook's
# picture is lost): the four boards 2 by 2, every seam a canal with two
# bridges, one near each end of the seam. Along a seam between boards side by
# side, positions count rows from the top (1-4); between boards one above the
# other they count columns from the left (1-6).
arrangement standard

#     board         column row
place Harbour          0    0
place Jordaan          1    0
place "Canal Ring"     0    1
place "Old Side"       1    1

# Side by side (4 plots face each other): bridges at rows 1 and 4.
seam Harbour      Jordaan     canal bridges 1 4
seam "Canal Ring" "Old Side"  canal bridges 1 4
# One above the other (6 plots face each other): bridges at columns B and E.
seam Harbour      "Canal Ring" canal bridges 2 5
seam Jordaan      "Old Side"   canal bridges 2 5
