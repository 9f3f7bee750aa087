#!/usr/bin/env bash
# cli_play_basic.sh: tests of `chartered play` around the game itself: its
# flags and their errors, the interactive setup questions (with bad answers),
# input from a pipe (plain screens, garbage and illegal moves refused, end of
# input saving the game and saying where, resume continuing it, the saved
# file replaying), the language from the locale, moves listed and typed in
# Japanese and Dutch notation (English read too) and help citing the
# rulebook's sections in the language, the rules (contents, sections), a game file
# of `chartered new` played with every seat a person, and in tmux: hot seat
# (the "pass the keyboard" pause hides the last person's hand; undo refused
# against people), colour following the terminal (NO_COLOR honoured) and
# Ctrl-C saving the game.
# Usage: bash tests/cli_play_basic.sh PATH/TO/chartered REPO-ROOT
set -euo pipefail
BIN=$(readlink -f "${1:?usage: cli_play_basic.sh PATH/TO/chartered REPO-ROOT}")
ROOT=${2:?usage: cli_play_basic.sh PATH/TO/chartered REPO-ROOT}
TMP=$(mktemp -d)
SOCK="chartered-play-basic-$$"
cleanup() {
    for k in hs c1 c2 ic; do tmux -L "$SOCK-$k" kill-server 2>/dev/null || true; done
    rm -rf "$TMP"
}
trap cleanup EXIT
cd "$TMP"
unset LANGUAGE LC_ALL LC_MESSAGES
export LANG=C.UTF-8

ok() { echo "ok: $*"; }
fail() {
    echo "FAIL: $*" >&2
    for f in "$TMP/out" "$TMP/err"; do
        [ -f "$f" ] && { echo "--- $(basename "$f"):" >&2; tail -n 30 "$f" >&2; }
    done
    exit 1
}
run() { # INPUT CMD...: stdin from INPUT, output in out/err, status in RC
    local input=$1
    shift
    set +e
    printf '%b' "$input" | "$@" >"$TMP/out" 2>"$TMP/err"
    RC=$?
    set -e
}
has() { grep -qF -- "$1" "$TMP/${2:-out}" || fail "expected '$1' in ${2:-out}"; }

# ---- flags -------------------------------------------------------------------
run "" "$BIN" play --help
[ $RC = 0 ] || fail "play --help"
has "--seats"
has "--resume"
ok "help"
for bad in "--lang xx" "--seats human,wizard" "--edition chess" "--seats human,greedy:3" \
           "--players 9" "--preset golden-age" "--names a,b,c,d --players 2" "--color sometimes"; do
    # shellcheck disable=SC2086
    run "" "$BIN" play $bad
    [ $RC = 2 ] || fail "'play $bad' should be a usage error (2), got $RC"
    [ -s "$TMP/err" ] || fail "'play $bad' said nothing"
done
run "" "$BIN" play --resume nowhere.json
[ $RC = 1 ] || fail "resume of a missing file should fail with 1"
run "" "$BIN" play --resume nowhere.json --players 3
[ $RC = 2 ] || fail "resume with setup flags should be a usage error"
ok "flag errors"

# ---- piped input: bad input, end of input, resume, replay ----------------------
run 'xyzzy\n0\nplay Nowhere Z9\nhelp\n\n1\n' "$BIN" play --seats human,greedy --names Anke \
    --seed 3 --autosave auto.json --lang en
[ $RC = 0 ] || fail "piped game ended with $RC"
has "'xyzzy' is not a move or a command"
has "There is no move 0"
has "is not a move or a command: 'Nowhere Z9' is not a plot"
has "See the rules"
has "End of input: the game is saved in auto.json. Continue with: chartered play --resume auto.json"
"$BIN" replay auto.json >/dev/null || fail "the autosaved game does not replay"
n1=$(grep -c '"player":1' auto.json || true)
[ "$n1" -ge 1 ] || fail "the person's move was not saved"
run '' "$BIN" play --resume auto.json --autosave auto2.json
[ $RC = 0 ] || fail "resume ended with $RC"
has "Anke"
has "Last moves"
cmp <(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["moves"])' auto.json) \
    <(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["moves"])' auto2.json) ||
    fail "resume and end of input changed the moves"
ok "piped input, end of input, resume"

# an illegal move in notation shows the engine's reason
run 'bid f10\nsave /nonexistent/x.json\nsave\nsave .\nsave mid.json\n' "$BIN" play --seats human,greedy \
    --seed 3 --autosave a3.json --lang en
has "Not allowed:"
has "Could not save to /nonexistent/x.json: /nonexistent: No such file or directory"
has "Say where to save: save FILE"
has "Could not save to .: Is a directory"
has "Saved to mid.json. Continue later with: chartered play --resume mid.json"
"$BIN" replay mid.json >/dev/null || fail "the saved game does not replay"
ok "illegal move, save errors"

