#!/usr/bin/env bash
# cli_protocol.sh: the bot protocol (docs/bot-protocol.md) end to end through
# `chartered arena`: examples/bot.py plays complete games of both editions
# legally; misbehaving bots (tests/bots/: an illegal move, a garbage line, an
# unreadable move, a bot that sleeps past the time limit, one that exits
# mid-game, a command that does not exist) each give one clear error on
# stderr, their seat falls back to a built-in bot, and the game completes.
# Usage: bash tests/cli_protocol.sh PATH/TO/chartered REPO-ROOT
set -euo pipefail

BIN=${1:?usage: cli_protocol.sh PATH/TO/chartered REPO-ROOT}
ROOT=${2:?usage: cli_protocol.sh PATH/TO/chartered REPO-ROOT}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
PY="exec:python3 $ROOT/examples/bot.py"

ok() { echo "ok: $*"; }
fail() {
    echo "FAIL: $*" >&2
    for f in "$TMP/out" "$TMP/err"; do
        [ -f "$f" ] && { echo "--- $(basename "$f"):" >&2; head -n 30 "$f" >&2; }
    done
    exit 1
}
run() {
    set +e
    "$@" >"$TMP/out" 2>"$TMP/err"
    RC=$?
    set -e
}
command -v python3 >/dev/null || fail "python3 is needed (scripts/install-deps.sh installs it)"

# csv_check DIR GAMES: DIR/games.csv has GAMES rows, every game finished
# (scores present, no error) and prints the fallbacks column, one per line.
csv_check() {
    python3 - "$1/games.csv" "$2" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
want = int(sys.argv[2])
if len(rows) != want:
    sys.exit("%d rows, expected %d" % (len(rows), want))
for r in rows:
    if r["error"]:
        sys.exit("game %s failed: %s" % (r["game"], r["error"]))
    n = int(r["players"])
    for s in range(1, n + 1):
        if r["score%d" % s] == "":
            sys.exit("game %s: no score for seat %d" % (r["game"], s))
    if not r["winners"]:
        sys.exit("game %s: no winner" % r["game"])
    if int(r["decisions"]) < 1 or int(r["turns"]) < 1:
        sys.exit("game %s: no decision made" % r["game"])
    print(r["fallbacks"])
EOF
}

echo "== examples/bot.py plays complete games"
run "$BIN" arena --bot "$PY" --bot random --games 2 --seed 11 --quiet \
    --log "$TMP/log-am" -o "$TMP/am"
[ "$RC" -eq 0 ] || fail "arena with bot.py (amsterdam): exit status $RC"
grep -q '^error' "$TMP/err" && fail "bot.py (amsterdam) caused errors"
FB=$(csv_check "$TMP/am" 2) || fail "amsterdam games.csv: $FB"
[ -z "$(echo "$FB" | tr -d '\n')" ] || fail "bot.py fell back in amsterdam: '$FB'"
ok "amsterdam: 2 complete games of bot.py against random, no error"
LOG=$(ls "$TMP/log-am" | head -n 1)
grep -q '^< bot pybot 1.0$' "$TMP/log-am/$LOG" || fail "transcript lacks the handshake"
grep -q '^> game {"edition":"amsterdam"' "$TMP/log-am/$LOG" || fail "transcript lacks the game line"
grep -q '^> go$' "$TMP/log-am/$LOG" || fail "transcript lacks go"
grep -q '^< move ' "$TMP/log-am/$LOG" || fail "transcript lacks a move"
grep -q '^> end {"scores":' "$TMP/log-am/$LOG" || fail "transcript lacks end"
grep -q '^> quit$' "$TMP/log-am/$LOG" || fail "transcript lacks quit"
ok "transcript: handshake, game, view/legal/go, move, end, quit"

run "$BIN" arena --bot "$PY" --bot random --bot "$PY" --edition golden-age \
    --players 3 --events on --games 3 --seed 5 --quiet -o "$TMP/ga"
[ "$RC" -eq 0 ] || fail "arena with bot.py (golden age): exit status $RC"
grep -q '^error' "$TMP/err" && fail "bot.py (golden age) caused errors"
FB=$(csv_check "$TMP/ga" 3) || fail "golden-age games.csv: $FB"
[ -z "$(echo "$FB" | tr -d '\n')" ] || fail "bot.py fell back in golden age: '$FB'"
grep -q '#2' "$TMP/out" || fail "the second bot.py is not labelled #2"
ok "golden age: 3 complete games, bot.py twice against random, no error"

echo "== the same run twice gives the same games (bot.py seeds from 'seed')"
run "$BIN" arena --bot "$PY" --bot random --games 2 --seed 11 --quiet --jobs 1 \
    -o "$TMP/am2"
cmp -s "$TMP/am/games.csv" "$TMP/am2/games.csv" || fail "bot.py games differ between runs"
ok "reproducible with a protocol bot, and with 1 job as with several"

