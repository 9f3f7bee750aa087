#!/usr/bin/env bash
# cli_basic.sh: end-to-end test of the chartered command line: new, legal,
# apply, show, view and replay on a game file, and the errors for an illegal
# move (file left unchanged), garbage move text, an unknown flag, a missing
# file and a malformed game file, each with a clear message on stderr.
# Usage: bash tests/cli_basic.sh PATH/TO/chartered REPO-ROOT
set -euo pipefail

BIN=${1:?usage: cli_basic.sh PATH/TO/chartered REPO-ROOT}
ROOT=${2:?usage: cli_basic.sh PATH/TO/chartered REPO-ROOT}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
G="$TMP/game.json"

ok() { echo "ok: $*"; }
fail() {
    echo "FAIL: $*" >&2
    for f in "$TMP/out" "$TMP/err"; do
        [ -f "$f" ] && { echo "--- $(basename "$f"):" >&2; head -n 20 "$f" >&2; }
    done
    exit 1
}

# run CMD...: run it, keep stdout/stderr in $TMP/out and $TMP/err, status in RC.
run() {
    set +e
    "$@" >"$TMP/out" 2>"$TMP/err"
    RC=$?
    set -e
}
# expect_ok WHAT CMD...
expect_ok() {
    local what=$1
    shift
    run "$@"
    [ "$RC" -eq 0 ] || fail "$what: exit status $RC, expected 0"
    ok "$what"
}
# expect_err WHAT STATUS PATTERN CMD...: fails with that status, and stderr
# holds an "error:" line matching PATTERN (grep -E).
expect_err() {
    local what=$1 status=$2 pat=$3
    shift 3
    run "$@"
    [ "$RC" -eq "$status" ] || fail "$what: exit status $RC, expected $status"
    grep -q '^error: ' "$TMP/err" || fail "$what: no 'error:' line on stderr"
    grep -Eq -- "$pat" "$TMP/err" || fail "$what: stderr does not match /$pat/"
    [ -s "$TMP/out" ] && fail "$what: printed to stdout on failure"
    ok "$what ($(head -n 1 "$TMP/err"))"
}
out_has() { grep -Eq -- "$1" "$TMP/out" || fail "stdout lacks /$1/"; }

echo "== program"
expect_ok "--version" "$BIN" --version
out_has '^chartered [0-9]+\.[0-9]+\.[0-9]+$'
expect_ok "help" "$BIN" help
out_has 'selfplay'
for c in new legal apply show view replay selfplay bench; do
    expect_ok "$c --help" "$BIN" "$c" --help
    out_has "^usage: chartered $c"
done
expect_err "no command" 2 'no command' "$BIN"
expect_err "unknown command" 2 "unknown command 'frobnicate'" "$BIN" frobnicate

echo "== new"
expect_ok "new --players 3 --seed 7 -o FILE" "$BIN" new --players 3 --seed 7 -o "$G"
grep -q '"format": "chartered-game"' "$G" || fail "game file lacks its format"
grep -q '"seed":7' "$G" || fail "game file lacks the seed"
ok "game file holds format and setup"
expect_ok "new to stdout (--flag=value)" "$BIN" new --players=2 --seed=11
out_has '"format": "chartered-game"'
expect_ok "new --arrangement-file --board-dir" "$BIN" new \
    --arrangement-file "$ROOT/data/arrangements/standard.arr" \
    --board-dir "$ROOT/data/boards" --seed 3 -o "$TMP/file-board.json"
expect_ok "replay of a game on an arrangement file" "$BIN" replay "$TMP/file-board.json"
expect_err "new --players 9" 2 '--players expects' "$BIN" new --players 9
expect_err "new --players 6 (engine refuses)" 2 '2 to 5 players' "$BIN" new --players 6
expect_err "new --players abc" 2 "--players expects .*got 'abc'" "$BIN" new --players abc
expect_err "new --seed without value" 2 '--seed expects' "$BIN" new --seed
expect_err "new --arrangement unknown" 2 "unknown arrangement 'nowhere'" "$BIN" new --arrangement nowhere
expect_err "new --edition golden-age --players 7" 2 "2 to 6" "$BIN" new --edition golden-age --players 7
expect_err "new --edition bogus" 2 '--edition expects' "$BIN" new --edition bogus

echo "== legal"
expect_ok "legal" "$BIN" legal "$G"
out_has '^player [1-3] decides'
out_has '^  1\. '
DECIDER=$(sed -n '1s/^player \([0-9]*\) decides.*/\1/p' "$TMP/out")
[ -n "$DECIDER" ] || fail "cannot read the deciding player"
FIRST=$(sed -n 's/^  1\. //p' "$TMP/out")
SECOND=$(sed -n 's/^  2\. //p' "$TMP/out")
[ -n "$FIRST" ] && [ -n "$SECOND" ] || fail "cannot read the first legal moves"
ok "player $DECIDER decides; first moves '$FIRST', '$SECOND'"
expect_ok "legal --json" "$BIN" legal "$G" --json
out_has '"decider":"player"'
out_has "\"deciding\":\\[$DECIDER\\]"
OTHER=$((DECIDER % 3 + 1))
expect_ok "legal --player (not deciding)" "$BIN" legal "$G" --player "$OTHER"
out_has "player $OTHER has no decision"
expect_err "legal --player 7" 2 '--player expects' "$BIN" legal "$G" --player 7

