#!/bin/sh
# garbage.sh: a test bot that plays one legal move, then answers with a line
# that is not part of the protocol.
BOT_NAME=garbage-bot
. "$(dirname "$0")/common.sh"
misbehave() { [ "$1" -eq 2 ] && echo "I would rather not say"; }
play
