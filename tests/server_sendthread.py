"""server_sendthread.py: clients that go away while the sender thread holds
frames for them (src/server/net/sender.c). A person plays against three random
bots while spectators watch; every few moves one spectator disconnects
without a word (a reset, an end of file or a close frame, in turn) and a new
one comes, so that the server closes connections whose frames are queued,
being sent, or partly sent (a small kernel send buffer). The server must
go on (no write to a closed or reused socket, no client freed while its job
is out: the ASan build runs this test), the spectators that stay must get
every frame in order and end with the game's view (equal to a whole view
read then), and the server must stop cleanly. Its loop statistics say how
many jobs were partly sent, failed and closed while out (printed: how often
each case came is up to the scheduler, so it is not asserted).

    python3 tests/server_sendthread.py BINARY SRCDIR WORKDIR
"""
import json
import os
import random
import re
import select
import socket
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import (Server, WS, WSClosed, http_json, guest, check, finish,  # noqa: E402
                      test_args, pick_move)

BIN, SRC, WORK = test_args()
rng = random.Random(1414)
MOVES = 120        # the person's moves
SPECTATORS = 12    # watching at any time
LEAVE_EVERY = 2    # one spectator leaves (and another comes) every so many moves
# a small kernel send buffer per WebSocket: sends are often partial
os.environ["CHARTERED_WS_SNDBUF"] = "8192"
stats_path = os.path.join(WORK, "loop-stats.txt")
os.environ["CHARTERED_LOOP_STATS"] = stats_path
# every frame through the sender thread (by default a flush writes its
# first 500 us of frames on the loop, and this test's flushes are short)
os.environ["CHARTERED_SEND_DIRECT_US"] = "0"


def small_window_connection(address, timeout=None):
    """A TCP connection with a small receive buffer from the start (set
    after the handshake, the window shrinks under data already in flight
    and loopback's 32 KiB segments stall in retransmissions)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8192)
    s.settimeout(timeout)
    s.connect(address)
    return s


def watcher(port, gid):
    plain = socket.create_connection
    socket.create_connection = small_window_connection
    try:
        w = WS("127.0.0.1", port)
    finally:
        socket.create_connection = plain
    w.delta_checks = False  # the final check below compares whole views
    w.send({"type": "watch", "game": gid})
    return w


def drain(w):
    """Whatever w has received by now (its patches applied in order: a gap
    or a patch on the wrong base raises DeltaError)."""
    while w.buf or select.select([w.sock], [], [], 0)[0]:
        w.recv(timeout=10)


def leave(w, how):
    """Gone without reading what is on its way."""
    if how == "reset":
        w.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        w.sock.close()
    elif how == "eof":
        w.sock.close()
    else:
        w.close()  # a close frame, then the socket closed


srv = Server(BIN, os.path.join(WORK, "send.db"), extra=["--send-thread", "on"]).start()
try:
    cookie = guest(srv.port, "Anke")
    st, g = http_json(srv.port, "POST", "/api/games", {
        "players": 4, "seed": 14,
        "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3}, cookie=cookie)
    check(st == 201, f"game created: {st} {g}")
    gid = g["id"]
    specs = [watcher(srv.port, gid) for _ in range(SPECTATORS)]
    p = WS("127.0.0.1", srv.port, cookie=cookie)
    p.delta_checks = False
    p.send({"type": "join", "game": gid})
    moves, left, sent, last = 0, 0, None, None
    hows = ("reset", "eof", "close")
    while True:
        m = p.recv(timeout=30)
        if m.get("type") == "error":
            if m.get("code") == "rate_limited" and sent:
                p.send(sent)  # the frame rate: sent again
                continue
            check(m.get("code") == "stale", f"unexpected error {m}")
            continue
        if m.get("type") != "state":
            continue
        last = m
        if m["status"] != "playing" or (moves >= MOVES and m["legal"]):
            break
        if not m["legal"]:
            continue
        sent = {"type": "move", "move": pick_move(m["legal"], rng), "decision": m["decision"]}
        p.send(sent)
        moves += 1
        # the spectators read only now and then: their frames pile up
        for w in specs:
            if rng.random() < 0.3:
                drain(w)
        if moves % LEAVE_EVERY == 0:
            i = rng.randrange(len(specs))
            leave(specs[i], hows[left % 3])
            left += 1
            specs[i] = watcher(srv.port, gid)
    final = last["decision"]
    check(moves >= 30, f"moves played: {moves}")
    check(srv.alive(), "the server is still running")

    # the spectators that stayed: every frame, in order, up to the last
    whole_w = WS("127.0.0.1", srv.port)
    whole_w.delta_checks = False
    whole_w.send({"type": "watch", "game": gid, "frames": "full"})
    whole = whole_w.recv_until(lambda m: m.get("type") == "state")
    check(whole["decision"] == final, f"whole view at {whole['decision']}, not {final}")
    for k, w in enumerate(specs):
        prev = -1
        while prev < final:
            m = w.recv(timeout=30)
            if m.get("type") == "state":
                prev = m["decision"]
        mine = [f for f in w.frames if f.get("type") == "state"][-1]
        check(json.dumps(mine["view"]) == json.dumps(whole["view"]),
              f"spectator {k}: the view its frames built differs from the whole view")
    for w in specs + [p, whole_w]:
        w.close()
finally:
    if not srv.alive():  # what it died of (a sanitizer's report)
        print(srv.log_text()[-4000:])
    code = srv.stop()
check(code == 0, f"the server stopped with {code}")
log = srv.log_text()
check("ERROR: AddressSanitizer" not in log and "runtime error" not in log,
      f"sanitizer report in the server's log:\n{log[-3000:]}")
with open(stats_path, encoding="utf-8") as f:
    text = f.read()
line = re.search(r"(?m)^sender thread: .*$", text)
check(line is not None and "off" not in line.group(0), "the loop statistics name the sender")
jobs = int(re.search(r"(\d+) jobs", line.group(0)).group(1))
check(jobs > 0, f"jobs sent by the sender thread: {jobs}")
print(f"{moves} moves, {left} spectators left while frames were on their way; {line.group(0)}")
finish("server_sendthread: clients gone while the sender holds their frames")
