#!/usr/bin/env bash
# cli_basic.sh: end-to-end test of the chartered command line: new, legal,
# apply, show, view and replay on a game file, and the errors for an illegal
# move (file left unchanged), garbage move text, an unknown flag, a missing
# file and a malformed game file, each with a clear message on stderr. The
# Golden Age: new with each preset and event cards on and off for 2 to 6
# players (the board side follows the preset), legal, apply (founding with
# free warehouses, a flag), show, view (other players' stocks hidden, the
# bank's counts shown) and replay on a game file, and the errors for bad
# --preset and --events values.
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
out_line() { grep -Fxq -- "$1" "$TMP/out" || fail "stdout lacks the line '$1'"; }

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

echo "== The Golden Age: new"
A="$TMP/ga.json"
expect_ok "new --edition golden-age --players 3 --seed 21" "$BIN" new --edition golden-age --players 3 --seed 21 -o "$A"
out_has 'new golden-age game, 3 players, preset golden-age, events off, board harbour, seed 21;'
grep -q '"setup": {"edition":"golden-age","players":3,"seed":21,"preset":"golden-age","events":0,"arrangement":"harbour"}' "$A" ||
    fail "the Golden Age setup is not stored as expected: $(sed -n 2p "$A")"
ok "setup holds edition, preset, events and the side"
for preset in golden-age golden-age-first; do
    for events in off on; do
        for n in 2 3 4 5 6; do
            side=harbour
            [ "$n" -ge 4 ] && side=centre
            F="$TMP/ga-$preset-$events-$n.json"
            run "$BIN" new --edition golden-age --preset "$preset" --events "$events" \
                --players "$n" --seed "$((100 + n))" -o "$F"
            [ "$RC" -eq 0 ] || fail "new --preset $preset --events $events --players $n: exit status $RC"
            out_has "new golden-age game, $n players, preset $preset, events $events, board $side,"
            ev=0
            [ "$events" = on ] && ev=1
            grep -q "\"preset\":\"$preset\",\"events\":$ev,\"arrangement\":\"$side\"" "$F" ||
                fail "$F: setup lacks preset $preset, events $ev, arrangement $side"
            grep -q "\"preset\": $([ "$preset" = golden-age ] && echo 0 || echo 1)," "$F" ||
                fail "$F: the state's game lacks the preset"
            run "$BIN" replay "$F"
            [ "$RC" -eq 0 ] || fail "replay of a new game ($preset, events $events, $n players)"
            run "$BIN" show "$F"
            [ "$RC" -eq 0 ] || fail "show of a new game ($preset, events $events, $n players)"
            out_has "^Chartered \\(golden-age\\), $n players, preset $preset, events $events, board $side"
            out_has "^event cards: $events"
        done
        ok "new, replay and show: preset $preset, events $events, 2 to 6 players"
    done
done
expect_ok "new --edition golden-age --players 2 --arrangement centre (side overridden)" \
    "$BIN" new --edition golden-age --players 2 --arrangement centre --seed 5 -o "$TMP/ga-centre2.json"
out_has 'board centre'
grep -q '"arrangement":"centre"' "$TMP/ga-centre2.json" || fail "the chosen side is not stored"
printf 'arrangement my-side\nplace Harbour 0 0\n' >"$TMP/my-side.arr"
expect_ok "new --edition golden-age --arrangement-file (the Golden Age's Harbour)" \
    "$BIN" new --edition golden-age --players 2 --arrangement-file "$TMP/my-side.arr" --seed 6 -o "$TMP/ga-file.json"
out_has 'board my-side'
grep -q '"file":"(built-in) boards/ga-harbour.board"' "$TMP/ga-file.json" ||
    fail "the arrangement file's Harbour should be the Golden Age's side"
expect_ok "replay of a Golden Age game on an arrangement file" "$BIN" replay "$TMP/ga-file.json"
expect_ok "new --edition golden-age to stdout" "$BIN" new --edition golden-age --seed 8
out_has '"edition":"golden-age","players":4,"seed":8,"preset":"golden-age","events":0,"arrangement":"centre"'
expect_err "new --preset bogus" 2 "--preset expects golden-age or golden-age-first, got 'bogus'" \
    "$BIN" new --edition golden-age --preset bogus