echo "== misbehaving bots: a clear error, a fallback, a finished game"
# expect_fallback NAME PATTERN [FLAGS...]: tests/bots/NAME.sh at seat 1 of a
# one-game arena; stderr names the bot, the seat and the fault (PATTERN).
expect_fallback() {
    local name=$1 pat=$2
    shift 2
    local bot="exec:sh $ROOT/tests/bots/$name.sh"
    local t0=$SECONDS
    run "$BIN" arena --bot "$bot" --bot random --games 1 --seed 21 --quiet \
        --fallback random -o "$TMP/$name" "$@"
    [ "$RC" -eq 0 ] || fail "$name: exit status $RC (the game must go on)"
    grep -q "^error: game 1 (seed 21): bot 'exec:sh .*$name.sh' (\"$name-bot 1\") at seat 1 at decision [0-9]* ([a-z-]*): " "$TMP/err" ||
        fail "$name: no error line naming game, bot, seat and decision"
    grep -Eq -- "$pat" "$TMP/err" || fail "$name: stderr does not match /$pat/"
    grep -q 'seat 1 plays as random for the rest of the game' "$TMP/err" ||
        fail "$name: the fallback is not announced"
    [ "$(grep -c '^error' "$TMP/err")" -eq 1 ] || fail "$name: more than one error line"
    local fb
    fb=$(csv_check "$TMP/$name" 1) || fail "$name: games.csv: $fb"
    [ "$fb" = "1" ] || fail "$name: fallbacks column is '$fb', expected 1"
    grep -Eq '^exec:sh .* +[0-9]+ +[0-9]+ .* 1$' "$TMP/out" ||
        fail "$name: the table does not count the error"
    ok "$name: $(sed 's/^error: game 1 (seed 21): //' "$TMP/err" | cut -c1-150)... ($((SECONDS - t0)) s)"
}
expect_fallback illegal "sent an illegal move 'accept': 'accept' is not legal now"
expect_fallback garbage "sent 'I would rather not say', which is not part of the protocol"
expect_fallback badmove "sent an unreadable move 'fly to the moon': unknown move 'fly'"
export CH_TEST_PIDS="$TMP/slow.pids" # the slow bot writes its process ids here
expect_fallback slow "sent nothing valid within 400 ms while the engine waited for its move \(time limit\)" --time 400
unset CH_TEST_PIDS
expect_fallback crash "exited with status 3 while the engine waited for its move"
# The engine kills the slow bot's process group when it gives up on it: the
# bot's shell and its sleep (their ids in slow.pids; no other process on the
# machine is looked at) must be gone, or only wait to be reaped (state Z).
# Killed processes vanish at once; the wait is bounded (10 s) for a loaded
# machine, and ends as soon as they are gone.
[ -s "$TMP/slow.pids" ] || fail "the slow bot did not record its process ids"
slow_gone() {
    for pid in $(cat "$TMP/slow.pids"); do
        st=$(sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null | cut -d' ' -f1)
        [ -z "$st" ] || [ "$st" = Z ] || return 1
    done
}
for _ in $(seq 100); do slow_gone && break; sleep 0.1; done
slow_gone || fail "the slow bot still runs after the game (its process group was not killed): $(cat "$TMP/slow.pids")"
ok "the slow bot's process group is gone"

echo "== a bot that cannot start"
run "$BIN" arena --bot "exec:$TMP/no-such-bot" --bot random --games 1 --seed 3 \
    --quiet --fallback random -o "$TMP/nobot"
[ "$RC" -eq 0 ] || fail "missing bot: exit status $RC"
grep -q "^error: game 1 (seed 3): bot 'exec:.*no-such-bot' at seat 1 exited with status 127 while the engine waited for its handshake" "$TMP/err" ||
    fail "missing bot: no clear error"
FB=$(csv_check "$TMP/nobot" 1) || fail "missing bot: $FB"
ok "missing bot: $(grep '^error' "$TMP/err" | cut -c1-140)..."

echo "== the default fallback"
run "$BIN" arena --bot "exec:sh $ROOT/tests/bots/crash.sh" --bot random --games 1 \
    --seed 4 --quiet
[ "$RC" -eq 0 ] || fail "default fallback: exit status $RC"
if "$BIN" arena --bot greedy --games 1 --quiet >/dev/null 2>&1; then
    want=greedy
else
    want=random
fi
grep -q "plays as $want for the rest of the game" "$TMP/err" ||
    fail "default fallback is not $want"
ok "default fallback: $want"

echo "== bad --bot values"
run "$BIN" arena --bot "exec:" --games 1
[ "$RC" -eq 2 ] && grep -q "'exec:' must be followed by a command" "$TMP/err" || fail "exec: without command"
run "$BIN" arena --bot nosuchbot --games 1
[ "$RC" -eq 2 ] && grep -q "unknown bot" "$TMP/err" || fail "unknown built-in bot"
run "$BIN" arena --bot random --fallback "exec:foo" --games 1
[ "$RC" -eq 2 ] && grep -q -- "--fallback expects the name of a built-in bot" "$TMP/err" || fail "bad --fallback"
ok "bad --bot and --fallback values are refused with status 2"

echo "all cli_protocol checks passed"
