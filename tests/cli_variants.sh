#!/usr/bin/env bash
# cli_variants.sh: variant files (docs/variants.md, issue 36 item 1) through
# every consumer: `new` (the game file keeps the variant and replays it),
# `play` (saved and replayed), `selfplay`, `bench`, `arena` and `analyze`,
# each setting seen in the state it makes (the Python API: tests/python/
# test_api.py, not run in sanitizer builds); a bad variant is
# refused with file:line by each, a flag that contradicts it with the reason;
# `play --arrangement FILE`. Then the comparison of issue 36: seat 1 given
# f100 more (data/variants/first-seat-bonus.variant) against the rulebook's
# setup, `analyze --in A --in B`, shows seat 1's score up with a corrected
# interval that excludes 0; two runs of the same settings show no such
# difference.
# Usage: bash tests/cli_variants.sh PATH/TO/chartered REPO-ROOT
set -euo pipefail

BIN=${1:?usage: cli_variants.sh PATH/TO/chartered REPO-ROOT}
ROOT=${2:?usage: cli_variants.sh PATH/TO/chartered REPO-ROOT}
V=$ROOT/data/variants
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

fail() {
    echo "FAIL: $*" >&2
    [ -f "$TMP/out" ] && { echo "--- out:" >&2; head -n 40 "$TMP/out" >&2; }
    exit 1
}
command -v python3 >/dev/null || fail "python3 is needed (scripts/install-deps.sh installs it)"
# jq-like reads of a game file's state
state() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

# A variant with every kind of setting, its arrangement a file beside it.
mkdir -p "$TMP/v/arr"
cp "$ROOT/data/arrangements/crossroads.arr" "$TMP/v/arr/my.arr"
cat >"$TMP/v/all.variant" <<'EOF'
variant all settings   # a test of every line
edition amsterdam
players 3
events off
arrangement arr/my.arr
cash f500
cash 2 -f100
hand 6
hand-limit 11
open 4
warehouses 30
price purchase f60
price refresh f120
price stock-min f40
end turns 200
EOF
cat >"$TMP/bad.variant" <<'EOF'
variant bad
hand 6
hands 7
EOF

echo "== new, show, replay"
"$BIN" new --variant "$TMP/v/all.variant" --seed 9 -o "$TMP/g.json" >"$TMP/out" 2>&1 ||
    fail "new --variant"
grep -q "board crossroads" "$TMP/out" || fail "new did not use the variant's arrangement file"
[ "$(state "$TMP/g.json" "[p['cash'] for p in d['state']['players']]")" = "[500, 400, 500]" ] ||
    fail "cash: $(state "$TMP/g.json" "[p['cash'] for p in d['state']['players']]")"
G="d['state']['game']"
[ "$(state "$TMP/g.json" "($G['warehouses_total'], $G['market_size'], $G['hand_limit'], $G['open_events'], d['state']['table']['supply'])")" = "(30, 4, 11, 0, 30)" ] ||
    fail "supply, open cards, hand limit, open events: $(state "$TMP/g.json" "$G")"
[ "$(state "$TMP/g.json" "($G['prices'], $G['end_turns'])")" = "({'purchase': 60, 'refresh': 120, 'action': 100, 'stock_min': 40}, 200)" ] ||
    fail "prices and end: $(state "$TMP/g.json" "$G")"
[ "$(state "$TMP/g.json" "[len(p['hand']) for p in d['state']['players']]")" = "[6, 6, 6]" ] ||
    fail "hands: $(state "$TMP/g.json" "[len(p['hand']) for p in d['state']['players']]")"
state "$TMP/g.json" "d['setup']['variant']['text']" >"$TMP/kept"
grep -q "warehouses 30" "$TMP/kept" || fail "the game file does not keep the variant"
# a few moves, then the replay sets the same game up again from the file
for i in 1 2 3 4 5 6; do
    "$BIN" apply "$TMP/g.json" '#1' >/dev/null 2>&1 || break
done
"$BIN" replay "$TMP/g.json" >"$TMP/out" 2>&1 || fail "replay of a variant's game"
grep -q "the stored state matches" "$TMP/out" || fail "replay: $(cat "$TMP/out")"
# its position carries the settings, and loads back
"$BIN" show "$TMP/g.json" --position >"$TMP/g.pos" || fail "show --position"
for l in "events off" "open 4" "hand-limit 11" "warehouses 30" "price purchase f60" \
    "price refresh f120" "price stock-min f40" "end turns 200"; do
    grep -qx "$l" "$TMP/g.pos" || fail "the position has no '$l' line"
done
"$BIN" new --position "$TMP/g.pos" -o "$TMP/p.json" >/dev/null 2>&1 || fail "the position does not load"
[ "$(state "$TMP/p.json" "($G['warehouses_total'], $G['prices']['purchase'], $G['end_turns'])")" = "(30, 60, 200)" ] ||
    fail "position: supply, prices or end lost"
echo "ok: new, replay and positions keep every setting"

echo "== refusals"
for cmd in "new" "selfplay --games 1" "bench --games 1" "arena --games 1 --bot random -q" \
           "analyze --games 1 --bot random -q" "play --seats greedy,greedy --print-screen"; do
    if $BIN $cmd --variant "$TMP/bad.variant" >"$TMP/out" 2>&1; then fail "$cmd took a bad variant"; fi
    grep -q "bad.variant:3: unknown setting 'hands' (did you mean 'hand'?)" "$TMP/out" ||
        fail "$cmd: no file:line reason"
done
if "$BIN" new --variant "$TMP/v/all.variant" --players 4 >"$TMP/out" 2>&1; then
    fail "--players 4 against the variant's 3"
