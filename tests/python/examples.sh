#!/usr/bin/env bash
# examples.sh: the Python examples run to the end of a game: the random agent
# through chartered.Env (both editions), the MCTS bot through the State API,
# research_speed.py (one game of each path and edition), and train_linear.py
# for two CPU seconds (--tiny: the output's shape; learning takes minutes).
# usage: bash examples.sh PYTHON3 SRCDIR   (CHARTERED_LIB and PYTHONPATH set)
set -euo pipefail
PY=$1
SRC=$2
fail() { echo "FAIL: $*"; exit 1; }
out=$("$PY" "$SRC/examples/random_agent.py" --edition golden-age --players 5 --games 2 --seed 3)
[ "$(echo "$out" | grep -c '^game [12] (seed [34]): [0-9]* decisions, scores .*winners \[')" = 2 ] || fail "random agent: $out"
out=$("$PY" "$SRC/examples/random_agent.py" --edition amsterdam --players 2 --seed 3)
grep -q '^game 1 (seed 3): ' <<<"$out" || fail "random agent: $out"
out=$("$PY" "$SRC/examples/mcts_bot.py" --edition amsterdam --players 2 --iterations 20 --seed 4)
grep -q '^amsterdam, 2 players, seed 4: scores \[.*winners \[' <<<"$out" || fail "mcts bot: $out"
out=$("$PY" "$SRC/examples/mcts_bot.py" --edition golden-age --players 3 --iterations 10 --seed 4)
grep -q '^golden-age, 3 players, seed 4: scores ' <<<"$out" || fail "mcts bot: $out"
out=$("$PY" "$SRC/examples/research_speed.py" 1)
[ "$(grep -c '^[a-z-]*, 4 players, 1 games: legal+apply [0-9.]* games/CPU-s; with observations [0-9.]*; AECEnv [0-9.]*$' <<<"$out")" = 2 ] ||
    fail "research_speed: $out"
[ "$(grep -c '^[a-z-]*, 4 players: VectorEnv with masks N=1 [0-9.]*, N=64 [0-9.]*, N=256 [0-9.]* games/CPU-s; with observations N=64 [0-9.]*$' <<<"$out")" = 2 ] ||
    fail "research_speed (vector): $out"
out=$("$PY" "$SRC/examples/train_linear.py" --tiny --seed 3)
grep -q '^before training: win rate 0\.[0-9]* (0\.[0-9]*-[01]\.[0-9]*) over 16 games$' <<<"$out" ||
    fail "train_linear (before): $out"
grep -q '^games     20: win rate [01]\.[0-9]* over the last 20 ' <<<"$out" || fail "train_linear (curve): $out"
grep -q '^after [0-9]* training games: win rate [01]\.[0-9]* (Wilson 95% [01]\.[0-9]*-[01]\.[0-9]*) over 16 games against random, even share 0\.500: ' <<<"$out" ||
    fail "train_linear (after): $out"
echo "ok: examples/random_agent.py, mcts_bot.py, research_speed.py and train_linear.py played their games"
