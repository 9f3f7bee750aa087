#!/usr/bin/env bash
# test.sh: the README's test command. Installs what is missing, then builds and
# runs every test (CTest) in three configurations:
#   1. gcc, RelWithDebInfo, full state check after every decision
#      (CH_DEBUG_CHECKS), with the 20,000-game randomized selfplay;
#   2. gcc with AddressSanitizer + UndefinedBehaviorSanitizer (fewer selfplay
#      games: the sanitizers slow every decision down);
#   3. clang, warnings as errors, the suite once more, and every libFuzzer
#      harness of tests/fuzz for CH_FUZZ_SECONDS (20) each (CH_FUZZ).
# The server, browser and cluster end-to-end tests run in the first one only
# (CH_E2E_TESTS): they test the same code, and CI has a time budget; but the
# server's kill -9 / restart, storage-fault and damaged-database tests run in
# the ASan+UBSan build too (tests/CMakeLists.txt, CH_SANITIZE_SERVER_TESTS).
# The first runs 20,000 Building Amsterdam and 10,000 Golden Age selfplay games.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh

JOBS=$(nproc 2>/dev/null || echo 2)
run() { # run NAME CMAKE-ARGS...
    local dir=build-test-$1; shift
    echo "=== configuration $dir: $*"
    cmake -S . -B "$dir" "$@" >/dev/null
    cmake --build "$dir" -j "$JOBS"
    # a failing test fails the run: no test is run again (tests wait on
    # events, not on time, so a loaded machine is no excuse)
    ctest --test-dir "$dir" --output-on-failure -j "$JOBS"
}

run gcc -DCMAKE_C_COMPILER=gcc -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCH_DEBUG_CHECKS=ON
CH_SELFPLAY_GAMES=${CH_SELFPLAY_GAMES_ASAN:-2000} CH_SELFPLAY_GA_GAMES=${CH_SELFPLAY_GA_GAMES_ASAN:-1000} \
    run asan -DCMAKE_C_COMPILER=gcc -DCMAKE_BUILD_TYPE=Debug -DCH_SANITIZE=ON -DCH_E2E_TESTS=OFF
CH_SELFPLAY_GAMES=${CH_SELFPLAY_GAMES_CLANG:-2000} CH_SELFPLAY_GA_GAMES=${CH_SELFPLAY_GA_GAMES_CLANG:-1000} \
    run clang -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCH_E2E_TESTS=OFF -DCH_FUZZ=ON
echo "=== all configurations passed"
