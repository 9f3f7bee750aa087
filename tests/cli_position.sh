#!/usr/bin/env bash
# cli_position.sh: positions on the command line (docs/formats.md "Positions";
# issue 15): `new --position` starts a game from a position file, `show
# --position` prints it back the same, moves apply and `replay` replays the
# game from its recorded starting position; a bad position is refused with
# FILE:LINE: reason and writes no game file; a player's copy hides the others'
# hands and the deck.
# Usage: bash tests/cli_position.sh PATH/TO/chartered REPO-ROOT
set -euo pipefail
BIN=${1:?usage: cli_position.sh PATH/TO/chartered REPO-ROOT}
ROOT=${2:?usage: cli_position.sh PATH/TO/chartered REPO-ROOT}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cat >"$TMP/lesson.pos" <<'POS'
# the rulebook's founding example: B1 and D1 lone, player 2 holds C1
edition amsterdam
players 3
seed 5
turn 1 player 2 phase turn
warehouse Harbour B1
warehouse Harbour D1
player 2 cash f100
hand 2 Harbour C1, random 4
hand 1 random 5
hand 3 random 5
POS
"$BIN" new --position "$TMP/lesson.pos" -o "$TMP/g.json" >"$TMP/out"
grep -q "player 2 decides (turn)" "$TMP/out" || fail "new --position: $(cat "$TMP/out")"
"$BIN" show "$TMP/g.json" --position >"$TMP/p1"
grep -q "^warehouse Harbour B1$" "$TMP/p1" || fail "show --position lacks Harbour B1"
# print, load, print: the same text
"$BIN" new --position "$TMP/p1" -o "$TMP/g2.json" >/dev/null
"$BIN" show "$TMP/g2.json" --position >"$TMP/p2"
cmp -s "$TMP/p1" "$TMP/p2" || { diff "$TMP/p1" "$TMP/p2" >&2; fail "print then load changed the position"; }
# play the example; replay starts from the recorded position
"$BIN" apply "$TMP/g.json" --quiet "play Harbour C1" "found Coal" "buy Coal" "buy Coal"
"$BIN" show "$TMP/g.json" --position | grep -q "^company Coal f30$" || fail "Coal is not at f30"
"$BIN" show "$TMP/g.json" --position | grep -q "^player 2 cash f70 " || fail "player 2 should have f70"
"$BIN" replay "$TMP/g.json" | grep -q "replayed 4 moves; the stored state matches" || fail "replay from a position"
# a player's copy: own hand, others random, no deck order, no rng
"$BIN" view "$TMP/g.json" --player 1 --position >"$TMP/v1"
grep -q "^hand 2 random 4$" "$TMP/v1" || fail "player 1's copy shows player 2's hand: $(grep '^hand 2' "$TMP/v1")"
grep -q "^deck random$" "$TMP/v1" || fail "player 1's copy shows the deck"
! grep -q "^rng " "$TMP/v1" || fail "player 1's copy has the rng"
"$BIN" new --position "$TMP/v1" -o "$TMP/g3.json" >/dev/null || fail "a player's copy does not load"
# bad positions: FILE:LINE: reason, status 1, no file written
printf 'players 3\nwarehouse Harbor B1\n' >"$TMP/bad.pos"
if "$BIN" new --position "$TMP/bad.pos" -o "$TMP/bad.json" 2>"$TMP/err"; then fail "a bad position was accepted"; fi
grep -q "bad.pos:2: unknown plot 'Harbor B1' (did you mean 'Harbour B1'?)" "$TMP/err" || fail "bad message: $(cat "$TMP/err")"
[ ! -e "$TMP/bad.json" ] || fail "a game file was written for a bad position"
printf 'players 3\nwarehouse Harbour B1\nwarehouse Harbour C1\n' >"$TMP/bad2.pos"
if "$BIN" new --position "$TMP/bad2.pos" 2>"$TMP/err"; then fail "touching lone warehouses accepted"; fi
grep -q "bad2.pos:3: lone warehouses on Harbour B1 and Harbour C1 touch" "$TMP/err" || fail "bad message: $(cat "$TMP/err")"
# issue 28 item 1: a Golden Age header for 1 player, no arrangement, ended
# with SIGSEGV (exit 139); each edition's player count is refused clearly
printf 'edition golden-age\nplayers 1\n' >"$TMP/one.pos"
set +e
"$BIN" new --position "$TMP/one.pos" -o "$TMP/one.json" 2>"$TMP/err"
rc=$?
set -e
[ $rc = 1 ] || fail "a 1-player Golden Age position: exit $rc (want 1): $(cat "$TMP/err")"
grep -q "one.pos:2: the player count is a whole number from 2 to 6, not '1'" "$TMP/err" || fail "bad message: $(cat "$TMP/err")"
[ ! -e "$TMP/one.json" ] || fail "a game file was written for a 1-player position"
printf 'players 6\n' >"$TMP/six.pos"
if "$BIN" new --position "$TMP/six.pos" 2>"$TMP/err"; then fail "a 6-player Building Amsterdam position was accepted"; fi
grep -q "six.pos:1: Building Amsterdam is for 2 to 5 players, not 6" "$TMP/err" || fail "bad message: $(cat "$TMP/err")"
# --position excludes the other setup flags
set +e
"$BIN" new --position "$TMP/lesson.pos" --players 4 >/dev/null 2>&1
[ $? = 2 ] || fail "--position with --players should be a usage error"
set -e
# the terminal game starts from a position, and resumes a game begun from one
"$BIN" play --position "$TMP/lesson.pos" --seats greedy,human,greedy --names Anke,Bernadette,Carl \
    --print-screen --plain --width 80 --as 2 >"$TMP/screen" || fail "play --position"
grep -q "^>Bernadette (you)  f100" "$TMP/screen" || fail "play --position: Bernadette's seat: $(grep Bernadette "$TMP/screen")"
grep -q "play Harbour C1" "$TMP/screen" || fail "play --position does not offer Harbour C1"
"$BIN" play --resume "$TMP/g.json" --print-screen --plain --width 80 --as 2 >"$TMP/screen2" || fail "play --resume of a position game"
grep -q "Coal        f30" "$TMP/screen2" || fail "the resumed position game lost Coal f30: $(grep Coal "$TMP/screen2")"
set +e
"$BIN" play --position "$TMP/lesson.pos" --players 4 --print-screen >/dev/null 2>&1
[ $? = 2 ] || fail "play --position with --players should be a usage error"
set -e
# the rulebook positions of tests/positions load
for f in "$ROOT"/tests/positions/*.pos; do
    [ -e "$f" ] || continue
    "$BIN" new --position "$f" -o "$TMP/x.json" >/dev/null || fail "$f does not load"
done
echo "ok: positions on the command line"
