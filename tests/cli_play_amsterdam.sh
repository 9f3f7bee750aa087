#!/usr/bin/env bash
# cli_play_amsterdam.sh: end-to-end test of `chartered play` in tmux: a whole
# game of Building Amsterdam with a person's seat (driven by
# tests/play/driver.py reading the screen) against a greedy and a random bot,
# with a merger, a sealed bid, an auction and a trade offer, a save, an end
# of input and a resume, an undo (and its refusal after the bots' moves), bad
# input, help and narrowing the list; the saved game files replay with
# `chartered replay`. Seed 1 makes all of these happen with the driver's
# policy (it steers the events it chooses towards Coopmanscappen, Veilinge
# and the bidding events); seed 9 did until greedy began to trade (76f6e5b),
# after which its game had no auction.
# Usage: bash tests/cli_play_amsterdam.sh PATH/TO/chartered REPO-ROOT
set -euo pipefail
BIN=$(readlink -f "${1:?usage: cli_play_amsterdam.sh PATH/TO/chartered REPO-ROOT}")
ROOT=${2:?usage: cli_play_amsterdam.sh PATH/TO/chartered REPO-ROOT}
command -v tmux >/dev/null || { echo "FAIL: tmux is not installed (scripts/install-deps.sh)" >&2; exit 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
timeout 900 python3 "$ROOT/tests/play/driver.py" "$BIN" "$TMP" amsterdam 1
