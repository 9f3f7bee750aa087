#!/usr/bin/env bash
# demo.sh: the README's main command. Installs what is missing, builds
# chartered (Release), and plays a complete 4-player game of Building
# Amsterdam between random players through the command line, then shows the
# final table and the benchmark. Nothing to configure.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc 2>/dev/null || echo 2)"
BIN=./build/chartered
GAME=${GAME:-chartered-demo.json}
"$BIN" new --players 4 --seed "${SEED:-2024}" -o "$GAME"
echo "created $GAME; the first decision and its legal moves:"
"$BIN" legal "$GAME" | head -20
"$BIN" selfplay --players 4 --games 1 --seed "${SEED:-2024}"
"$BIN" bench --games 2000
