#!/usr/bin/env bash
# deb_e2e.sh: the Debian package end to end (CH_E2E_TESTS only: it builds the
# project a second time and installs into the system). Configures a Release
# build with prefix /usr in a temporary folder, builds the program and the
# libraries, makes chartered_<version>_amd64.deb with CPack, installs it with
# dpkg -i, and checks: the installed program and its version, the unit and the
# config file, the web client and a catalogue served by the installed program
# (no --web/--i18n flags) byte for byte from /usr/share/chartered, the man
# pages, the C example compiled with pkg-config against the installed library
# and run without any library path; the systemd unit (systemd-analyze verify,
# its offline security score, its command run as systemd would by
# deb_unit.py, and the unit started by systemd itself by deb_systemd.sh, with
# a cluster of two chartered@.service nodes behind the package's HAProxy
# configuration); what it recommends (sqlite3) and suggests (a cluster's);
# then purges the package and checks that nothing is left. Runs as root; one at a time on a machine (a lock file).
# usage: bash deb_e2e.sh BINARY SRCDIR
set -euo pipefail
SRC=$2
WORK=$(mktemp -d)
fail() { echo "FAIL: $*"; exit 1; }
[ "$(id -u)" = 0 ] || fail "needs root (dpkg -i)"
exec 9>/tmp/chartered-deb-e2e.lock
flock 9
[ ! -e /var/lib/chartered ] || fail "/var/lib/chartered exists already; this test would remove it"
cleanup() {
    dpkg --purge chartered >/dev/null 2>&1 || true
    rm -rf /var/lib/chartered
    rm -rf "$WORK"
}
trap cleanup EXIT
if dpkg-query -W -f='${Status}' chartered 2>/dev/null | grep -q "ok installed"; then
    fail "a chartered package is installed already; this test would remove it"
fi
version=$(sed -n 's/^#define CH_VERSION "\(.*\)"/\1/p' "$SRC/include/chartered.h")

B="$WORK/build"
nice cmake -S "$SRC" -B "$B" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
    -DCMAKE_SKIP_INSTALL_ALL_DEPENDENCY=ON >"$WORK/configure.log" || { cat "$WORK/configure.log"; fail configure; }
nice cmake --build "$B" -j2 --target chartered_cli chartered_shared chartered_static chartered_python_cdecl \
    >"$WORK/build.log" 2>&1 || \
    { tail -30 "$WORK/build.log"; fail build; }
(cd "$B" && cpack -G DEB >"$WORK/cpack.log" 2>&1) || { cat "$WORK/cpack.log"; fail cpack; }
DEB="$B/chartered_${version}_amd64.deb"
[ -f "$DEB" ] || fail "no $DEB"
deps=$(dpkg-deb -f "$DEB" Depends)
for d in libjansson4 libsqlite3-0 libwebsockets libev4 libwebsockets-evlib-ev; do
    grep -q "$d" <<<"$deps" || fail "Depends lacks $d: $deps"
done
# the license and the games' credits (Debian policy: the copyright file in
# /usr/share/doc/PACKAGE; the package description names the games' authors)
contents=$(dpkg-deb -c "$DEB")
grep -Eq ' \./usr/share/doc/chartered/copyright$' <<<"$contents" || fail "the .deb has no /usr/share/doc/chartered/copyright"
grep -Eq ' \./usr/share/doc/chartered/LICENSE$' <<<"$contents" || fail "the .deb has no LICENSE"
desc=$(dpkg-deb -f "$DEB" Description | tr -s ' \n' ' ')
for n in "Alexander Kneepkens & Arnold van Binsbergen" "Odysseas Stamoglou" "Nicholas Westgård" \
         "Vicky Trouerbach" "Jolly Dutch"; do
    grep -qF "$n" <<<"$desc" || fail "the package description does not name $n"
