#!/usr/bin/env bash
# cli_play_learn.sh: the terminal teaches (issue 31, item 9), in tmux at
# 80x24 (Building Amsterdam in English) and 120x45 (The Golden Age in
# Japanese): `rules` shows the contents of the edition's rules in the
# game's language with the section behind the decision marked, a number
# or a name opens a section as formatted text (underlined heading, list
# items hanging, no Markdown marks, no row wider than the terminal), paged
# by the terminal's height; n and p move between sections; `rules trade`
# opens a section from the game; help names the command of its section;
# `chart`, `players` and `log` show the stock chart, every player's cash
# and the whole game in words on the short terminal, whose compact screen
# leaves them out; `log 2` the last two moves; before the bots move, the
# screen says that undo will stop at what they reveal (not in hot seat).
# Usage: bash tests/cli_play_learn.sh PATH/TO/chartered REPO-ROOT
set -euo pipefail
BIN=$(readlink -f "${1:?usage: cli_play_learn.sh PATH/TO/chartered REPO-ROOT}")
TMP=$(mktemp -d)
SOCK="chartered-play-learn-$$"
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
capture() { tm capture-pane -p -t t >"$TMP/pane" 2>/dev/null || true; }
wait_for() { # REGEX: until the last non-empty row matches it
    for _ in $(seq 1 400); do
        capture
        if grep -v '^[[:space:]]*$' "$TMP/pane" | tail -n 1 | grep -qE -- "$1"; then
            return 0
        fi
        sleep 0.05
    done
    fail "timed out waiting for a last row matching '$1'"
}
type_line() {
    tm send-keys -t t -l "$1"
    tm send-keys -t t Enter
}
has() { grep -qF -- "$1" "$TMP/pane" || fail "expected '$1' on the screen"; }
joined_has() { # text that may wrap at the terminal's edge
    tm capture-pane -p -J -t t >"$TMP/joined"
    grep -qF -- "$1" "$TMP/joined" || { cp "$TMP/joined" "$TMP/pane"; fail "expected '$1' on the screen"; }
}
fits() { # COLS ROWS: no row wider than COLS display columns, none past ROWS
    python3 - "$TMP/pane" "$1" "$2" <<'PY' || fail "the screen does not fit $1x$2"
import sys, unicodedata
rows = open(sys.argv[1], encoding="utf-8").read().rstrip("\n").split("\n")
cols, height = int(sys.argv[2]), int(sys.argv[3])
assert len(rows) <= height, f"{len(rows)} rows"
for r in rows:
    w = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in r.rstrip())
    assert w <= cols, f"{w} columns: {r!r}"
    assert "**" not in r and "{#" not in r and not r.startswith("## "), f"Markdown: {r!r}"
PY
}

# ==== 80x24, Building Amsterdam in English =============================================
PROMPT='your move \(number, move or help\) >\s*$'
tm new-session -d -x 80 -y 24 -s t -c "$TMP" \
    "env LANG=C.UTF-8 TERM=xterm-256color $BIN play --seats human,greedy,random --seed 7 --lang en --autosave auto.json; sleep 60"
size=$(tm display-message -p -t t '#{window_width}x#{window_height}')
[ "$size" = 80x24 ] || fail "the tmux window is $size, not 80x24"
wait_for "$PROMPT"
joined_has "When this decision ends your turn, the bots move; undo will then stop at the first card, bid or event they reveal."
fits 80 24
echo "ok: the screen says before the bots move that undo stops at what they reveal"

# ---- rules: the contents, a section by number, n, p, a section by id ---------------------
type_line "rules"
wait_for 'Section to read \(its number or name; Enter: back to the game\) >\s*$'
fits 80 24
has "Chartered: Building Amsterdam, the rules"
has "  3  The turn (turn)  <- this decision"
has " 20  Where the program decides (program)"
type_line "9"
wait_for -- '-- Enter: more, q: back to the game --\s*$'
fits 80 24
has "Chartered: Building Amsterdam, the rules (9/20)"
grep -qxF "Merging two or more companies" "$TMP/pane" || fail "no section heading"
grep -qxF "=============================" "$TMP/pane" || fail "the heading is not underlined"
grep -qE '^  1\. Credit\. You choose' "$TMP/pane" || fail "no numbered list item"
grep -qE '^     warehouse' "$TMP/pane" || fail "a list item does not hang under its marker"
type_line ""
wait_for 'n: next, p: previous, c: contents, or a section; Enter: back to the game >\s*$'
fits 80 24
has "Tea absorbs Porcelain"
type_line "n"
wait_for 'Enter: back to the game >\s*$'
has "Chartered: Building Amsterdam, the rules (10/20)"
has "Trading stocks"
type_line "p"
wait_for '(Enter: back to the game >|q: back to the game --)\s*$'
has "(9/20)"
capture
if grep -qF -- "-- Enter: more" "$TMP/pane"; then type_line q; else type_line ""; fi
wait_for "$PROMPT"
echo "ok: rules at 80x24: contents, a section by number, next and previous"
type_line "rules trade"
wait_for 'Enter: back to the game >\s*$'
has "(10/20)"
has "Buying costs the company's value, but at least f50."
type_line ""
wait_for "$PROMPT"
type_line "rules nowhere"
wait_for "$PROMPT"
joined_has "There is no section 'nowhere' in the rules"
type_line "help"
wait_for 'Press Enter to go on\.\s*$'
joined_has "To read that section here, type: rules turn"
joined_has "chart, players and log"
type_line ""
wait_for "$PROMPT"
echo "ok: 'rules trade' from the game; help names 'rules turn'"

