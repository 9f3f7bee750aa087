#!/usr/bin/env bash
# deb_systemd.sh: the packaged chartered.service started for real, by systemd
# (issue 28: the unit's sandbox refused AF_NETLINK, which libwebsockets needs
# to resolve --host through getifaddrs(), so it probably could not start; no
# test ran systemd). The machine's first process is not systemd, so this
# boots systemd itself as PID 1 of new PID, mount, network, UTS and IPC
# namespaces, on an overlay of the whole file system (every write lands in a
# temporary upper folder: the host's /etc, /var, /tmp and /run are not
# touched), with only the loopback interface. In it:
#   - the unit under test (packaging/chartered.service, or the installed one
#     with --installed) and its config must start: active, the server answers
#     GET / on the configured address, as a dynamic user (not root), its
#     database created in /var/lib/private/chartered; `systemctl stop` ends it
#     cleanly (Result=success);
#   - the same unit without AF_NETLINK in RestrictAddressFamilies= must fail
#     to serve (the control: it shows the sandbox is really applied here);
#   - a cluster as docs/deploy.md sets it up (issue 35): Debian's PostgreSQL
#     started by its unit, a role with a password, chartered@a and
#     chartered@b from the package's template with its cluster.conf (the
#     password in /etc/chartered/secrets, never on the command line or in a
#     file others may read) and node-*.conf,
#     Debian's haproxy.service with the package's haproxy.cfg: each node
#     serves as a node of the cluster, HAProxy on port 80 reaches both and
#     creates a game, `systemctl stop chartered@a` ends cleanly and HAProxy
#     answers from b. Skipped (the rest still counts) without PostgreSQL or
#     HAProxy.
# Exit 77 (skipped) when this cannot be done: not root, no unshare, no
# systemd binary, no overlayfs, or systemd does not come up.
# usage: bash deb_systemd.sh BINARY SRCDIR            (the build's program,
#                                                      the source tree's unit)
#        bash deb_systemd.sh --installed SRCDIR        (after dpkg -i: the
#                                                      package's files)
set -euo pipefail
MODE=build
if [ "${1:-}" = --installed ]; then MODE=installed; BIN=/usr/bin/chartered; else BIN=$(realpath "$1"); fi
SRC=$(realpath "${2:?usage: deb_systemd.sh BINARY|--installed SRCDIR}")
skip() { echo "skipped: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
[ "$(id -u)" = 0 ] || skip "needs root (namespaces, overlay mount, systemd as PID 1)"
command -v unshare >/dev/null && command -v nsenter >/dev/null || skip "no unshare/nsenter (util-linux)"
SYSTEMD=/lib/systemd/systemd
[ -x "$SYSTEMD" ] || skip "no $SYSTEMD (package systemd)"
grep -qw overlay /proc/filesystems || modprobe overlay 2>/dev/null || true
grep -qw overlay /proc/filesystems || skip "no overlayfs in this kernel"
if [ "$MODE" = installed ]; then
    UNIT=/usr/lib/systemd/system/chartered.service
    CONF=/etc/chartered/chartered.conf
    HAPROXY_CFG=/usr/share/chartered/haproxy.cfg
else
    UNIT=$SRC/packaging/chartered.service
    CONF=$SRC/packaging/chartered.conf
    # made from packaging/haproxy.cfg.in by the build (packaging/install.cmake)
    HAPROXY_CFG=$(dirname "$BIN")/packaging/haproxy.cfg
fi
UNITDIR=$(dirname "$UNIT")
CONFDIR=$(dirname "$CONF")
[ -f "$UNIT" ] && [ -f "$CONF" ] && [ -x "$BIN" ] || fail "missing $UNIT, $CONF or $BIN"
for f in "$UNITDIR/chartered@.service" "$CONFDIR/cluster.conf" "$CONFDIR/node-a.conf" \
         "$CONFDIR/node-b.conf" "$HAPROXY_CFG"; do
    [ -f "$f" ] || fail "missing $f"
done
PORT=$(sed -n 's/^port *= *//p' "$CONF")
HOST=$(sed -n 's/^host *= *//p' "$CONF")

W=$(mktemp -d /var/tmp/chartered-systemd.XXXXXX)  # not /tmp: the guest mounts its own
SDPID=
cleanup() {
    if [ -n "$SDPID" ] && kill -0 "$SDPID" 2>/dev/null; then
        kill -KILL "$SDPID" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$SDPID" 2>/dev/null || break; sleep 0.1; done
    fi
    rm -rf "$W"
}
trap cleanup EXIT
mkdir -p "$W/upper" "$W/work" "$W/root" "$W/in"
cp "$UNIT" "$W/in/chartered.service"
cp "$CONF" "$W/in/chartered.conf"
cp "$UNITDIR/chartered@.service" "$CONFDIR/cluster.conf" "$CONFDIR/node-a.conf" \
   "$CONFDIR/node-b.conf" "$W/in/"
cp "$HAPROXY_CFG" "$W/in/haproxy.cfg"
# the control: the same unit with the address families the old unit allowed
sed 's/^RestrictAddressFamilies=.*/RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX/' "$UNIT" \
    >"$W/in/chartered-nonetlink.service"
grep -q '^RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX$' "$W/in/chartered-nonetlink.service" ||
    fail "the control unit was not made"
if [ "$MODE" = build ]; then
    # the build's program and the files it finds beside /usr/bin as installed
    cp "$BIN" "$W/in/chartered"
    mkdir -p "$W/in/share"
    cp -r "$SRC/web" "$W/in/share/web"
    cp -r "$SRC/data/i18n" "$W/in/share/i18n"
fi

# the guest's first process: the overlay root, then systemd as PID 1
cat >"$W/in/boot.sh" <<BOOT
#!/bin/bash
set -e
mount --make-rprivate /
mount -t overlay overlay -o lowerdir=/,upperdir=$W/upper,workdir=$W/work $W/root
R=$W/root
mount -t proc proc \$R/proc
mount --rbind /sys \$R/sys
mount --rbind /dev \$R/dev
for d in run tmp var/tmp; do mount -t tmpfs tmpfs \$R/\$d; done
ip link set lo up
# a fresh host has no state yet; deb_e2e.sh's deb_unit.py leaves a plain
# /var/lib/chartered, which systemd would move under /var/lib/private, and a
# directory of the overlay's lower layer cannot be renamed (EXDEV): the guest
# starts without it (a whiteout in the overlay; the host keeps its copy)
rm -rf \$R/var/lib/chartered \$R/var/lib/private/chartered
mkdir -p \$R/etc/systemd/system \$R/etc/chartered
# boot to a target that wants nothing: the units are started by the test
printf '[Unit]\nDescription=chartered test target\n' >\$R/etc/systemd/system/chartered-test.target
cp $W/in/chartered.service $W/in/chartered-nonetlink.service \$R/etc/systemd/system/
cp $W/in/chartered.conf \$R/etc/chartered/chartered.conf
cp $W/in/chartered@.service \$R/etc/systemd/system/
cp $W/in/cluster.conf $W/in/node-a.conf $W/in/node-b.conf \$R/etc/chartered/
mkdir -p \$R/etc/haproxy
cp $W/in/haproxy.cfg \$R/etc/haproxy/haproxy.cfg
if [ -f $W/in/chartered ]; then
    cp $W/in/chartered \$R/usr/bin/chartered
    mkdir -p \$R/usr/share/chartered
    cp -r $W/in/share/web $W/in/share/i18n \$R/usr/share/chartered/
fi
: >\$R/etc/machine-id
cd \$R
mkdir -p .oldroot
pivot_root . .oldroot
umount -l /.oldroot
export container=chartered-test
exec $SYSTEMD --system --unit=chartered-test.target --log-target=null
BOOT
chmod +x "$W/in/boot.sh"
setsid unshare --mount --pid --fork --net --uts --ipc "$W/in/boot.sh" </dev/null >"$W/boot.log" 2>&1 &
UNSHARE=$!
for _ in $(seq 100); do
    SDPID=$(pgrep -P "$UNSHARE" -x systemd || true)
    [ -n "$SDPID" ] && break
    kill -0 "$UNSHARE" 2>/dev/null || { cat "$W/boot.log"; skip "the namespaces or the overlay could not be set up"; }
    sleep 0.1
done
[ -n "$SDPID" ] || { cat "$W/boot.log"; skip "systemd did not start"; }
in_guest() { nsenter -t "$SDPID" -m -p -n -u -i -- "$@"; }
state=
for _ in $(seq 150); do
    state=$(in_guest systemctl is-system-running 2>/dev/null || true)
    [ "$state" = running ] || [ "$state" = degraded ] && break
    sleep 0.2
done
[ "$state" = running ] || [ "$state" = degraded ] || skip "systemd did not come up in the namespaces (state '$state')"
echo "systemd $(in_guest systemctl --version | head -n1 | cut -d' ' -f2) runs as PID 1 of the guest ($state)"

# GET / on HOST:PORT inside the guest's network namespace: the status, or an error
get() {
    in_guest /usr/bin/python3 -c '
import http.client, sys
try:
    c = http.client.HTTPConnection(sys.argv[1], int(sys.argv[2]), timeout=5)
    c.request("GET", "/"); print(c.getresponse().status)
except OSError as e:
    print("error:", e)' "$HOST" "$PORT"
}
show() { in_guest systemctl show "$1" -p "$2" --value; }

echo "== the unit under test: $UNIT"
in_guest systemctl start chartered.service || true
status=
for _ in $(seq 100); do
    status=$(get)
    [ "$status" = 200 ] && break
    [ "$(show chartered.service ActiveState)" = failed ] && break
    sleep 0.2
done
if [ "$status" != 200 ]; then
    in_guest journalctl -u chartered.service --no-pager 2>/dev/null | tail -n 20 || true
    in_guest systemctl status chartered.service --no-pager 2>&1 | tail -n 20 || true
    fail "chartered.service does not serve under systemd: GET / gave '$status', state $(show chartered.service ActiveState)/$(show chartered.service Result)"
fi
[ "$(show chartered.service ActiveState)" = active ] || fail "chartered.service is not active"
pid=$(show chartered.service MainPID)
uid=$(in_guest awk '/^Uid:/ {print $2}' "/proc/$pid/status")
[ "$uid" -ge 61184 ] && [ "$uid" -le 65519 ] || fail "the server runs as uid $uid, not a dynamic user"
in_guest test -f /var/lib/private/chartered/chartered.db || fail "no database in /var/lib/private/chartered"
in_guest test -L /var/lib/chartered || fail "/var/lib/chartered is not the dynamic user's link"
echo "ok: started by systemd, GET / 200 on $HOST:$PORT, dynamic uid $uid, database in /var/lib/private/chartered"
in_guest systemctl stop chartered.service
[ "$(show chartered.service Result)" = success ] || fail "stop: Result=$(show chartered.service Result)"
[ "$(show chartered.service NRestarts)" = 0 ] || fail "it was restarted $(show chartered.service NRestarts) times"
echo "ok: systemctl stop: Result=success, no restart"

echo "== the control: the same unit without AF_NETLINK"
in_guest systemctl start chartered-nonetlink.service || true
status=
for _ in $(seq 25); do
    status=$(get)
    [ "$status" = 200 ] && break
    sleep 0.2
done
[ "$status" != 200 ] || fail "the unit without AF_NETLINK served: the sandbox is not applied here, so the first check proves nothing"
echo "ok: without AF_NETLINK it does not serve ($status; $(show chartered-nonetlink.service ActiveState), restarts $(show chartered-nonetlink.service NRestarts))"
in_guest systemctl stop chartered-nonetlink.service || true

# ---- a cluster as docs/deploy.md "A cluster" sets it up ----------------------
# Debian's PostgreSQL (its cluster, started by its unit), a role with a
# password, chartered@a and chartered@b with the package's cluster.conf and
# node-*.conf (the password in PGPASSWORD), Debian's HAProxy with the
# package's haproxy.cfg. Only what is missing on this machine skips it.
echo "== a cluster: PostgreSQL, chartered@a, chartered@b, HAProxy"
if ! in_guest sh -c 'command -v pg_lsclusters && command -v haproxy' >/dev/null; then
    echo "skipped the cluster: no PostgreSQL (postgresql-common) or HAProxy here"
    echo "all systemd checks passed"
    exit 0
fi
# what systemd-tmpfiles makes at a host's boot (/run is a fresh tmpfs here)
in_guest systemd-tmpfiles --create postgresql-common.conf haproxy.conf
pgc=$(in_guest pg_lsclusters --no-header | awk 'NR == 1 { print $1 "-" $2 }')
if [ -z "$pgc" ]; then
    v=$(in_guest ls /usr/lib/postgresql | sort -n | tail -n 1)
    in_guest pg_createcluster "$v" main >/dev/null
    pgc=$v-main
fi
in_guest systemctl start "postgresql@$pgc.service" || fail "postgresql@$pgc does not start"
PW=test-$RANDOM$RANDOM
in_guest runuser -u postgres -- psql -q -v ON_ERROR_STOP=1 \
    -c "CREATE ROLE chartered LOGIN PASSWORD '$PW'" || fail "CREATE ROLE"
in_guest runuser -u postgres -- createdb -O chartered chartered || fail "createdb"
# the password where deploy.md puts it: /etc/chartered/secrets, mode 0600
in_guest sh -c "umask 077; printf 'PGPASSWORD=%s\n' '$PW' >/etc/chartered/secrets"
in_guest systemctl start chartered@a.service chartered@b.service || true
# GET PATH on PORT in the guest: "STATUS BODY", or "error: ..."
gget() {
    in_guest /usr/bin/python3 -c '
import http.client, sys
try:
    c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=5)
    c.request(sys.argv[3] if len(sys.argv) > 3 else "GET", sys.argv[2],
              body=sys.argv[4] if len(sys.argv) > 4 else None,
              headers={"Content-Type": "application/json"})
    r = c.getresponse(); print(r.status, r.read().decode()[:300])
except OSError as e:
    print("error:", e)' "$@"
}
for n in a b; do
    port=$(in_guest sed -n 's/^port *= *//p' "/etc/chartered/node-$n.conf")
    h=
    for _ in $(seq 150); do
        h=$(gget "$port" /api/health)
        [[ "$h" == "200 "*"\"node\":\"$n\""* ]] && break
        sleep 0.2
    done
    if [[ "$h" != "200 "*"\"node\":\"$n\""*"\"cluster\":true"* ]]; then
        in_guest journalctl -u "chartered@$n.service" --no-pager 2>/dev/null | tail -n 20 || true
        in_guest systemctl status "chartered@$n.service" --no-pager 2>&1 | tail -n 20 || true
        fail "chartered@$n does not serve as node $n of a cluster on port $port: $h"
    fi
    pid=$(show "chartered@$n.service" MainPID)
    cmd=$(in_guest cat "/proc/$pid/cmdline" | tr '\0' ' ')
    [[ "$cmd" == *"--config /etc/chartered/cluster.conf --config /etc/chartered/node-$n.conf --node $n"* ]] ||
        fail "chartered@$n's command: $cmd"
    [[ "$cmd" != *"$PW"* ]] || fail "the database password is on chartered@$n's command line"
    # started at the same moment on a new database: none failed its start
    # (the migration lock's wait, tests/cluster_startrace.py)
    [ "$(show "chartered@$n.service" NRestarts)" = 0 ] || fail "chartered@$n was restarted"
    echo "ok: chartered@$n serves node $n on port $port, restarts $(show "chartered@$n.service" NRestarts): $cmd"