# ---- the language from the locale; --lang wins --------------------------------
LANG=nl_NL.UTF-8 run '' "$BIN" play --seats human,greedy --seed 3 --autosave a4.json
has "Speler 1"
has "Einde van de invoer"
LANG=nl_NL.UTF-8 run '' "$BIN" play --seats human,greedy --seed 3 --autosave a5.json --lang ja
has "プレイヤー1"
ok "languages"

# the engine's reasons in the player's language (chx_reason)
run 'bid f10\nbid 120\n' "$BIN" play --seats human,greedy --seed 3 --autosave a3ja.json --lang ja
has "指せません: 'bid f10' は今は指せません: "
has "金額 '120' にはフローリン記号が必要です"
grep -q "is not legal now\|needs the florin sign" "$TMP/out" && fail "English reasons in Japanese"
run 'bid f10\n' "$BIN" play --seats human,greedy --seed 3 --autosave a3nl.json --lang nl
has "Niet toegestaan: 'bid f10' mag nu niet: "
ok "reasons in Japanese and Dutch"

# moves in the language's notation (src/text/notation.c): listed, typed, and
# English still read; the help cites the rulebook's sections in the language
run 'help\n\n建設 港 C1\n' "$BIN" play --seats human,greedy --seed 3 --autosave a3jb.json --lang ja --plain --width 200
has "  1  引く"
has "建設 港 C1"
has "プレイヤー1が港 C1に建てた"
has "ルールの「手番」を参照"
grep -qE "  (draw|play Harbour)" "$TMP/out" && fail "English notation in the Japanese list"
grep -qF "'The turn'" "$TMP/out" && fail "an English section name in the Japanese help"
run 'help\n\nplay Harbour C1\n' "$BIN" play --seats human,greedy --seed 3 --autosave a3nb.json --lang nl --plain --width 200
has "bouw Haven C1"
has "Speler 1 bouwde op Haven C1"
has "Zie de regels, 'Een spelersbeurt'"
has "Verkoop hoogstens twee aandelen ('pas'"
ok "moves in Japanese and Dutch notation, English read too; help cites translated sections"

# ---- the rules: contents, sections, in the game's language ---------------------------
# `rules` shows the contents (the section behind the decision marked), a
# number or a name opens a section, formatted (no Markdown marks); `rules ID`
# goes straight to a section; an unknown one is refused; `help` names the
# command that opens its section.
run 'rules\n9\n\n\n\nrules nowhere\nrules trade\n\n\n\nhelp\n\n' "$BIN" play --seats human,greedy --seed 3 --autosave a6.json --lang en
has "Chartered: Building Amsterdam, the rules"
has "  3  The turn (turn)  <- this decision"
has " 19  Game end and scoring (end)"
has "Chartered: Building Amsterdam, the rules (9/20)"
has "Merging two or more companies"
has "  1. Credit. You choose which of the touching companies receives the new"
has "There is no section 'nowhere' in the rules"
has "Chartered: Building Amsterdam, the rules (10/20)"
has "To read that section here, type: rules turn"
grep -qE '\{#|^## |\*\*' "$TMP/out" && fail "Markdown marks in the rules as shown"
grep -q "RULINGS.md" "$TMP/out" && fail "the rules cite RULINGS.md, which is not shipped"
ok "rules: contents, a section by number and by id, an unknown one refused"
# in Japanese, The Golden Age, built into the binary: a copy far from the
# repository, no data/ anywhere near it or the working directory
mkdir -p "$TMP/far/bin" "$TMP/far/work"
cp "$BIN" "$TMP/far/bin/chartered"
(cd "$TMP/far/work" && run 'rules 2d. 企業の合併\n\n\n\n' env -u CH_DATA_DIR \
    "$TMP/far/bin/chartered" play --edition golden-age --seats human,greedy --seed 3 --autosave a6b.json --lang ja)
has "Chartered: The Golden Age ルール"
has "2d. 企業の合併"
has "n: 次、p: 前、c: 目次"
grep -q "rules cannot be shown\|ルールを表示できません" "$TMP/out" && fail "rules missing in a lone binary"
ok "rules built in, in Japanese"

# ---- interactive setup -------------------------------------------------------------
run 'chess\n1\n7\n2\nwizard\nhuman\nAnke\ngreedy\ncrossroads\nx\n42\n' "$BIN" play --autosave setup.json --lang en
has "'chess' is not one of"
has "Please answer with a whole number from 2 to 5"
has "'wizard' is not a seat"
has "The seed is a whole number"
python3 - setup.json <<'PY' || fail "the interactive setup was not kept"
import json, sys
g = json.load(open(sys.argv[1]))
s = g["setup"]
assert s["edition"] == "amsterdam" and s["players"] == 2 and s["seed"] == 42, s
assert s["arrangement"] == "crossroads", s
seats = s["play"]["seats"]
assert seats[0] == {"kind": "human", "name": "Anke"}, seats
assert seats[1]["kind"] == "greedy", seats
PY
run '2\n3\nhuman\n\nismcts:1\nrandom\n2\non\n\n' "$BIN" play --autosave setup2.json --lang en
python3 - setup2.json <<'PY' || fail "the Golden Age setup was not kept"
import json, sys
s = json.load(open(sys.argv[1]))["setup"]
assert s["edition"] == "golden-age" and s["players"] == 3, s
assert s["preset"] == "golden-age-first" and s["events"] == 1, s
assert s["play"]["seats"][1] == {"kind": "ismcts", "name": "ismcts 2", "strength": 1}, s
PY
"$BIN" replay setup2.json >/dev/null || fail "the Golden Age setup game does not replay"
ok "interactive setup"