done
# a documented command (docs/deploy.md) uses sqlite3; a cluster HAProxy and PostgreSQL
rec=$(dpkg-deb -f "$DEB" Recommends)
grep -qw sqlite3 <<<"$rec" || fail "Recommends lacks sqlite3: $rec"
sug=$(dpkg-deb -f "$DEB" Suggests)
for d in haproxy postgresql; do grep -qw "$d" <<<"$sug" || fail "Suggests lacks $d: $sug"; done
for f in usr/lib/systemd/system/chartered@.service etc/chartered/cluster.conf etc/chartered/node-a.conf \
         etc/chartered/node-b.conf etc/chartered/node-c.conf usr/share/chartered/haproxy.cfg; do
    grep -Eq " \./$f\$" <<<"$contents" || fail "the .deb has no /$f"
done
# the settings files: readable by the service's made-up user; no password
# in them (it goes in /etc/chartered/secrets, not shipped)
perms=$(grep -E ' \./etc/chartered/.+\.conf$' <<<"$contents" | awk '{print $1}' | sort -u)
[ "$perms" = "-rw-r--r--" ] || fail "/etc/chartered/*.conf modes: $perms"
grep -q ' \./etc/chartered/secrets$' <<<"$contents" && fail "the .deb ships /etc/chartered/secrets"
echo "package: $(stat -c %s "$DEB") bytes, installed size $(dpkg-deb -f "$DEB" Installed-Size) KiB; Depends: $deps"

