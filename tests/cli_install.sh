#!/usr/bin/env bash
# cli_install.sh: `cmake --install` of this build into a temporary prefix
# gives a working installation: the program (--version is CH_VERSION, and
# `serve` defaults to PREFIX/share/chartered for the web client and the
# catalogues), libchartered.so and .a, chartered.h, a chartered.pc with which
# examples/random_game.c compiles and runs (shared and static), the web client
# and catalogues, man pages that man(1) formats without warnings, and a Python
# package that imports from the prefix with no header there to read (its
# declarations generated at build time; issue 28) and opens the prefix's
# library.
# usage: bash cli_install.sh BINARY SRCDIR   (BINARY's folder is the build)
set -euo pipefail
BIN=$1
SRC=$2
BUILD=$(dirname "$BIN")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
P="$WORK/prefix"
cmake --install "$BUILD" --prefix "$P" >"$WORK/install.log" || { cat "$WORK/install.log"; fail "cmake --install"; }

version=$(sed -n 's/^#define CH_VERSION "\(.*\)"/\1/p' "$SRC/include/chartered.h")
[ "$("$P/bin/chartered" --version)" = "chartered $version" ] || fail "--version: $("$P/bin/chartered" --version)"
for f in include/chartered.h share/chartered/web/index.html share/chartered/i18n/en.json \
         share/chartered/data/arrangements/standard.arr share/man/man1/chartered.1 \
         share/man/man5/chartered-formats.5 share/doc/chartered/CHANGELOG.md; do
    [ -f "$P/$f" ] || fail "not installed: $f"
done
ls "$P"/lib*/libchartered.so.* "$P"/lib*/libchartered.a >/dev/null || fail "libraries not installed"

# the installed server finds its files under the prefix, not in the source tree
help=$("$P/bin/chartered" serve --help)
grep -q -- "--web DIR .*(default $P/share/chartered/web)" <<<"$help" || fail "serve's web default: $help"
grep -q -- "(default $P/share/chartered/i18n)" <<<"$help" || fail "serve's i18n default: $help"
# ... and the build tree's program still uses the source tree
bhelp=$("$BIN" serve --help)
[[ "$bhelp" == *"(default $SRC/web)"* || "$bhelp" == *"(default $(cd "$SRC" && pwd -P)/web)"* ]] || \
    fail "build tree's web default: $bhelp"

# pkg-config: the example compiles against the installed library and runs
export PKG_CONFIG_PATH=$(dirname "$(ls -d "$P"/lib*/pkgconfig/chartered.pc | head -1)")
[ "$(pkg-config --modversion chartered)" = "$version" ] || fail "pkg-config --modversion"
# a library built with the sanitizers (CH_SANITIZE) needs them in the program too
SAN=""
libdeps=$(ldd "$(ls "$P"/lib*/libchartered.so | head -1)")
[[ "$libdeps" == *libasan* ]] && SAN="-fsanitize=address,undefined"
cc $SAN -Wall -Wextra -Werror "$SRC/examples/random_game.c" $(pkg-config --cflags --libs chartered) -o "$WORK/rg"
out=$(LD_LIBRARY_PATH=$(dirname "$(ls "$P"/lib*/libchartered.so | head -1)") "$WORK/rg" 7)
grep -q "^amsterdam, 4 players, seed 7: [0-9]* moves" <<<"$out" || fail "example: $out"
grep -q "^golden-age, 3 players, seed 7: [0-9]* moves" <<<"$out" || fail "example: $out"
# statically too (jansson from pkg-config's Requires.private)
cc $SAN "$SRC/examples/random_game.c" $(pkg-config --cflags chartered) \
   "$(ls "$P"/lib*/libchartered.a | head -1)" $(pkg-config --libs --static jansson) -lpthread -lm -o "$WORK/rg_static"
[ "$("$WORK/rg_static" 7)" = "$out" ] || fail "static example differs from the shared one"

# man pages format without warnings
for m in man1/chartered.1 man5/chartered-formats.5; do
    w=$(MANWIDTH=80 man --warnings -l "$P/share/man/$m" 2>&1 >/dev/null || true)
    [ -z "$w" ] || fail "man $m: $w"
