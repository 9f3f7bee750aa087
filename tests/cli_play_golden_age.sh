#!/usr/bin/env bash
# cli_play_golden_age.sh: end-to-end test of `chartered play` in tmux: a whole
# game of The Golden Age (3 players, event cards on) with a person's seat
# (driven by tests/play/driver.py reading the screen) against a greedy and a
# random bot, with a merger, a save, an end of input and a resume, an undo,
# bad input, help and narrowing the list; the saved game files replay with
# `chartered replay`. (Sealed bids, auctions and trade offers exist only in
# Building Amsterdam: see cli_play_amsterdam.sh.)
# Usage: bash tests/cli_play_golden_age.sh PATH/TO/chartered REPO-ROOT
set -euo pipefail
BIN=$(readlink -f "${1:?usage: cli_play_golden_age.sh PATH/TO/chartered REPO-ROOT}")
ROOT=${2:?usage: cli_play_golden_age.sh PATH/TO/chartered REPO-ROOT}
command -v tmux >/dev/null || { echo "FAIL: tmux is not installed (scripts/install-deps.sh)" >&2; exit 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
timeout 900 python3 "$ROOT/tests/play/driver.py" "$BIN" "$TMP" golden-age 1