expect_err "new --events maybe" 2 "--events expects on or off, got 'maybe'" \
    "$BIN" new --edition golden-age --events maybe
expect_err "new --events without value" 2 '--events expects' "$BIN" new --edition golden-age --events
expect_err "new --preset for Building Amsterdam" 2 '--preset only applies to The Golden Age' \
    "$BIN" new --preset golden-age-first
expect_err "new --events for Building Amsterdam" 2 '--events only applies to The Golden Age' \
    "$BIN" new --edition amsterdam --events on
expect_err "new golden-age 6 players on the harbour side" 2 'too few lots' \
    "$BIN" new --edition golden-age --players 6 --arrangement harbour
expect_err "new golden-age --arrangement standard" 2 "unknown arrangement 'standard'" \
    "$BIN" new --edition golden-age --arrangement standard

echo "== The Golden Age: legal, apply, show, view, replay"
expect_ok "legal" "$BIN" legal "$A" --limit 0
out_has '^player [1-3] decides \(turn\)'
out_has '^  [0-9]+\. draw$'
out_has '^  [0-9]+\. refresh$'
GAP=$(sed -n '1s/^player \([0-9]*\) decides.*/\1/p' "$TMP/out")
PLAY=$(sed -n 's/^  [0-9]*\. \(play Harbour [0-9]*\)$/\1/p' "$TMP/out" | head -n 1)
[ -n "$PLAY" ] || fail "no play move among player $GAP's legal moves"
# a founding: play, found, the two free warehouses, then a flag
expect_ok "apply '$PLAY' (founds)" "$BIN" apply "$A" "$PLAY"
out_has "now player $GAP decides \\(found\\)"
expect_ok "legal in phase found" "$BIN" legal "$A"
out_has '^  1\. found Gold$'
expect_ok "apply 'found Gold'" "$BIN" apply "$A" 'found Gold'
out_has "now player $GAP decides \\(free\\)"
expect_ok "legal in phase free" "$BIN" legal "$A" --json
out_has '"phase":"free"'
FREE=$(sed -n 's/.*"moves":\["\(free [^"]*\)".*/\1/p' "$TMP/out")
[ -n "$FREE" ] || fail "no free move listed"
cp "$A" "$TMP/ga-before.json"
expect_err "apply a malformed free move" 1 "^error: move 1 'free Harbour 1': .*'\\+'" \
    "$BIN" apply "$A" 'free Harbour 1'
expect_err "apply free on lots that are not offered" 1 "^error: move 1 'free Harbour 60 \\+ Harbour 59': " \
    "$BIN" apply "$A" 'free Harbour 60 + Harbour 59'
cmp -s "$A" "$TMP/ga-before.json" || fail "the game file changed after a refused free move"
expect_ok "apply '$FREE'" "$BIN" apply "$A" "$FREE"
out_line "player $GAP: $FREE"
out_has "now player $GAP decides \\(trade\\)"
expect_ok "legal in phase trade" "$BIN" legal "$A"
out_has '^  [0-9]+\. flag Gold$'
out_has '^  [0-9]+\. buy Gold$'
out_has '^  [0-9]+\. done$'
expect_err "apply a flag for another enterprise" 1 "^error: move 1 'flag Tea': " "$BIN" apply "$A" 'flag Tea'
expect_err "apply a malformed flag" 1 "^error: move 1 'flag': " "$BIN" apply "$A" 'flag'
expect_ok "apply 'flag gold'" "$BIN" apply "$A" 'flag gold'
out_has "^player $GAP: flag Gold\$"
expect_ok "show" "$BIN" show "$A"
out_has "^  player $GAP.*flags left 1  flag on A\$"
out_has '^  A Gold +value f30 +bank 8 stocks  HQ Harbour [0-9]+  flag of player '"$GAP"'$'
out_has ':A1f '
out_has ':A2h'
out_has '^open cards: '
out_has '^deck [0-9]+ cards, discard 1 \(top Harbour [0-9]+\)$'
out_has 'free warehouses not yet built over 2'
out_has "stocks: A 1"
grep -q 'actions \|roofs \|level reserve\|stock events' "$TMP/out" && fail "show prints Building Amsterdam lines for a Golden Age game"
ok "show has no action cards, roofs, level reserve or stock events"
OTHERP=$((GAP % 3 + 1))
expect_ok "view --player $OTHERP" "$BIN" view "$A" --player "$OTHERP"
out_has "^  player $GAP .*flag on A\$"
awk -v p="$GAP" '$0 ~ "^  player " p " " { f = 1; next } f { print; exit }' "$TMP/out" | grep -q 'stocks: hidden' ||
    fail "player $OTHERP's view shows player $GAP's stocks"
