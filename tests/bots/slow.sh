#!/bin/sh
# slow.sh: a test bot that plays two legal moves, then sleeps far past any
# sensible time limit before answering.
BOT_NAME=slow-bot
. "$(dirname "$0")/common.sh"
misbehave() { [ "$1" -eq 3 ] && { sleep 30; return 1; }; return 1; }
play
