#!/bin/sh
# crash.sh: a test bot that plays two legal moves, then exits with status 3
# in the middle of the game (as a crash would).
BOT_NAME=crash-bot
. "$(dirname "$0")/common.sh"
misbehave() { [ "$1" -eq 3 ] && exit 3; return 1; }
play
