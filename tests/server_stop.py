"""server_stop.py: the graceful stop of `chartered serve` (issue 28, "What to
build" 6). Before, SIGTERM ended the loop at once: every WebSocket was cut
without a close frame.

Two people play; one sends a move and the server gets SIGTERM right after:
- the move is either acknowledged (a state frame) or refused with a reason,
  never left unanswered;
- every client (both seats and a spectator) gets a close frame with code
  1001 (going away) and a reason that says the server is stopping;
- the server exits with status 0 within a few seconds;
- started again, the game is at the acknowledged decision and the database
  holds exactly the moves the players were shown.

usage: python3 server_stop.py BINARY SRCDIR WORKDIR
"""
import os
import random
import signal
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from seats import Table  # noqa: E402
from wsclient import (Server, WSClosed, http_json, pick_move, check, finish,  # noqa: E402
                      test_args)

BIN, SRC, WORK = test_args()
db = os.path.join(WORK, "stop.db")
srv = Server(BIN, db).start()
rng = random.Random(6)
T = Table(srv, db, rng)


def until_closed(ws, take, secs=15):
    """Every frame until the close; the close frame's (code, reason)."""
    end = time.time() + secs
    try:
        while time.time() < end:
            take(ws.recv(timeout=max(0.1, end - time.time())))
    except (WSClosed, OSError):
        pass
    except TimeoutError:
        return None
    cr = ws.proto.close_rcvd
    return (cr.code, cr.reason) if cr else (None, "")


try:
    st, g = http_json(srv.port, "POST", "/api/games", {
        "edition": "amsterdam", "players": 2, "seed": 66,
        "seats": [{"kind": "human", "name": "A"}, {"kind": "human", "name": "B"}]})
    check(st == 201, f"create: {st} {g}")
    gid, toks = g["id"], [s["token"] for s in g["seats"]]
    seats = [T.seat(gid, i, t) for i, t in enumerate(toks)]
    for s in seats:
        s.until(lambda m: m["type"] == "state" and m["status"] == "playing")
    T.play(seats, 8)
    for x in seats:
        x.drain(0.3)
    w = srv.ws()
    w.send({"type": "watch", "game": gid})
    w.recv_until(lambda m: m["type"] == "state", timeout=10)
    s = T.mover_of(seats)
    check(s is not None, "a seat decides")
    dec = s.state["decision"]
    s.ws.send({"type": "move", "move": pick_move(s.state["legal"], rng), "decision": dec})
    t0 = time.time()
    srv.proc.send_signal(signal.SIGTERM)
    answers = []

    def take_mover(m):
        s.take(m)
        if m["type"] == "error" or (m["type"] == "state" and m["decision"] > dec):
            answers.append(m)
    closes = {s.seat: until_closed(s.ws, take_mover)}
    for x in seats:
        if x is not s:
            closes[x.seat] = until_closed(x.ws, x.take)
    closes[-1] = until_closed(w, lambda m: None)
    t_closed = time.time() - t0
    for who, cr in closes.items():
        check(cr is not None and cr[0] == 1001 and "stopping" in cr[1],
              f"client {who} gets a close frame 1001 saying why: {cr}")
    check(len(answers) >= 1, "the move sent just before SIGTERM was answered "
          f"(acknowledged or refused) before the close: {answers}")
    if answers:
        a = answers[0]
        check(a["type"] == "state" or "stopping" in a.get("message", ""),
              f"acknowledged, or refused because the server stops: {a}")
        print(f"the move at the stop: {'acknowledged' if a['type'] == 'state' else 'refused'};"
              f" closed {t_closed * 1000:.0f} ms after SIGTERM", flush=True)
    try:
        code = srv.proc.wait(timeout=15)
    except Exception:
        code = None
    srv.proc = None
    check(code == 0, f"the server exits with status 0 after SIGTERM: {code}")
    at = T.acked
    check(T.db_moves(gid) == [T.seen[n] for n in range(at)],
          f"the database holds exactly the {at} moves shown")
    srv.start()
    seats = [T.seat(gid, i, t) for i, t in enumerate(toks)]
    for x in seats:
        check(x.state["decision"] == at, f"resumed at {x.state['decision']}, shown {at}")
    T.play(seats, 4)
finally:
    code = srv.stop()
    check(code in (0, None), f"the server exits cleanly (status {code}): "
          f"{srv.log_text()[-2000:]}")

finish("server_stop: SIGTERM answered the last move, closed every client with 1001, exited 0")