done
# the license and the games' credits: LICENSE (MIT) and Debian's machine-
# readable copyright file in share/doc/chartered (the .deb's
# /usr/share/doc/chartered/copyright), the web client's footer
[ -f "$P/share/doc/chartered/LICENSE" ] || fail "LICENSE not installed"
/usr/bin/python3 - "$P/share/doc/chartered/copyright" "$P/share/chartered/web/index.html" \
    "$P/share/doc/chartered/LICENSE" <<'EOF' || fail "copyright file or credits"
import sys
text = open(sys.argv[1], encoding="utf-8").read()
paras = [p.strip("\n") for p in text.split("\n\n") if p.strip()]
def fields(p):
    out, key = {}, None
    for line in p.split("\n"):
        if line[:1] in (" ", "\t"):
            assert key, "a continuation line before any field"
            out[key] += "\n" + line
        else:
            key, _, val = line.partition(":")
            assert _ and key and " " not in key, "not a field: %r" % line
            out[key] = val.strip()
    return out
f = [fields(p) for p in paras]
assert f[0]["Format"] == "https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/", f[0]
assert f[0]["Upstream-Name"] == "chartered"
files = [x for x in f if "Files" in x]
# the program is MIT ("Files: *"); the web client's fonts keep their own
# licence (EB Garamond: OFL-1.1, its text shipped beside them)
assert files and files[0]["Files"] == "*" and files[0]["License"] == "MIT", files
assert all("Copyright" in x and x["License"].split("\n")[0] in ("MIT", "OFL-1.1")
           for x in files), files
lic = [x for x in f if set(x) == {"License"} and x["License"].startswith("MIT\n")]
assert lic and "Permission is hereby granted" in lic[0]["License"], "no MIT license text"
names = ["Alexander Kneepkens & Arnold van Binsbergen", "Odysseas Stamoglou",
         "Nicholas Westgård", "Vicky Trouerbach", "Jolly Dutch"]
for n in names:
    assert n in text, n
footer = open(sys.argv[2], encoding="utf-8").read().replace("&amp;", "&")
footer = " ".join(footer.split())
for n in names:
    assert n in footer, "web footer lacks " + n
assert open(sys.argv[3]).read().startswith("MIT License")
print("copyright: DEP-5, %d paragraphs, MIT; credits in it and in the web footer" % len(paras))
EOF

# the Python package imports from the prefix, run from elsewhere, with no
# chartered.h to find: its declarations come from the generated _cdecl.py and
# the library from the prefix (it used to fail: "chartered.h not found")
PY=/usr/bin/python3
if [ -n "$SAN" ]; then
    echo "note: sanitizer build: its library cannot be loaded into python3; the import check is skipped"
elif ! "$PY" -c "import cffi, numpy" 2>/dev/null; then
    echo "note: python3-cffi or python3-numpy missing: the import check is skipped"
else
    [ -f "$P/lib/python3/dist-packages/chartered/_cdecl.py" ] || fail "the generated _cdecl.py is not installed"
    mv "$P/include/chartered.h" "$WORK/chartered.h.away"
    pyout=$(cd "$WORK" && env -u CHARTERED_LIB -u CHARTERED_HEADER PYTHONDONTWRITEBYTECODE=1 \
        PYTHONPATH="$P/lib/python3/dist-packages" "$PY" -c '
import chartered, sys
assert chartered.HEADER_PATH is None, chartered.HEADER_PATH
assert chartered.DECLARATIONS.startswith(sys.argv[1]), chartered.DECLARATIONS
assert chartered.LIB_PATH.startswith(sys.argv[1]), chartered.LIB_PATH
s = chartered.load_game("golden-age", players=3).new_initial_state(seed=7)
n = chartered.random_playout(s, seed=7)
assert s.is_terminal() and n > 0, n
print("python", chartered.__version__, chartered.LIB_PATH, "a random game of", n, "decisions")
' "$P" 2>&1) || fail "python import from the prefix: $pyout"
    mv "$WORK/chartered.h.away" "$P/include/chartered.h"
    grep -q "^python $version $P/" <<<"$pyout" || fail "python import: $pyout"
    echo "ok: $pyout"
fi
echo "ok: installed into a prefix; $out" | head -2
