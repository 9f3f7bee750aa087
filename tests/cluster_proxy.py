"""cluster_proxy.py: behind HAProxy (packaging/haproxy.cfg.in, as
scripts/cluster.sh starts it) the per-address limits count each client, not
HAProxy (issue 28, medium: HAProxy forwarded no client address and the nodes
ran without --trust-proxy, so one client's guest sessions or games shut
every other visitor out). Two nodes, a private PostgreSQL, all on loopback;
the limits count loopback here (CHARTERED_LIMIT_LOOPBACK=1) and allow 3
creations a minute per address and node:
- client X (from 127.0.0.2) creates games through HAProxy on node a
  (`?node=a`, HAProxy's use-server rule) until it is refused (429: the 4th);
- client Y (from 127.0.0.3) then still creates games (it was refused too
  when every client counted as HAProxy's 127.0.0.1);
- a client that sends its own X-Forwarded-For does not escape its count;
- a request whose headers never end, and a POST whose body never comes,
  are closed by HAProxy within its `timeout http-request` (10 s), not held
  (the body: `option http-buffer-request`, issue 35).
Every wait is bounded.

usage: python3 cluster_proxy.py BINARY SRCDIR WORKDIR
"""
import http.client as httpc
import json
import os
import socket
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import cluster  # noqa: E402
from wsclient import check, finish, test_args  # noqa: E402

BIN, SRC, WORK = test_args()
ok, why = cluster.available()
if not ok:
    print("SKIP:", why)
    sys.exit(77)
os.environ.update({"CHARTERED_LIMIT_LOOPBACK": "1", "CHARTERED_CREATES_PER_MINUTE": "3"})
GAME = json.dumps({"edition": "amsterdam", "players": 2,
                   "seats": [{"kind": "human"}, {"kind": "human"}]})


def create(port, src, xff=None):
    c = httpc.HTTPConnection("127.0.0.1", port, timeout=20, source_address=(src, 0))
    h = {"Content-Type": "application/json"}
    if xff:
        h["X-Forwarded-For"] = xff
    c.request("POST", "/api/games?node=a", body=GAME, headers=h)
    r = c.getresponse()
    r.read()
    c.close()
    return r.status


with cluster.Cluster(BIN, SRC, WORK, nodes=2) as cl:
    cl.wait_routed({"a", "b"})
    xs = [create(cl.port, "127.0.0.2") for _ in range(4)]
    check(xs == [201, 201, 201, 429], f"client X is refused at its 4th game: {xs}")
    ys = [create(cl.port, "127.0.0.3") for _ in range(2)]
    check(ys == [201, 201], f"client Y behind the same HAProxy still creates games: {ys}")
    zs = [create(cl.port, "127.0.0.2", xff=f"198.51.100.{i}") for i in range(2)]
    check(zs == [429, 429], f"client X's own X-Forwarded-For does not free it: {zs}")

    # slow clients, both at once: headers that never end; a POST whose body
    # never comes (option http-buffer-request: HAProxy waits for the body
    # within `timeout http-request` and answers 408; without it the node
    # holds the request until its own 20 s bound)
    def slow(first):
        s = socket.create_connection(("127.0.0.1", cl.port), timeout=30)
        s.sendall(first)
        return s

    socks = {"headers": slow(b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: "),
             "body": slow(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: "
                          b"application/json\r\nContent-Length: 100\r\n\r\n{")}
    t0 = time.monotonic()
    for what, s in socks.items():
        got = b""
        try:
            while True:
                d = s.recv(4096)
                if not d:
                    break
                got += d
        except OSError:
            pass
        held = time.monotonic() - t0
        s.close()
        check(held < 15 and (got == b"" or got.startswith(b"HTTP/1.1 408")),
              f"a request whose {what} never ends is closed by HAProxy in {held:.1f} s: {got[:40]!r}")

finish("cluster_proxy: per-address limits count each client behind HAProxy, slow headers and bodies closed")