# ---- a few decisions, then chart, players and log ------------------------------------------
for _ in 1 2 3 4 5 6; do
    type_line 1
    wait_for "$PROMPT"
done
fits 80 24
type_line "chart"
wait_for 'Press Enter to go on\.\s*$'
fits 80 24
has "Stock chart"
for c in "A Gunpowder" "B Coal" "C Porcelain" "D Silk" "E Spices" "F Sugar" "G Herring" "H Tea" "I Tobacco"; do
    grep -qE "^$c +(f[0-9]+| - ) " "$TMP/pane" || fail "no chart row '$c'"
done
type_line ""
wait_for "$PROMPT"
type_line "players"
wait_for 'Press Enter to go on\.\s*$'
fits 80 24
has "Players  (warehouses left"
for who in "Player 1 (you)" "greedy 2  [greedy]" "random 3  [random]"; do
    grep -qF "$who" "$TMP/pane" || fail "no row of '$who'"
done
[ "$(grep -cE '^    f[0-9]+, hand [0-9]+, actions [0-9] roofs [0-9]' "$TMP/pane")" = 3 ] ||
    fail "not every player's cash, hand and actions"
type_line ""
wait_for "$PROMPT"
type_line "log"
wait_for '(Press Enter to go on\.|-- Enter: more, q: back to the game --)\s*$'
fits 80 24
grep -qE '^The game so far, move by move \([0-9]+ moves\):' "$TMP/pane" || fail "no log title"
grep -qE '^   1\. (Player 1|greedy 2|random 3) ' "$TMP/pane" || fail "the log does not start with the first move"
grep -qE '^   2\. ' "$TMP/pane" || fail "no second move in the log"
n=$(grep -oE 'move by move \([0-9]+' "$TMP/pane" | grep -oE '[0-9]+$')
[ "$n" -ge 6 ] || fail "only $n moves in the log"
capture
if grep -qF -- "-- Enter: more" "$TMP/pane"; then type_line q; else type_line ""; fi
wait_for "$PROMPT"
type_line "log 2"
wait_for 'Press Enter to go on\.\s*$'
grep -qE "^ +$((n - 1))\. " "$TMP/pane" || fail "'log 2' does not show move $((n - 1))"
grep -qE "^ +$n\. " "$TMP/pane" || fail "'log 2' does not show move $n"
grep -qE '^ +1\. ' "$TMP/pane" && [ "$n" -gt 2 ] && fail "'log 2' shows the first move"
type_line ""
wait_for "$PROMPT"
type_line "log x"
wait_for "$PROMPT"
joined_has "'log x': type 'log' for every move, or 'log N' for the last N"
echo "ok: chart, players and log ($n moves) at 80x24"
tm kill-server
sleep 0.2

# ==== 120x45, The Golden Age in Japanese ===============================================
PROMPT='さんの手 \(番号・手・help\) >\s*$'
tm new-session -d -x 120 -y 45 -s t -c "$TMP" \
    "env LANG=C.UTF-8 TERM=xterm-256color $BIN play --edition golden-age --seats human,greedy --seed 4 --lang ja --autosave auto-ja.json; sleep 60"
wait_for "$PROMPT"
fits 120 45
joined_has "この判断で手番が終わると、ボットが指します。"
type_line "rules"
wait_for '読む節 \(番号か名前。Enter: ゲームに戻る\) >\s*$'
fits 120 45
has "Chartered: The Golden Age ルール"
has "  3  あなたのターン (turn)  <- この判断"
type_line "merge"
wait_for 'Enter: ゲームに戻る >\s*$'
fits 120 45
grep -qxF "2d. 企業の合併" "$TMP/pane" || fail "no Japanese heading"
grep -qxF "==============" "$TMP/pane" || fail "the heading is not underlined to its width (14 columns)"
has "  1. 配分:"
type_line ""
wait_for "$PROMPT"
for _ in 1 2 3; do
    type_line 1
    wait_for "$PROMPT"
done
type_line "chart"
wait_for 'Enter で続けます。\s*$'
fits 120 45
has "株価表"
[ "$(grep -cE '^[A-I] ' "$TMP/pane")" = 9 ] || fail "not nine enterprises in the chart"
type_line ""
wait_for "$PROMPT"
type_line "players"
wait_for 'Enter で続けます。\s*$'
has "プレイヤー1 (あなた)"
has "greedy 2  [greedy]"
has "株 非公開"
type_line ""
wait_for "$PROMPT"
type_line "log"
wait_for 'Enter で続けます。\s*$'
fits 120 45
has "ここまでのゲーム、1手ずつ"
grep -qE '^   1\. プレイヤー1' "$TMP/pane" || fail "the Japanese log does not start with the first move"
type_line ""
wait_for "$PROMPT"
echo "ok: rules, chart, players and log in Japanese at 120x45"

# ---- the undo warning: only when bots move next, never with people at the table -------------
printf '' | "$BIN" play --seats human,greedy --seed 3 --lang en --plain --autosave w1.json >"$TMP/out" 2>&1 || true
grep -qF "undo will then stop at the first card" "$TMP/out" || { cp "$TMP/out" "$TMP/pane"; fail "no undo warning against a bot"; }
printf '\n' | "$BIN" play --seats human,human --seed 3 --lang en --plain --autosave w2.json >"$TMP/out" 2>&1 || true
grep -qF "undo will then stop" "$TMP/out" && { cp "$TMP/out" "$TMP/pane"; fail "an undo warning in hot seat, where undo is refused anyway"; }
grep -qF "Player 1, your move" "$TMP/out" || { cp "$TMP/out" "$TMP/pane"; fail "the hot seat game did not start"; }
echo "ok: the undo warning against bots only"