# ---- a game file of `chartered new`: every seat a person --------------------------
"$BIN" new --players 2 --seed 11 -o new.json >/dev/null
run '\n' "$BIN" play --resume new.json --autosave new-auto.json --lang en
has "Pass the keyboard to Player"
ok "game file of chartered new"

# ---- tmux: hot seat and colour -----------------------------------------------------
command -v tmux >/dev/null || fail "tmux is not installed (scripts/install-deps.sh)"
# each tmux session gets its own server (a new server on a socket whose
# server is still shutting down can fail to start)
SRV=hs
tm() { tmux -L "$SOCK-$SRV" -f /dev/null "$@"; }
screen() { tm capture-pane -p -t t; }
wait_last() { # REGEX: wait until the last non-empty line matches
    for _ in $(seq 1 300); do
        screen >"$TMP/out"
        if grep -v '^[[:space:]]*$' "$TMP/out" | tail -n 1 | grep -qE -- "$1"; then return 0; fi
        sleep 0.05
    done
    fail "timed out waiting for /$1/"
}
tm new-session -d -x 100 -y 50 -s t -c "$TMP" \
    "env LANG=C.UTF-8 TERM=xterm-256color $BIN play --seats human,human --names Anke,Bert --seed 5 --autosave hs.json; sleep 30"
wait_last "press Enter when you are ready\.\s*$"
has "Pass the keyboard to"
grep -q "Your hand" "$TMP/out" && fail "the pass-the-keyboard screen shows a hand"
first=$(grep -o "Pass the keyboard to [A-Za-z]*" "$TMP/out" | head -n 1 | awk '{print $5}')
tm send-keys -t t Enter
wait_last "your move \(number, move or help\) >\s*$"
has "Your hand"
has "$first (you)"
tm send-keys -t t -l undo
tm send-keys -t t Enter
wait_last "your move \(number, move or help\) >\s*$"
has "Undo works only against bots"
# play the first listed move until the keyboard passes to the other person
passed=0
for _ in $(seq 1 20); do
    tm send-keys -t t -l 1
    tm send-keys -t t Enter
    for _ in $(seq 1 300); do
        screen >"$TMP/out"
        last=$(grep -v '^[[:space:]]*$' "$TMP/out" | tail -n 1)
        if grep -qE "(press Enter when you are ready\.|help\) >)\s*$" <<<"$last"; then break; fi
        sleep 0.05
    done
    if grep -q "Pass the keyboard to" "$TMP/out"; then
        grep -q "Your hand" "$TMP/out" && fail "the pause shows the last person's hand"
        grep -q "Pass the keyboard to $first" "$TMP/out" && continue
        passed=1
        break
    fi
done
[ $passed = 1 ] || fail "the keyboard never passed to the other person"
tm kill-server
ok "hot seat"

colour_run() { # ENV...: start a game, wait for the prompt, keep the screen with escapes
    tm new-session -d -x 100 -y 50 -s t -c "$TMP" \
        "env $* LANG=C.UTF-8 TERM=xterm-256color $BIN play --seats human,greedy --seed 5 --autosave c.json; sleep 30"
    wait_last "your move \(number, move or help\) >\s*$"
    tm capture-pane -p -e -t t >"$TMP/out"
    tm kill-server
}
SRV=c1
colour_run ""
grep -q $'\033\[34m' "$TMP/out" || fail "no colour on a colour terminal"
SRV=c2
colour_run "NO_COLOR=1"
grep -qE $'\033\[(34|33|2)m' "$TMP/out" && fail "colour despite NO_COLOR"
has "your move"
ok "colour follows the terminal"

# ---- Ctrl-C saves the game ------------------------------------------------------------
SRV=ic
tm new-session -d -x 100 -y 50 -s t -c "$TMP" \
    "env LANG=C.UTF-8 TERM=xterm-256color $BIN play --seats human,greedy --seed 5 --autosave int.json; sleep 30"
wait_last "your move \(number, move or help\) >\s*$"
tm send-keys -t t C-c
wait_last "chartered play --resume int.json\s*$"
has "Interrupted: the game is saved in int.json"
tm kill-server
"$BIN" replay int.json >/dev/null || fail "the game saved at Ctrl-C does not replay"
ok "Ctrl-C saves the game"
