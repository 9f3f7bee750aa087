#!/usr/bin/env bash
# make_seeds.sh: (re)writes the checked-in seed corpora of the harnesses
# whose seeds come from the repository's data (tests/fuzz/README.md). Each
# corpus stays small: a seed per kind of input, not a dump of games.
# usage: bash tests/fuzz/make_seeds.sh BUILD/chartered   (from the top folder)
set -euo pipefail
BIN=$(realpath "$1")
cd "$(dirname "$0")"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

# notation: byte 0 picks a state of fuzz_common.c (low 4 bits) and a player
# offset (high bits); the rest is a move text of each kind of move.
rm -rf corpus/notation && mkdir -p corpus/notation
i=0
while IFS= read -r mv; do
    printf "\\x$(printf %02x $((i % 16)))%s" "$mv" >"corpus/notation/$(printf %02d $i)"
    i=$((i + 1))
done <<'MOVES'
draw
take Harbour F1
take L2
refresh
done
pass
play Harbour C1
play L3 Harbour C1 roof
play Jordaan D4 + Old Side E1
play Harbour 12
sell Gold
sell 2 Coffee
keep Tobacco
buy Gunpowder
hq Jordaan E4
lone
found Coal
credit Coffee
merge Gold into Coffee
action roof
action event
event deck
event Verlappen
bid f120
lose Coal
offer P2
give Harbour C1
ask f50
give Gold
propose
withdraw
accept
decline
auction stock Gold
auction own Coal
auction deck
auction discard
pick Harbour A1
free Harbour 3 + Harbour 4
flag Pepper
MOVES

# state_json: byte 0 picks a base state of fuzz_common.c, the rest is a JSON
# merge patch on it (fuzz_state_json.c); one seed is text that is no object.
rm -rf corpus/state_json && mkdir -p corpus/state_json
seed() { printf "\\x$1%s" "$2" >"corpus/state_json/$3"; }
seed 00 '{}' empty
seed 01 '{}' empty-golden-age
seed 04 '{"turn":{"phase":"merge","actor":1}}' turn-phase
seed 06 '{"players":{"0":{"cash":999,"hand":["Harbour C1"]}}}' player-hand
seed 08 '{"companies":{"2":{"value":40,"on_chart":true,"hq":"Harbour A1"}}}' company
seed 0a '{"plots":{"0":{"height":2,"owner":"Coal","flags":["hq"]}}}' plot
seed 0c '{"event":{"kind":"Veilinge","bidders":[0,1],"bids":[10,20]}}' event
seed 0e '{"piles":{"market":[null,null]},"leftovers":{"deck":[]}}' piles
seed 03 '{"merger":{"pending":["Gold"],"absorbed":"Coffee"}}' merger
seed 05 '{"board":{"plots":{"3":{"adjacent":["Harbour 1"]}}}}' board
seed 07 '{"game":{"player_count":7},"rng":null}' game
seed 09 '{"format":"chartered-view"}' view
seed 0b '["not an object"]' text

# board: every built-in arrangement, and one that places a board of the
# input itself (after a form feed) named "Fuzz ...".
rm -rf corpus/board && mkdir -p corpus/board
for f in ../../data/arrangements/*.arr; do
    cp "$f" "corpus/board/$(basename "$f")"
done
{
    printf 'arrangement fuzz\nplace "Fuzz One" 0 0\nplace Jordaan 1 0\n'
    printf 'seam "Fuzz One" Jordaan canal bridges 1 4\n\f'
    sed 's/^board Harbour/board Fuzz One/' ../../data/boards/harbour.board
} >corpus/board/fuzz-board.arr
# variant: every shipped variant, one with every setting, and a few
# refused ones (a misspelt key, a setting twice, settings that disagree).
rm -rf corpus/variant && mkdir -p corpus/variant
for f in ../../data/variants/*.variant; do
    cp "$f" "corpus/variant/$(basename "$f")"
done
printf 'variant "every setting"\nedition amsterdam\nplayers 3\nevents off\narrangement crossroads\ncash f500\ncash 2 -f100\ncash +f10\ncash 3 +f20\nhand 6\nhand-limit 11\nopen 4\nwarehouses 30\n' \
    >corpus/variant/every-setting.variant
printf 'variant ga\nedition golden-age\npreset golden-age-first\nevents on\nhand 12\nopen 5\nwarehouses 255\n' \
    >corpus/variant/golden-age.variant
printf 'variant x\nhands 7\n' >corpus/variant/refused-misspelt
printf 'variant x\nopen 3\nopen 4\n' >corpus/variant/refused-twice
printf 'variant x\nedition golden-age\nhand-limit 9\n' >corpus/variant/refused-together
printf 'variant x\nprice purchase f60\nend turn 30\n' >corpus/variant/refused-price
echo "seeds written under $(pwd)/corpus"
