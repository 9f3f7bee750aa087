#!/bin/sh
# badmove3.sh: a test bot that plays its first two decisions and answers its
# third with a move text that cannot be read (issue 28, item 10: the arena
# then finishes its game with a stand-in, whose results are not the bot's).
BOT_NAME=badmove3-bot
. "$(dirname "$0")/common.sh"
misbehave() { [ "$1" -eq 3 ] && echo "move fly to the moon"; }
play
