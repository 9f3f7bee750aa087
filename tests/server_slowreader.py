"""server_slowreader.py: a client that does not read while frames pile up
for it gets every frame whole and in order (src/server/api/ws_session.c: a
frame goes to the kernel at once while it takes it whole; after a partial
send the rest waits for the writable callback, behind what the kernel
already has). A person plays against three random bots; two spectators with
a receive buffer of a few KiB read nothing until the game has moved on for
many moves, one with patches and one with whole frames, and each sends
pings meanwhile. Then they read everything: the patch spectator's frames
must apply one after the other (consecutive seq, each patch from the view
before: the client raises DeltaError otherwise), the whole-frame
spectator's decisions never go back, each gets one pong per ping, and both
end at the game's last decision, with a view equal to a whole view read
then. Run on both event loops (libev, the default, and --loop poll), and
with the frames sent by the sender thread (src/server/net/sender.c, the
default: a job's partial send leaves its rest to libwebsockets, behind
which every later frame waits) and by the loop (--send-thread off).

    python3 tests/server_slowreader.py BINARY SRCDIR WORKDIR
"""
import json
import os
import random
import socket
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import (Server, WS, http_json, guest, check, finish, test_args,  # noqa: E402
                      pick_move)

BIN, SRC, WORK = test_args()
rng = random.Random(14)
MOVES = 150      # the person's moves while the spectators do not read
PING_EVERY = 10  # one ping from each spectator every so many moves (well under the frame rate)
# a small kernel send buffer per WebSocket (ws_session.c): the frames for a
# client that does not read stop being taken whole after a few KiB
os.environ["CHARTERED_WS_SNDBUF"] = "4096"


def whole_view(port, gid):
    """A spectator's whole view of the game now, from a new connection."""
    w = WS("127.0.0.1", port)
    w.delta_checks = False
    w.send({"type": "watch", "game": gid, "frames": "full"})
    m = w.recv_until(lambda m: m.get("type") == "state")
    w.close()
    return m


def run(loop, sender, direct):
    """The scenario with the server on the given event loop (libev, or
    libwebsockets' own poll loop: srv_ws_flush runs after each of its turns),
    its frames sent by the sender thread or not; with the thread, a flush
    writes its first `direct` us of frames on the loop (the default 500 us
    would leave this test's short flushes all on the loop: 0 sends every
    frame through the thread, 30 mixes both)."""
    os.environ["CHARTERED_SEND_DIRECT_US"] = direct
    extra = ["--loop", "poll"] if loop == "poll" else []
    extra += ["--send-thread", sender]
    srv = Server(BIN, os.path.join(WORK, f"slow-{loop}-{sender}-{direct}.db"), extra=extra).start()
    try:
        cookie = guest(srv.port, "Anke")
        st, g = http_json(srv.port, "POST", "/api/games", {
            "players": 4, "seed": 14,
            "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3}, cookie=cookie)
        check(st == 201, f"game created: {st} {g}")
        gid = g["id"]

        slow = {}
        for name, frames in (("patch", None), ("full", "full")):
            w = WS("127.0.0.1", srv.port)
            # a small window: the server's sends stop being taken whole soon
            w.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            msg = {"type": "watch", "game": gid}
            if frames:
                msg["frames"] = frames
            w.send(msg)
            slow[name] = w
        pings = {"patch": 0, "full": 0}

        p = WS("127.0.0.1", srv.port, cookie=cookie)
        p.delta_checks = False  # the checks open more connections; not what this test is about
        p.send({"type": "join", "game": gid})
        moves = 0
        last = None
        sent = None
        while True:
            m = p.recv(timeout=30)
            if m.get("type") == "error":
                if m.get("code") == "rate_limited" and sent:
                    # quicker than 20 frames a second (the bots answer at
                    # once): the move did nothing; sent again a little later
                    time.sleep(0.2)
                    p.send(sent)
                    continue
                check(m.get("code") == "stale", f"unexpected error {m}")
                continue
            if m.get("type") != "state":
                continue
            last = m
            if m["status"] != "playing":
                break
            if moves >= MOVES:
                # enough moves: wait until the bots have played what they
                # play (a frame of a bot's decision can come first on a
                # loaded machine; the game then moves past it)
                if m["legal"]:
                    break
                continue
            if m["legal"]:
                sent = {"type": "move", "move": pick_move(m["legal"], rng), "decision": m["decision"]}
                p.send(sent)
                moves += 1
                if moves % PING_EVERY == 0:
                    for name, w in slow.items():
                        w.send({"type": "ping"})
                        pings[name] += 1
        check(moves >= 30, f"moves played while the spectators did not read: {moves}")
        final = last["decision"]

        for name, w in slow.items():
            w.delta_checks = False
            w.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
            pongs, states, prev, got_bytes = 0, 0, -1, 0
            while pongs < pings[name] or prev < final:
                m = w.recv(timeout=30)  # the patch spectator's DeltaError: out of order or lost
                if m.get("type") == "pong":
                    pongs += 1
                elif m.get("type") == "state":
                    states += 1
                    check(m["decision"] >= prev, f"{name}: decision {m['decision']} after {prev}")
                    if name == "full":
                        check("view" in m and "patch" not in m, f"{name}: a whole frame")
                    prev = m["decision"]
                else:
                    check(False, f"{name}: unexpected frame {m}")
            check(pongs == pings[name], f"{name}: {pongs} pongs for {pings[name]} pings")
            check(prev == final, f"{name}: ends at decision {prev}, the game's is {final}")
            # the view the frames built is the one the server holds now
            whole = whole_view(srv.port, gid)
            check(whole["decision"] == final, f"whole view at {whole['decision']}, not {final}")
            mine = [f for f in w.frames if f.get("type") == "state"][-1]
            check(json.dumps(mine["view"]) == json.dumps(whole["view"]),
                  f"{name}: the view its frames built differs from the whole view")
            print(f"{loop}, sender {sender} (direct {direct} us): {name} spectator: {states} state frames and {pongs} pongs read after "
                  f"{moves} moves, in order")
        check(srv.alive(), "the server is still running")
    finally:
        srv.stop()


for loop, sender, direct in (("libev", "on", "0"), ("libev", "on", "30"), ("libev", "off", "0"),
                             ("poll", "on", "0")):
    run(loop, sender, direct)
finish("server_slowreader: frames in order and whole for clients that read late")
