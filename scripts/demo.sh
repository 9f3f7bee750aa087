#!/usr/bin/env bash
# demo.sh: the README's main command. Installs what is missing, builds
# chartered (Release) and starts the game server with its embedded defaults:
# an SQLite file chartered.db in the current directory, the browser client
# from web/, no configuration. Open the address it prints, create a game,
# and send the seat links to friends (or fill the seats with bots).
# PORT=N changes the port (default 8080). Stop it with Ctrl-C; games resume
# when it is started again.
# (The command-line tour that used to live here: chartered new/legal/selfplay/
# bench, see docs/cli.md.)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc 2>/dev/null || echo 2)"
PORT=${PORT:-8080}
echo
echo "Open http://localhost:$PORT/ in a browser (Ctrl-C stops the server)."
exec ./build/chartered serve --port "$PORT" --db "${DB:-chartered.db}"
