# crossroads.arr: variant B, "Crossroads", of Chartered: Building Amsterdam.
# Format: docs/formats.md, "Board and arrangement files".
#
# Reconstruction (RULINGS.md, "Building Amsterdam", Boards; the rulebook's
# picture is lost): the four boards 2 by 2, each seam a canal with a single
# bridge at its middle: row 2 of 4 where boards lie side by side, column C of 6
# where one lies above the other.
arrangement crossroads

place Harbour          0    0
place Jordaan          1    0
place "Canal Ring"     0    1
place "Old Side"       1    1

seam Harbour      Jordaan      canal bridge 2
seam "Canal Ring" "Old Side"   canal bridge 2
seam Harbour      "Canal Ring" canal bridge 3
seam Jordaan      "Old Side"   canal bridge 3
