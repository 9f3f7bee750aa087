#!/usr/bin/env bash
# cli_symbols.sh: libchartered.so exports exactly the functions that
# include/chartered.h declares, every one of them starting with ch_, and
# nothing else (no internal helper, no symbol of jansson or of the bots'
# internals); it has a SONAME libchartered.so.MAJOR.
# usage: bash cli_symbols.sh BINARY SRCDIR   (the library is BINARY's dir/lib)
set -euo pipefail
BIN=$1
SRC=$2
LIB=$(dirname "$BIN")/lib/libchartered.so
fail() { echo "FAIL: $*"; exit 1; }
[ -f "$LIB" ] || fail "no $LIB"
soname=$(objdump -p "$LIB" | awk '$1 == "SONAME" {print $2}')
major=$(sed -n 's/^#define CH_VERSION "\([0-9]*\)\..*/\1/p' "$SRC/include/chartered.h")
[ "$soname" = "libchartered.so.$major" ] || fail "SONAME '$soname', expected libchartered.so.$major"
# defined dynamic symbols, without the version node and @version suffixes
# (a sanitizer build's own instrumentation symbols, __asan_* and the like, are
# the sanitizers' business, not the API's)
exported=$(nm -D --defined-only "$LIB" | awk '{print $3}' | sed 's/@.*//' | grep -v '^CHARTERED_' |
           grep -Ev '^__(asan|ubsan|sanitizer|lsan|sancov)' | sort -u)
declared=$(grep -oE '[ *]ch_[a-z0-9_]+\(' "$SRC/include/chartered.h" | tr -d ' *(' | sort -u)
bad=$(echo "$exported" | grep -v '^ch_' || true)
[ -z "$bad" ] || fail "exported symbols not named ch_*: $(echo $bad)"
extra=$(comm -23 <(echo "$exported") <(echo "$declared"))
[ -z "$extra" ] || fail "exported but not declared in chartered.h: $(echo $extra)"
missing=$(comm -13 <(echo "$exported") <(echo "$declared"))
[ -z "$missing" ] || fail "declared in chartered.h but not exported: $(echo $missing)"
echo "ok: $(echo "$exported" | wc -l) symbols exported, all declared in chartered.h; SONAME $soname"
