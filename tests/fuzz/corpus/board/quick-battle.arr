# quick-battle.arr: variant A, "Quick battle", of Chartered: Building Amsterdam.
# Format: docs/formats.md, "Board and arrangement files".
#
# Reconstruction (RULINGS.md, "Building Amsterdam", Boards; the rulebook's
# picture is lost): the four boards 2 by 2 with every seam open, so every pair
# of facing plots across a seam is connected.
arrangement quick-battle

place Harbour          0    0
place Jordaan          1    0
place "Canal Ring"     0    1
place "Old Side"       1    1

seam Harbour      Jordaan      open
seam "Canal Ring" "Old Side"   open
seam Harbour      "Canal Ring" open
seam Jordaan      "Old Side"   open