out_has "^  player $OTHERP( \\(turn\\))? \\(you\\)"
out_has 'bank 8 stocks'
ok "other players' stocks hidden, the bank's counts shown"
expect_ok "view --player $GAP" "$BIN" view "$A" --player "$GAP"
out_has 'stocks: A 1'
[ "$(grep -c 'stocks: hidden' "$TMP/out")" -eq 2 ] || fail "player $GAP's view should hide the two other players' stocks"
expect_ok "view --player 0" "$BIN" view "$A" --player 0
[ "$(grep -c 'stocks: hidden' "$TMP/out")" -eq 3 ] || fail "a spectator's view should hide every player's stocks"
# JSON: the view carries the viewer's stocks only (the other "stocks" keys
# are the two sides of the trade offer), and every bank count.
expect_ok "show --json" "$BIN" show "$A" --json
[ "$(grep -o '"stocks"' "$TMP/out" | wc -l)" -eq 5 ] || fail "show --json should hold 3 players' stocks"
expect_ok "view --player $GAP --json" "$BIN" view "$A" --player "$GAP" --json
[ "$(grep -o '"stocks"' "$TMP/out" | wc -l)" -eq 3 ] || fail "view --json should hold the viewer's stocks only"
[ "$(grep -o '"bank": [0-9]' "$TMP/out" | wc -l)" -eq 9 ] || fail "view --json should show 9 bank counts"
out_has '"format": "chartered-view"'
expect_ok "view --player 0 --json" "$BIN" view "$A" --player 0 --json
[ "$(grep -o '"stocks"' "$TMP/out" | wc -l)" -eq 2 ] || fail "a spectator's view --json should hold nobody's stocks"
ok "view --json hides other players' stocks"
# sixty more moves, each one of the legal moves listed at the time
for i in $(seq 1 60); do
    N=$("$BIN" legal "$A" --json | sed -n 's/.*"count":\([0-9]*\).*/\1/p' | head -n 1)
    [ -n "$N" ] || break
    "$BIN" apply "$A" -q "#$(( (i * 7919) % N + 1 ))" || fail "apply #k (move $i)"
done
ok "60 more moves applied"
NMOVES=$(grep -c '{"player":' "$A")
expect_ok "replay" "$BIN" replay "$A" --verbose
out_has "^start: golden-age, 3 players, preset golden-age, events off, board harbour, seed 21\$"
out_line "    3. player $GAP, free: $FREE"
out_has "^ +4\\. player $GAP, trade: flag Gold\$"
out_has "replayed $NMOVES moves; the stored state matches"
expect_ok "legal after the random moves" "$BIN" legal "$A"
expect_ok "show after the random moves" "$BIN" show "$A"
# a game with event cards, played on through the CLI and replayed
E="$TMP/ga-events.json"
expect_ok "new golden-age-first with events" "$BIN" new --edition golden-age --preset golden-age-first --events on --players 4 --seed 33 -o "$E"
for i in $(seq 1 80); do
    N=$("$BIN" legal "$E" --json | sed -n 's/.*"count":\([0-9]*\).*/\1/p' | head -n 1)
    [ -n "$N" ] || break
    "$BIN" apply "$E" -q "#$(( (i * 104729) % N + 1 ))" || fail "apply #k (events game, move $i)"
