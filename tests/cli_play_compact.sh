#!/usr/bin/env bash
# cli_play_compact.sh: `chartered play` on a short terminal, in tmux at
# 80x24: at every decision of a real game (a person against a greedy and a
# random bot; Building Amsterdam in Dutch, The Golden Age in Japanese) the
# compact layout keeps the whole screen on the terminal: the title on the
# first row, the whole board (compared row for row with the board of
# --print-screen of the same position, saved with `save` at that prompt)
# right under it, and the prompt on the last row used; a long list of moves
# ends with "... en nog N". Refused moves give the engine's reason in the
# game's language (chx_reason): an illegal move and a typo in the notation,
# with the values in them. The moves are listed in Dutch notation ("trek",
# "bouw Haven E3", no English word or district), part of a Dutch move
# narrows the list, and a whole Dutch move typed in lower case is played.
# Usage: bash tests/cli_play_compact.sh PATH/TO/chartered REPO-ROOT
set -euo pipefail
BIN=$(readlink -f "${1:?usage: cli_play_compact.sh PATH/TO/chartered REPO-ROOT}")
ROOT=${2:?usage: cli_play_compact.sh PATH/TO/chartered REPO-ROOT}
TMP=$(mktemp -d)
SOCK="chartered-play-compact-$$"
tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
cleanup() {
    tm kill-server 2>/dev/null || true
    sleep 0.2 # the game saves its autosave file as tmux ends it
    rm -rf "$TMP" 2>/dev/null || true
}
trap cleanup EXIT
cd "$TMP"
command -v tmux >/dev/null || { echo "FAIL: tmux is not installed (scripts/install-deps.sh)" >&2; exit 1; }

fail() {
    echo "FAIL: $*" >&2
    [ -f "$TMP/pane" ] && { echo "--- the pane:" >&2; cat "$TMP/pane" >&2; }
    exit 1
}
PROMPT='jouw zet \(nummer, zet of help\) >\s*$'
LANG_=nl
TITLE="Chartered: Building Amsterdam"
wait_prompt() { # wait until the last non-empty row is the prompt
    for _ in $(seq 1 400); do
        tm capture-pane -p -t t >"$TMP/pane" 2>/dev/null || true
        if grep -v '^[[:space:]]*$' "$TMP/pane" | tail -n 1 | grep -qE -- "$PROMPT"; then
            return 0
        fi
        grep -q "Het spel is uit\|ゲームは終了" "$TMP/pane" && return 1
        sleep 0.05
    done
    fail "timed out waiting for the prompt"
}
type_line() {
    tm send-keys -t t -l "$1"
    tm send-keys -t t Enter
}

tm new-session -d -x 80 -y 24 -s t -c "$TMP" \
    "env LANG=C.UTF-8 TERM=xterm-256color $BIN play --seats human,greedy,random --seed 7 --lang nl --autosave auto.json; sleep 60"
size=$(tm display-message -p -t t '#{window_width}x#{window_height}')
[ "$size" = 80x24 ] || fail "the tmux window is $size, not 80x24"
wait_prompt || fail "the game ended before the first prompt"

# ---- refusals in Dutch -----------------------------------------------------------
type_line "bid f10"
wait_prompt || fail "no prompt after an illegal move"
tm capture-pane -p -J -t t >"$TMP/pane" # -J: the note may wrap at 80 columns
grep -qF "Niet toegestaan: 'bid f10' mag nu niet: " "$TMP/pane" ||
    fail "the illegal move's reason is not in Dutch"
grep -qF "is not legal now" "$TMP/pane" && fail "English reason after the Dutch lead"
type_line "bid 120"
wait_prompt || fail "no prompt after a typo"
tm capture-pane -p -J -t t >"$TMP/pane"
grep -qF "'bid 120' is geen zet en geen opdracht: bedrag '120' heeft het guldenteken nodig: schrijf het als f120" \
    "$TMP/pane" || fail "the notation typo's reason is not in Dutch"
echo "ok: refusals in Dutch"

