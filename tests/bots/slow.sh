#!/bin/sh
# slow.sh: a test bot that plays two legal moves, then sleeps far past any
# sensible time limit before answering. With CH_TEST_PIDS set, it appends
# its own process id and its sleep's to that file, so that the test can
# check that these very processes are gone after the game.
BOT_NAME=slow-bot
. "$(dirname "$0")/common.sh"
misbehave() {
    [ "$1" -eq 3 ] || return 1
    sleep 30 &
    [ -n "${CH_TEST_PIDS:-}" ] && echo "$$ $!" >>"$CH_TEST_PIDS"
    wait
    return 1
}
play