done
# HAProxy: no /dev/log in this guest for its unit's BindReadOnlyPaths=
in_guest mkdir -p /etc/systemd/system/haproxy.service.d
in_guest sh -c 'printf "[Service]\nBindReadOnlyPaths=\n" >/etc/systemd/system/haproxy.service.d/test.conf'
in_guest systemctl daemon-reload
in_guest haproxy -c -q -f /etc/haproxy/haproxy.cfg || fail "haproxy -c: the package's haproxy.cfg"
# maxconn N needs 2N descriptors, which HAProxy (root) raises its limit to; a
# host's systemd allows 524288, a container may allow fewer: then a smaller
# maxconn in this copy only
hard=$(in_guest sh -c 'ulimit -Hn')
want=$(in_guest sed -n 's/^ *maxconn \([0-9]*\)$/\1/p' /etc/haproxy/haproxy.cfg)
if [ "$hard" != unlimited ] && [ -n "$want" ] && [ $((2 * want + 100)) -gt "$hard" ]; then
    in_guest sed -i "s/^\( *maxconn \)[0-9]*$/\1$(( (hard - 200) / 2 ))/" /etc/haproxy/haproxy.cfg
    echo "note: descriptors limited to $hard here: HAProxy's maxconn $want lowered to $(( (hard - 200) / 2 )) in the guest"