fi
grep -q "4 players, but variant 'all settings'" "$TMP/out" || fail "no reason for --players"
if "$BIN" selfplay --games 1 --variant "$V/golden-age-short.variant" --edition amsterdam >"$TMP/out" 2>&1; then
    fail "--edition amsterdam against a Golden Age variant"
fi
grep -q "is for golden-age" "$TMP/out" || fail "no reason for --edition"
printf 'variant five\ncash 5 f100\n' >"$TMP/five.variant"
if "$BIN" new --variant "$TMP/five.variant" --players 4 >"$TMP/out" 2>&1; then
    fail "seat 5's money in a game of 4"
fi
grep -q "seat 5's money, and the game has 4 players" "$TMP/out" || fail "no reason for seat 5"
echo "ok: bad variants and contradicting flags refused with the reason"

echo "== play"
"$BIN" play --variant "$TMP/v/all.variant" --seats human,greedy,greedy --seed 4 \
    --autosave "$TMP/a.json" --lang en --plain </dev/null >"$TMP/out" 2>&1 || fail "play --variant"
# the bots may have moved: the money given at setup is the sum 500 + 400 + 500
[ "$(state "$TMP/a.json" "($G['warehouses_total'], $G['total_money'])")" = "(30, 1400)" ] ||
    fail "play: $(state "$TMP/a.json" "$G")"
"$BIN" replay "$TMP/a.json" >/dev/null 2>&1 || fail "play's saved game does not replay"
"$BIN" play --arrangement "$TMP/v/arr/my.arr" --seats greedy,greedy --seed 4 --print-screen \
    --plain >"$TMP/out" 2>&1 || fail "play --arrangement FILE"
grep -q "board crossroads" "$TMP/out" || fail "play --arrangement FILE: another board"
echo "ok: play --variant saves and replays; play --arrangement FILE"

echo "== selfplay, bench, arena, analyze"
"$BIN" selfplay --games 20 --variant "$TMP/v/all.variant" >"$TMP/out" 2>&1 ||
    fail "selfplay --variant"
grep -q '"violations":0' "$TMP/out" || fail "selfplay: violations"
grep -q '"wins_by_seat":\[[0-9]*,[0-9]*,[0-9]*\]' "$TMP/out" || fail "selfplay did not play 3 players"
grep -q '"event":' "$TMP/out" && fail "selfplay: a stock event in games without them"
for f in "$V"/*.variant; do
    "$BIN" selfplay --games 4 --variant "$f" >"$TMP/out" 2>&1 || fail "selfplay $f"
done
"$BIN" bench --games 3 --variant "$V/short-game.variant" >"$TMP/out" 2>&1 || fail "bench --variant"
grep -q "variant short game" "$TMP/out" || fail "bench does not name the variant"
"$BIN" arena --games 6 --bot greedy --variant "$TMP/v/all.variant" -q -o "$TMP/ar" >"$TMP/out" 2>&1 ||
    fail "arena --variant"
grep -q "amsterdam, 3 players, variant all settings;" "$TMP/out" || fail "arena does not name the variant"
python3 - "$TMP/ar" <<'PY' || fail "arena's games are not the variant's"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1] + "/games.csv", newline="")))
assert len(rows) == 6, rows
assert all(r["players"] == "3" and r["arrangement"].endswith("arr/my.arr") and r["events"] == "off"
           for r in rows), {k: rows[0][k] for k in ("players", "arrangement", "events")}
assert json.load(open(sys.argv[1] + "/summary.json"))["run"]["variant"].endswith("all.variant")
PY
"$BIN" analyze --games 6 --bot greedy --variant "$TMP/v/all.variant" -q >"$TMP/out" 2>&1 ||
    fail "analyze --variant"
grep -q "6 games played now (seeds 1..6, amsterdam, variant all settings" "$TMP/out" ||
    fail "analyze played no games of the variant"
echo "ok: selfplay (every shipped variant), bench, arena, analyze"


# The comparison is statistics, not memory: in the sanitizer build (a
# Debug build with ASan, where 1,800 greedy games take minutes) it is left
# to the other builds.
if ldd "$BIN" 2>/dev/null | grep -q libasan; then
    echo "ok: the comparison is left to the builds without sanitizers"
    exit 0
fi
echo "== comparison: seat 1 given f100 more"
# Three greedy players (seeded, so the runs are reproducible): 600 games a
# run put the bonus's effect on seat 1's score (about f260) at some six
# standard errors, well outside the interval's 3.1.
run() { "$BIN" arena --bot greedy --bot greedy --bot greedy --games 600 --jobs 2 -q "$@" >/dev/null 2>&1; }
run --seed 1 -o "$TMP/base" || fail "the base run"
run --seed 1 --variant "$V/first-seat-bonus.variant" -o "$TMP/bonus" || fail "the bonus run"
run --seed 70001 -o "$TMP/base2" || fail "the second base run"
"$BIN" analyze --in "$TMP/base" --in "$TMP/bonus" >"$TMP/out" 2>&1 || fail "analyze base bonus"
grep -E "^final score: seat 1 .*\(\+[0-9.]+\.\.\+[0-9.]+\) \*" "$TMP/out" ||
    fail "seat 1's score: no difference above 0"
"$BIN" analyze --in "$TMP/base" --in "$TMP/base2" >"$TMP/out" 2>&1 || fail "analyze base base2"
grep -q "differences whose corrected interval excludes 0: 0 of" "$TMP/out" ||
    fail "two runs of the same settings differ"
echo "ok: the bonus shows on seat 1; the same settings twice show nothing"
