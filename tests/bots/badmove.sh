#!/bin/sh
# badmove.sh: a test bot that answers its first decision with a move text
# that cannot be read.
BOT_NAME=badmove-bot
. "$(dirname "$0")/common.sh"
misbehave() { [ "$1" -eq 1 ] && echo "move fly to the moon"; }
play
