"""limits_hold.py: what `chartered serve` holds at its default limits
(docs/protocol.md, "Limits"; issue 19's figure "connections and games held at
the limits"). Bounded by the limits themselves.

1. Per address (loopback counted: CHARTERED_LIMIT_LOOPBACK=1): WebSocket
   connections opened until one is refused; games created until one is
   refused.
2. In all (loopback exempt from the per-address limits, as by default):
   games of two human seats created until the server refuses more waiting
   games (503), with the server's resident memory before and after.

usage: python3 bench/limits_hold.py BINARY
"""
import http.client as httpc
import json
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests",
                                "support"))
from wsclient import WS, WSClosed, Server  # noqa: E402

BIN = sys.argv[1]
work = tempfile.mkdtemp(prefix="limits_hold.")
BODY = json.dumps({"edition": "amsterdam", "players": 2,
                   "seats": [{"kind": "human"}, {"kind": "human"}]})


def rss_kb(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def create_until_refused(port, cap):
    c = httpc.HTTPConnection("127.0.0.1", port, timeout=30)
    n, status, err = 0, 0, ""
    while n < cap:
        c.request("POST", "/api/games", body=BODY, headers={"Content-Type": "application/json"})
        r = c.getresponse()
        data = json.loads(r.read().decode())
        if r.status != 201:
            status, err = r.status, data.get("error", "")
            break
        n += 1
    c.close()
    return n, status, err


os.environ["CHARTERED_LIMIT_LOOPBACK"] = "1"
srv = Server(BIN, os.path.join(work, "a.db")).start()
conns = []
refused = None
while len(conns) < 10000:
    w = WS("127.0.0.1", srv.port)
    w.send({"type": "ping"})
    m = w.recv(timeout=20)
    if m.get("type") != "pong":
        refused = m
        break
    conns.append(w)
print(f"per address: {len(conns)} WebSocket connections held, the next refused: "
      f"{refused.get('code') if refused else None}")
for w in conns:
    w.close()
n, st, err = create_until_refused(srv.port, 100000)
print(f"per address: {n} games created, the next answered {st}: {err}")
srv.stop()

os.environ["CHARTERED_LIMIT_LOOPBACK"] = "0"
srv = Server(BIN, os.path.join(work, "b.db")).start()
before = rss_kb(srv.proc.pid)
t0 = time.time()
n, st, err = create_until_refused(srv.port, 1000000)
t = time.time() - t0
after = rss_kb(srv.proc.pid)
print(f"in all: {n} waiting games held in {t:.1f} s, the next answered {st}: {err}")
print(f"resident memory: {before / 1024:.1f} MiB before, {after / 1024:.1f} MiB at the limit "
      f"({(after - before) / max(n, 1):.1f} KiB per waiting game)")
srv.stop()