echo "== illegal moves leave the file unchanged"
# A card in another player's hand.
CARD=$("$BIN" show "$G" | awk -v p="$OTHER" '
    $0 ~ "^  player " p "[ (]" { f = 1; next }
    f && /hand \(/ { sub(/.*hand \([0-9]+\): /, ""); n = split($0, a, ", "); print a[1]; exit }')
[ -n "$CARD" ] || fail "cannot read player $OTHER's hand from show"
cp "$G" "$TMP/before.json"
expect_err "apply a card of another hand" 1 "^error: move 1 'play $CARD': .*not in your hand" \
    "$BIN" apply "$G" "play $CARD"
cmp -s "$G" "$TMP/before.json" || fail "the game file changed after an illegal move"
ok "file unchanged"
expect_err "second of two moves illegal" 1 "^error: move 2 'play $CARD': " \
    "$BIN" apply "$G" "$FIRST" "play $CARD"
cmp -s "$G" "$TMP/before.json" || fail "the game file changed although move 2 was illegal"
ok "file unchanged (all or nothing)"
expect_err "garbage move text" 1 "^error: move 1 'xyzzy plugh': " "$BIN" apply "$G" 'xyzzy plugh'
cmp -s "$G" "$TMP/before.json" || fail "the game file changed after garbage"
expect_err "move number out of range" 1 "^error: move 1 '#999': " "$BIN" apply "$G" '#999'
expect_err "apply without moves" 2 'no MOVE given' "$BIN" apply "$G"
cmp -s "$G" "$TMP/before.json" || fail "the game file changed"
ok "file unchanged after every refused command"

echo "== apply"
expect_ok "apply '$FIRST'" "$BIN" apply "$G" "$FIRST"
out_has "^player $DECIDER: $FIRST\$"
out_has '^now '
grep -q "{\"player\":$DECIDER,\"move\":\"$FIRST\"}" "$G" || fail "the move is not in the file"
ok "move recorded in the file"
expect_ok "apply #1" "$BIN" apply "$G" '#1'
expect_ok "apply from stdin" sh -c "printf '#1\n\n#1\n' | '$BIN' apply '$G' -"
NMOVES=$(grep -c '{"player":' "$G")
[ "$NMOVES" -eq 4 ] || fail "expected 4 moves in the file, found $NMOVES"
ok "4 moves recorded"
ls "$TMP" | grep -q '\.tmp\.' && fail "a temporary file was left behind"
ok "no temporary file left"

echo "== show and view"
expect_ok "show" "$BIN" show "$G"
out_has '^players:'
out_has '^companies:'
out_has '^board '
out_has '^market:'
out_has '(decides|decide at once|game is over)'
expect_ok "show --json" "$BIN" show "$G" --json
out_has '"format": "chartered-state"'
expect_ok "view --player 1" "$BIN" view "$G" --player 1
out_has 'as seen by player 1'
out_has 'hidden'
expect_ok "view --player 2 --json" "$BIN" view "$G" --player 2 --json
out_has '"format": "chartered-view"'
grep -q '"deck":' "$TMP/out" && fail "the view shows the deck"
grep -q '"seed":' "$TMP/out" && fail "the view shows the seed"
ok "view holds no deck and no seed"
expect_ok "view --player 0 (spectator)" "$BIN" view "$G" --player 0
expect_err "view without --player" 2 '--player P is required' "$BIN" view "$G"

echo "== replay"
expect_ok "replay" "$BIN" replay "$G"
out_has 'replayed 4 moves; the stored state matches'
expect_ok "replay --verbose" "$BIN" replay "$G" --verbose
out_has "^ +1\\. player $DECIDER, [a-z]+: $FIRST\$"
sed 's/"seed":7/"seed":8/' "$G" >"$TMP/tampered.json"
expect_err "replay of a game whose setup was changed" 1 'tampered.json' "$BIN" replay "$TMP/tampered.json"

echo "== bad files and flags"
expect_err "missing file" 1 "cannot open '$TMP/nope.json'" "$BIN" legal "$TMP/nope.json"
printf '{"format": "chartered-game", "setup": {' >"$TMP/broken.json"
expect_err "malformed JSON" 1 'malformed JSON at line' "$BIN" show "$TMP/broken.json"
echo '[1, 2, 3]' >"$TMP/array.json"
expect_err "not a game file" 1 'not a chartered game file' "$BIN" replay "$TMP/array.json"
sed 's/"moves": \[/"moves": 5, "x": [/' "$G" >"$TMP/badmoves.json"
expect_err "moves not an array" 1 '"moves" is missing or not an array' "$BIN" legal "$TMP/badmoves.json"
expect_err "unknown flag" 2 "unknown flag '--frobnicate'" "$BIN" legal "$G" --frobnicate
expect_err "unknown short flag" 2 "unknown flag '-z'" "$BIN" show "$G" -z
expect_err "flag value on a switch" 2 '--json takes no value' "$BIN" show "$G" --json=yes
expect_err "selfplay --check bogus" 2 '--check expects full or basic' "$BIN" selfplay --check bogus
expect_err "selfplay --games 0" 2 '--games expects' "$BIN" selfplay --games 0
expect_err "bench --seconds -1" 2 '--seconds expects a positive number' "$BIN" bench --seconds -1

echo "== bench"
expect_ok "bench --games 3 --json" "$BIN" bench --games 3 --json
out_has '"games":3,'
out_has '"sizeof_state":[0-9]+'
expect_ok "bench --games 2 (text)" "$BIN" bench --games 2 --players 2
out_has 'decisions/second'

echo "all cli_basic checks passed"