done
expect_ok "replay of the game with events" "$BIN" replay "$E"
out_has 'the stored state matches'
expect_ok "show of the game with events" "$BIN" show "$E"
out_has '^event cards: on, 12 in the game, [0-9]+ drawn'
out_has '^deck [0-9]+ cards \(including [0-9]+ event cards?, where unknown\)'
# the setup and the stored state must agree
sed 's/"preset":"golden-age-first"/"preset":"golden-age"/' "$E" >"$TMP/ga-mismatch.json"
expect_err "setup preset differs from the stored state" 1 'does not match the setup' \
    "$BIN" show "$TMP/ga-mismatch.json"
sed 's/"preset":"golden-age-first"/"preset":"golden-age-last"/' "$E" >"$TMP/ga-badpreset.json"
expect_err "unknown preset in a game file" 1 'setup.preset must be' "$BIN" legal "$TMP/ga-badpreset.json"
sed 's/"events":1,"arrangement"/"events":7,"arrangement"/' "$E" >"$TMP/ga-badevents.json"
expect_err "bad events value in a game file" 1 'setup.events must be 0 or 1' "$BIN" replay "$TMP/ga-badevents.json"

echo "== The Golden Age: selfplay and bench flags"
expect_ok "selfplay --edition golden-age --games 5" "$BIN" selfplay --edition golden-age --games 5 --seed 3
out_has '^\{"games":5,"decisions":[0-9]+,"violations":0,'
out_has '"edition":"golden-age"'
expect_ok "selfplay --edition all --games 4" "$BIN" selfplay --edition all --games 4 --preset golden-age-first --events off
out_has '"amsterdam":\{"games":2,'
out_has '"golden-age":\{"games":2,'
expect_err "selfplay --preset bogus" 2 "--preset expects golden-age, golden-age-first or both, got 'bogus'" \
    "$BIN" selfplay --edition golden-age --preset bogus
expect_err "selfplay --events sometimes" 2 "--events expects on, off or both, got 'sometimes'" \
    "$BIN" selfplay --edition golden-age --events sometimes
expect_err "selfplay --preset for Building Amsterdam" 2 '--preset only applies to The Golden Age' \
    "$BIN" selfplay --preset golden-age
expect_err "selfplay --edition bogus" 2 "--edition expects amsterdam, golden-age or all, got 'bogus'" \
    "$BIN" selfplay --edition bogus
expect_err "selfplay --players 6 for Building Amsterdam" 2 'Building Amsterdam is for 2 to 5 players' \
    "$BIN" selfplay --players 6
expect_err "selfplay --edition all --arrangement standard" 2 'with --edition all' \
    "$BIN" selfplay --edition all --arrangement standard
expect_err "selfplay golden-age --arrangement standard" 2 "--arrangement 'standard'" \
    "$BIN" selfplay --edition golden-age --arrangement standard
expect_ok "bench --edition golden-age --games 3 --json" "$BIN" bench --edition golden-age --games 3 --json
out_has '^\{"edition":"golden-age","preset":"golden-age","events":"off","players":4,"arrangement":"centre",'
out_has '"games":3,'
expect_ok "bench --edition golden-age --players 6 --events on --preset golden-age-first" \
    "$BIN" bench --edition golden-age --players 6 --events on --preset golden-age-first --games 2
out_has 'golden-age, preset golden-age-first, events on, 6 players, arrangement centre'
expect_ok "bench --edition all --events both --games 4 --json" "$BIN" bench --edition all --events both --games 4 --json
out_has '"edition":"all"'
expect_err "bench --events bogus" 2 "--events expects on, off or both, got 'bogus'" \
    "$BIN" bench --edition golden-age --events bogus
expect_err "bench --players 6 for Building Amsterdam" 2 'Building Amsterdam is for 2 to 5 players' \
    "$BIN" bench --players 6 --games 1

echo "all cli_basic checks passed"