dpkg -i "$DEB" >"$WORK/dpkg.log" 2>&1 || { cat "$WORK/dpkg.log"; fail "dpkg -i"; }
[ "$(command -v chartered)" = /usr/bin/chartered ] || fail "chartered is not /usr/bin/chartered"
[ "$(chartered --version)" = "chartered $version" ] || fail "--version: $(chartered --version)"
[ -f /usr/lib/systemd/system/chartered.service ] || fail "no unit"
grep -q '^DynamicUser=yes' /usr/lib/systemd/system/chartered.service || fail "unit: DynamicUser"
grep -q '^StateDirectory=chartered' /usr/lib/systemd/system/chartered.service || fail "unit: StateDirectory"
grep -q '^port = ' /etc/chartered/chartered.conf || fail "no /etc/chartered/chartered.conf"
for f in /etc/chartered/*.conf; do chartered config check "$f" >/dev/null || fail "config check $f"; done
# the unit as systemd reads it: no unknown key, a program that is there, the
# manual page it names (systemd-analyze works offline: systemd need not run)
unit=/usr/lib/systemd/system/chartered.service
verify=$(systemd-analyze verify "$unit" 2>&1) || fail "systemd-analyze verify: $verify"
[ -z "$verify" ] || fail "systemd-analyze verify: $verify"
exposure=$(systemd-analyze security --offline=true "$unit" 2>&1 | sed -n 's/.*Overall exposure level for chartered.service: //p')
[ -n "$exposure" ] || fail "systemd-analyze security printed no exposure level"
echo "unit: systemd-analyze verify clean; security exposure $exposure"
# the template of a cluster node, as instance a
node=/usr/lib/systemd/system/chartered@.service
verify=$(systemd-analyze verify "$node" 2>&1) || fail "systemd-analyze verify chartered@.service: $verify"
[ -z "$verify" ] || fail "systemd-analyze verify chartered@.service: $verify"
exposure=$(systemd-analyze security --offline=true "$node" 2>&1 | sed -n 's/.*Overall exposure level for chartered@.*: //p')
[ -n "$exposure" ] || fail "systemd-analyze security printed no exposure level for chartered@.service"
echo "node unit: systemd-analyze verify clean; security exposure $exposure"
haproxy=$(haproxy -c -f /usr/share/chartered/haproxy.cfg 2>&1) || fail "haproxy -c /usr/share/chartered/haproxy.cfg: $haproxy"
# its command, user, state directory and stop signal without systemd
# (a container: PID 1 is not systemd); then purge must remove that state
[ -d /run/systemd/system ] && echo "note: systemd runs here, yet only its command is run (deb_unit.py)"
python3 "$SRC/tests/deb_unit.py" "$unit" || fail "the unit's command (deb_unit.py)"
# ... and the installed unit started by systemd itself, in namespaces over an
# overlay (deb_systemd.sh; 77: it cannot be done here)
set +e
bash "$SRC/tests/deb_systemd.sh" --installed "$SRC"
rc=$?
set -e
[ "$rc" = 0 ] || [ "$rc" = 77 ] || fail "the installed unit under systemd (deb_systemd.sh)"
# (outputs are captured first: with pipefail, grep -q closing a pipe early
# would fail the writer with SIGPIPE)
conf=$(dpkg-query -W -f='${Conffiles}' chartered)
for f in chartered.conf cluster.conf node-a.conf node-b.conf node-c.conf; do
    [[ "$conf" == *"/etc/chartered/$f"* ]] || fail "/etc/chartered/$f is not a conffile: $conf"
done
man1=$(MANWIDTH=200 man chartered 2>/dev/null)
[[ "$man1" == *"chartered - rules engine"* ]] || fail "man chartered"
man5=$(MANWIDTH=200 man 5 chartered-formats 2>/dev/null)
[[ "$man5" == *"GAME FILES"* ]] || fail "man 5 chartered-formats"

# the installed server serves the installed web client, without flags
python3 - "$WORK" <<'PY'
import http.client, os, subprocess, sys, socket, time
work = sys.argv[1]
s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
p = subprocess.Popen(["chartered", "serve", "--host", "127.0.0.1", "--port", str(port),
                      "--db", os.path.join(work, "t.db"), "--quiet"],
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=work)
try:
    line = p.stdout.readline().decode()
    assert "serving on" in line, "server did not start: " + line + p.stderr.read().decode()
    def get(path):
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
        c.request("GET", path); r = c.getresponse(); body = r.read(); c.close()
        return r.status, body
    for path, f in [("/", "/usr/share/chartered/web/index.html"),
                    ("/i18n/nl.json", "/usr/share/chartered/i18n/nl.json")]:
        st, body = get(path)
        want = open(f, "rb").read()
        assert st == 200 and body == want, f"{path}: status {st}, {len(body)} bytes, not {f}"
    print("served / and /i18n/nl.json from /usr/share/chartered")
finally:
    p.terminate(); p.wait(timeout=30)
PY

# a C program built with pkg-config against the installed library
[ "$(pkg-config --modversion chartered)" = "$version" ] || fail "pkg-config --modversion"
cc -Wall -Wextra -Werror "$SRC/examples/random_game.c" $(pkg-config --cflags --libs chartered) -o "$WORK/rg"
libs=$(ldd "$WORK/rg")
[[ "$libs" =~ libchartered.so.0\ =\>\ (/usr)?/lib/x86_64-linux-gnu/libchartered.so.0 ]] || fail "ldd: $libs"
out=$("$WORK/rg" 3)
[[ "$out" == *"golden-age, 3 players, seed 3"* ]] || fail "example did not run: $out"

# the Python package, installed for Debian's python3, over the installed library
py=$(cd "$WORK" && env -u PYTHONPATH -u CHARTERED_LIB /usr/bin/python3 -c '
import chartered
g = chartered.load_game("golden-age", players=3)
s = g.new_initial_state(3)
n = chartered.random_playout(s, 3)
print(chartered.LIB_PATH, chartered.HEADER_PATH, n, s.scores()[0])')
# (declarations generated at build time: no header read, HEADER_PATH None)
[[ "$py" == "/usr/lib/x86_64-linux-gnu/libchartered.so.0 None "* ]] || fail "python: $py"

dpkg --purge chartered >"$WORK/purge.log" 2>&1 || { cat "$WORK/purge.log"; fail purge; }
for f in /usr/bin/chartered /usr/lib/x86_64-linux-gnu/libchartered.so.0 /etc/chartered \
         /usr/share/chartered /usr/lib/systemd/system/chartered.service \
         /usr/lib/systemd/system/chartered@.service /var/lib/chartered; do
    [ ! -e "$f" ] || fail "left after purge: $f"
done
echo "ok: built, installed, checked and purged chartered_${version}_amd64.deb"
