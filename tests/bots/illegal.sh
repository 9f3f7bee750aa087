#!/bin/sh
# illegal.sh: a test bot that plays two legal moves, then a well-formed move
# that is not legal now ("accept", with no offer to answer).
BOT_NAME=illegal-bot
. "$(dirname "$0")/common.sh"
misbehave() { [ "$1" -eq 3 ] && echo "move accept"; }
play
