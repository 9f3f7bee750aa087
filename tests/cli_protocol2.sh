#!/usr/bin/env bash
# cli_protocol2.sh: version 2 of the bot protocol (docs/bot-protocol.md)
# through `chartered arena`: tests/bots/v2bot.py plays 20 games in one
# process (--jobs 1) with two options set; the options it received, its one
# process id, and every "moves" line (against the arena's game files, with
# what the seat may not see left out) are checked; a game clock is sent and
# kept; a bad option value, an option the bot does not have and options for
# a version-1 bot are each refused with one clear error and a fallback; a
# failing decision leaves a game file at that decision, which `chartered
# legal` and `apply` read.
# Usage: bash tests/cli_protocol2.sh PATH/TO/chartered REPO-ROOT
set -euo pipefail

BIN=${1:?usage: cli_protocol2.sh PATH/TO/chartered REPO-ROOT}
ROOT=${2:?usage: cli_protocol2.sh PATH/TO/chartered REPO-ROOT}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
V2="exec:python3 $ROOT/tests/bots/v2bot.py"

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

echo "== 20 games in one process, options set, public moves"
export CH_V2_REPORT="$TMP/report"
run "$BIN" arena --bot "$V2" --bot-option depth=7 --bot-option 'greeting=good day' \
    --bot random --bot random --games 20 --seed 31 --jobs 1 --quiet \
    --log "$TMP/log" -o "$TMP/run"
[ "$RC" -eq 0 ] || fail "arena with v2bot.py: exit status $RC"
grep -q '^error' "$TMP/err" && fail "v2bot.py caused errors"
python3 - "$TMP/report" "$TMP/log" "$TMP/run/games.csv" <<'PYEOF' || fail "v2 checks"
import csv, glob, json, sys
report = [json.loads(l) for l in open(sys.argv[1])]
logdir = sys.argv[2]
rows = list(csv.DictReader(open(sys.argv[3])))
assert len(rows) == 20 and all(not r["error"] and not r["fallbacks"] for r in rows), "20 clean games"
hellos = [r for r in report if "hello" in r]
assert len(hellos) == 1, "one handshake, got %d" % len(hellos)
pid = hellos[0]["pid"]
assert hellos[0]["hello"] == "2", "engine offered %r" % hellos[0]["hello"]
sets = [(r["setoption"], r["value"]) for r in report if "setoption" in r]
assert sets == [("depth", "7"), ("greeting", "good day")], sets
starts = [r for r in report if "newgame" in r]
assert len(starts) == 20 and {r["pid"] for r in starts} == {pid}, "20 games, one process"
assert all(r["viewer"] == r["seat"] - 1 for r in starts), "position is the seat's view"
assert [r["quit"] for r in report if "quit" in r] == [pid], "one quit, at the end"
# Every game: the moves lines, joined, are the game's moves as the seat may see them.
MASKS = {"bid", "give card", "ask card", "pick"}
checked = masked = 0
for st in starts:
    g, seat = st["newgame"], st["seat"]
    gf = json.load(open("%s/game-%04d.json" % (logdir, g)))
    truth = ["P%d %s" % (m["player"], m["move"]) for m in gf["moves"]]
    decs = [r for r in report if r.get("game") == g and r.get("seat") == seat]
    assert decs, "game %d: no decision" % g
    seen = []
    for d in decs:
        seen += d["moves"]
        # the next move of the game is this decision's answer (the next
        # "moves" line starts with it)
        assert truth[len(seen)] == "P%d %s" % (seat, d["move"]), \
            "game %d: after %d moves the game went on with %r, the bot sent %r" % (
                g, len(seen), truth[len(seen)], d["move"])
        assert d["clock"] == [5000, 0], d["clock"]
    for k, (s, t) in enumerate(zip(seen, truth)):
        if s != t:
            who, _, what = s.partition(" ")
            assert who != "P%d" % seat and t.startswith(who + " ") and what in MASKS \
                and t[len(who) + 1:].startswith(what.split()[0]), \
                "game %d seat %d, move %d: told %r, the move was %r" % (g, seat, k + 1, s, t)
            masked += 1
        checked += 1
assert masked > 0, "no move was hidden from the bot: the test saw no sealed bid"
print("checked %d public moves of 20 games, %d shown without what the seat may not see" % (checked, masked))
PYEOF
ok "one process played 20 games with depth=7 and greeting='good day'; public moves match the game files"
"$BIN" replay "$TMP/log/game-0007.json" >/dev/null || fail "the game file of game 7 does not replay"
grep -q '^> view {.*"deciders": *\[[0-9, ]*\]}$' "$TMP/log/game-0007-seat"*.log ||
    fail "the transcript's views are not written in full"