fi
in_guest systemctl restart haproxy.service || {
    in_guest systemctl status haproxy.service --no-pager 2>&1 | tail -n 20 || true
    in_guest timeout 3 haproxy -f /etc/haproxy/haproxy.cfg -db 2>&1 | tail -n 10 || true
    fail "haproxy.service does not start"
}
for n in a b; do
    h=
    for _ in $(seq 100); do
        h=$(gget 80 "/api/health?node=$n")
        [[ "$h" == "200 "*"\"node\":\"$n\""* ]] && break
        sleep 0.2
    done
    [[ "$h" == "200 "*"\"node\":\"$n\""* ]] || fail "HAProxy on port 80 does not reach node $n: $h"
done
c=$(gget 80 /api/games POST '{"edition":"amsterdam","players":2,"seats":[{"kind":"human"},{"kind":"human"}]}')
[[ "$c" == "201 "* ]] || fail "a game created through HAProxy: $c"
echo "ok: HAProxy with the package's haproxy.cfg reaches nodes a and b; a game created through it"
in_guest systemctl stop chartered@a.service
[ "$(show chartered@a.service Result)" = success ] || fail "stop chartered@a: Result=$(show chartered@a.service Result)"
h=$(gget 80 /api/health)
for _ in $(seq 50); do
    [[ "$h" == "200 "*"\"node\":\"b\""* ]] && break
    sleep 0.2
    h=$(gget 80 /api/health)
done
[[ "$h" == "200 "*"\"node\":\"b\""* ]] || fail "with node a stopped, HAProxy does not answer from b: $h"
echo "ok: chartered@a stopped (Result=success); HAProxy answers from node b"
in_guest systemctl stop chartered@b.service haproxy.service "postgresql@$pgc.service" || true
echo "all systemd checks passed"
