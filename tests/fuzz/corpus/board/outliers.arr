# outliers.arr: variant C, "Outliers", of Chartered: Building Amsterdam.
# Format: docs/formats.md, "Board and arrangement files".
#
# Reconstruction (RULINGS.md, "Building Amsterdam", Boards; the rulebook's
# picture is lost): the four boards in one row, each of the 3 seams a canal
# with a single bridge, at row 2.
arrangement outliers

place Harbour          0    0
place Jordaan          1    0
place "Canal Ring"     2    0
place "Old Side"       3    0

seam Harbour      Jordaan      canal bridge 2
seam Jordaan      "Canal Ring" canal bridge 2
seam "Canal Ring" "Old Side"   canal bridge 2