# ---- moves listed, echoed and typed in Dutch notation (src/text/notation.c) -------
tm capture-pane -p -J -t t >"$TMP/pane"
grep -qE '^ +1  trek( |$)' "$TMP/pane" || fail "the list does not start with 'trek' (draw in Dutch)"
grep -qE '(^| )(draw|take|play|refresh)( |$)' "$TMP/pane" && fail "English notation words in the Dutch list"
grep -qE ' Harbour | Canal Ring | Old Side ' "$TMP/pane" && fail "an English district name in the Dutch list"
type_line "bouw"   # part of a move in Dutch narrows the list
wait_prompt || fail "no prompt after narrowing"
tm capture-pane -p -J -t t >"$TMP/pane"
grep -qE "[0-9]+ zetten passen bij 'bouw'" "$TMP/pane" || fail "typing 'bouw' did not narrow the list"
move=$(grep -oE '[0-9]+  bouw [A-Z][a-z]+( Zijde)? [A-F][1-4]' "$TMP/pane" | head -1 | sed 's/^[0-9]*  //' || true)
[ -n "$move" ] || fail "no 'bouw ...' move listed"
plot=${move#bouw }
type_line "$(echo "$move" | tr '[:upper:]' '[:lower:]')"   # the whole move, any case
wait_prompt || fail "no prompt after a Dutch move"
tm capture-pane -p -J -t t >"$TMP/pane"
{ grep -qF "handel in hoogstens twee aandelen" "$TMP/pane" && ! grep -qF "$plot" "$TMP/pane"; } ||
    { cat "$TMP/pane"; fail "the Dutch move '$move' was not played (no trade after it, or $plot still in hand)"; }
echo "ok: the list in Dutch notation; '$move' typed and played"

# ---- the compact screen at every decision ------------------------------------------
check_screen() { # N: save the position, compare the pane with it
    local n=$1
    type_line "save snap$n.json"
    wait_prompt || return 1
    [ -s "snap$n.json" ] || fail "save snap$n.json wrote nothing"
    env -u LANG -u LC_ALL -u LANGUAGE -u COLUMNS NO_COLOR= \
        "$BIN" play --resume "snap$n.json" --print-screen --plain --width 80 --as 1 \
        --lang "$LANG_" >"$TMP/full" 2>"$TMP/err" || fail "print-screen of snap$n.json: $(cat "$TMP/err")"
    python3 - "$TMP/pane" "$TMP/full" "$n" "$TITLE" "$PROMPT" <<'PY' || fail "decision $n: the compact screen does not fit"
import re, sys
pane = [l.rstrip() for l in open(sys.argv[1], encoding="utf-8").read().split("\n")]
full = [l.rstrip() for l in open(sys.argv[2], encoding="utf-8").read().split("\n")]
n, title, prompt = sys.argv[3], sys.argv[4], sys.argv[5].replace("\\s*$", "$")
while pane and not pane[-1]:
    pane.pop()
assert len(pane) <= 24, f"{len(pane)} rows on a 24-row terminal"
assert pane[0].startswith(title), f"first row: {pane[0]!r}"
assert re.search(prompt, pane[-1]), f"last row: {pane[-1]!r}"
# the board of the full screen: from under the title to the legend
legend = next(i for i, l in enumerate(full) if l.startswith("A-I "))
board = full[1:legend]
assert len(board) >= 5, f"board of {len(board)} rows?"
got = pane[1:1 + len(board)]
for want, have in zip(board, got):
    assert want == have, f"board row {want!r} shows as {have!r}"
assert len(got) == len(board), "the board is cut off"
# a long list of moves is trimmed with the count of the rest
print(f"decision {n}: {len(pane)} rows, board {len(board)} rows")
PY
}
play_decisions() { # MORE-REGEX: check the screen at 12 decisions
    local seen_trim=0 n
    for n in $(seq 1 12); do
        check_screen "$n" || break
        grep -qE "$1" "$TMP/pane" && seen_trim=1
        type_line 1
        wait_prompt || break
    done
    [ "$n" -ge 6 ] || fail "the game ended after $n decisions"
    [ $seen_trim = 1 ] || fail "no list of moves was trimmed with '$1'"
    echo "ok: compact screen at $n decisions ($TITLE, $LANG_)"
}
play_decisions '^\.\.\. en nog [0-9]'
tm kill-server
sleep 0.2

# ---- The Golden Age in Japanese ------------------------------------------------------
PROMPT='さんの手 \(番号・手・help\) >\s*$'
LANG_=ja
TITLE="Chartered: The Golden Age"
tm new-session -d -x 80 -y 24 -s t -c "$TMP" \
    "env LANG=C.UTF-8 TERM=xterm-256color $BIN play --edition golden-age --seats human,greedy,random --seed 4 --lang ja --autosave auto-ja.json; sleep 60"
wait_prompt || fail "the Golden Age game ended before the first prompt"
type_line "bid f10"
wait_prompt || fail "no prompt after an illegal move"
tm capture-pane -p -J -t t >"$TMP/pane"
grep -qF "指せません: 'bid f10' は今は指せません: " "$TMP/pane" ||
    fail "the illegal move's reason is not in Japanese"
echo "ok: refusal in Japanese"
play_decisions '^\.\.\. ほか[0-9]+件'
tm kill-server
