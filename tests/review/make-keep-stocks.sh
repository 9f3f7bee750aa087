#!/usr/bin/env bash
# make-keep-stocks.sh: how tests/review/keep-stocks.json was made (issue 33):
# a greedy game of four (seed 2) is played; from the position 12 moves before
# its first merger sale of 3 or more stocks a game file is started, the moves
# up to the sale are made, and the seller keeps every absorbed stock (then
# "worth nothing", Ruling R-24) instead of selling them to the bank at value.
# The file is kept rather than made at each run so that tests/cli_review.sh
# does not change when the bots do.
# Usage: bash tests/review/make-keep-stocks.sh PATH/TO/chartered SEED OUT.json
set -euo pipefail
BIN=$1; SEED=$2; OUT=$3
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
printf 'save %s/full.json\n\n' "$T" | "$BIN" play --seats greedy,greedy,greedy,greedy --seed "$SEED" --plain >/dev/null 2>&1
python3 - "$T/full.json" > "$T/plan" <<'PY'
import json, re, sys
moves = json.load(open(sys.argv[1]))["moves"]
for i, m in enumerate(moves):
    g = re.fullmatch(r"sell (\d+) (.+)", m["move"])
    if g and int(g.group(1)) >= 3:
        print(i, max(0, i - 12))
        for mm in moves[:i]:
            print(mm["player"], mm["move"], sep="\t")
        print(m["player"], "keep " + g.group(2), sep="\t")
        break
else:
    sys.exit(1)
PY
read -r SALE START < "$T/plan"
"$BIN" new --edition amsterdam --players 4 --seed "$SEED" -o "$T/before.json" >/dev/null
k=0
tail -n +2 "$T/plan" | while IFS=$'\t' read -r p mv; do
    if [ "$k" = "$START" ]; then
        "$BIN" show "$T/before.json" --position > "$T/start.pos"
        "$BIN" new --position "$T/start.pos" -o "$OUT" >/dev/null
    fi
    if [ "$k" -ge "$START" ]; then f=$OUT; else f=$T/before.json; fi
    "$BIN" apply "$f" --player "$p" --quiet "$mv"
    k=$((k + 1))
done