ok "game files replay; transcripts hold every view in full"

echo "== a game clock"
: >"$TMP/report"
run "$BIN" arena --bot "$V2" --bot random --games 2 --seed 3 --jobs 1 --quiet \
    --clock 60000+250
[ "$RC" -eq 0 ] || fail "clock: exit status $RC"
grep -q '^error' "$TMP/err" && fail "clock: errors"
python3 - "$TMP/report" <<'PYEOF' || fail "clock checks"
import json, sys
decs = [json.loads(l) for l in open(sys.argv[1])]
decs = [d for d in decs if "clock" in d]
assert decs and all(d["clock"][1] == 250 for d in decs), "increment 250"
for g in {d["game"] for d in decs}:
    left = [d["clock"][0] for d in decs if d["game"] == g]
    assert left[0] == 60000, left[:3]
    assert all(0 < x <= 60000 + 250 * k for k, x in enumerate(left)), left
PYEOF
ok "clock LEFT INC: 60000 at the start, never above start plus the increments"

echo "== refused options: one error, the seat falls back"
expect_refusal() {
    local pat=$1
    shift
    run "$BIN" arena "$@" --bot random --games 1 --seed 5 --quiet --fallback random
    [ "$RC" -eq 0 ] || fail "$pat: exit status $RC (the game must go on)"
    grep -q "^error: game 1 (seed 5): bot 'exec:.*' at seat 1 $pat" "$TMP/err" ||
        fail "no error line matching '$pat'"
    grep -q 'seat 1 plays as random' "$TMP/err" || fail "$pat: no fallback"
    ok "$(grep '^error' "$TMP/err" | sed 's/^error: game 1 (seed 5): //' | cut -c1-160)"
}
expect_refusal "cannot take --bot-option depth=11: option depth takes a whole number from 1 to 10, not '11'" \
    --bot "$V2" --bot-option depth=11
expect_refusal "cannot take --bot-option style=loud: option style is one of calm wild, not 'loud'" \
    --bot "$V2" --bot-option style=loud
expect_refusal "has no option 'width' (its options: depth, style, greeting, log)" \
    --bot "$V2" --bot-option width=3
expect_refusal "speaks protocol 1, which has no options to set" \
    --bot "exec:python3 $ROOT/examples/bot.py" --bot-option depth=3
run "$BIN" arena --bot-option depth=3 --bot "$V2" --games 1
[ "$RC" -eq 2 ] && grep -q "comes before any --bot" "$TMP/err" || fail "--bot-option before --bot"
run "$BIN" arena --bot greedy --bot-option deals=off --games 1
[ "$RC" -eq 2 ] && grep -q "is for exec: bots" "$TMP/err" || fail "--bot-option on a built-in bot"
run "$BIN" arena --bot "$V2" --bot-option depth --games 1
[ "$RC" -eq 2 ] && grep -q "expected NAME=VALUE" "$TMP/err" || fail "--bot-option without ="
run "$BIN" arena --bot "$V2" --clock 10+x --games 1
[ "$RC" -eq 2 ] && grep -q "expected MS or MS+INC" "$TMP/err" || fail "bad --clock"
ok "bad --bot-option and --clock values are refused with status 2"

echo "== a failing decision is kept as a game file"
run "$BIN" arena --bot "exec:sh $ROOT/tests/bots/illegal.sh" --bot random --games 1 --seed 21 \
    --quiet --fallback random --log "$TMP/fail"
[ "$RC" -eq 0 ] || fail "illegal bot: exit status $RC"
F=$(ls "$TMP/fail"/game-0001-decision-*.json 2>/dev/null | head -n 1)
[ -n "$F" ] || fail "no game file of the failing decision in $(ls "$TMP/fail")"
"$BIN" legal "$F" >"$TMP/legal" || fail "chartered legal cannot read $F"
set +e
"$BIN" apply "$F" accept >"$TMP/apply" 2>&1
RC=$?
set -e
[ "$RC" -ne 0 ] && grep -q "'accept' is not legal now" "$TMP/apply" ||
    fail "chartered apply does not refuse the bot's move as the arena did: $(cat "$TMP/apply")"
ok "$(basename "$F"): chartered legal lists the decision, apply refuses 'accept' as the arena did"

echo "all cli_protocol2 checks passed"
