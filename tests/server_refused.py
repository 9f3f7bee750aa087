"""server_refused.py: a move the database refused is never shown (issue 28
item 3). Before, with PostgreSQL stopped, a player's draw got the "storage"
error, but a resync, or an opponent's connection dropping, sent that player
a state in which the draw had happened, with the drawn card; once the
database was back the game was at the old decision again (commit_failed
kept the refused move in memory, and state frames were sent once nothing
was pending).

Two people play; then the database fails: under CHARTERED_TEST_PG=1 (the
pg_ variant) PostgreSQL is stopped (writes and reads fail: the game cannot
be read back either), else the server's file-size limit is set to one byte
(writes fail, reads work). A seat moves (a draw when it can) and gets
"storage". Then, with the database still away:
- that seat asks for a resync; the opponent's connection drops and comes
  back; a spectator watches; the HTTP summary is read: every state frame
  any of them gets is at the old decision with the old view, and no log
  entry holds the refused move;
Then the database comes back: the same move for the same decision is
accepted once the game was read back, the frames that follow are
consistent (one decision further), and the stored moves are exactly the
ones the players were shown.

usage: python3 server_refused.py BINARY SRCDIR WORKDIR
"""
import os
import random
import resource
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from seats import Table  # noqa: E402
from wsclient import (Server, http_json, pick_move, check, finish, test_args,  # noqa: E402
                      pg_mode, _pg_server)

BIN, SRC, WORK = test_args()
db = os.path.join(WORK, "refused.db")
srv = Server(BIN, db).start()
rng = random.Random(28)
T = Table(srv, db, rng)


def fault(on):
    if pg_mode():
        (_pg_server().stop if on else _pg_server().start)()
        return
    lim = (1, resource.RLIM_INFINITY) if on else (resource.RLIM_INFINITY, resource.RLIM_INFINITY)
    resource.prlimit(srv.proc.pid, resource.RLIMIT_FSIZE, lim)


def draw_or_any(legal):
    draws = [m for m in legal if m.startswith("draw")]
    return draws[0] if draws else pick_move(legal, rng)


def rejoin(o):
    """o's join, again until its session can be read (the database is just back)."""
    end = time.time() + 40
    while time.time() < end:
        o.ws = srv.ws()
        o.ws.send({"type": "join", "game": o.gid, "token": o.tok})
        try:
            m = o.ws.recv_until(lambda m: m["type"] in ("state", "error"), timeout=10)
        except TimeoutError:
            m = {"type": "error", "code": "timeout"}
        if m["type"] == "state":
            o.take(m)
            return
        o.ws.close()
        time.sleep(0.3)
    check(False, "the opponent can join again once the database is back")


shown = []  # every state frame any client got while the database was away


def watch_frames(seat):
    """Seat.take, keeping each state frame in `shown`."""
    orig = seat.take

    def take(m):
        if m["type"] == "state":
            shown.append((seat.seat, m))
        orig(m)
    seat.take = take


try:
    st, g = http_json(srv.port, "POST", "/api/games", {
        "edition": "amsterdam", "players": 2, "seed": 2028,
        "seats": [{"kind": "human", "name": "A"}, {"kind": "human", "name": "B"}]})
    check(st == 201, f"create: {st} {g}")
    gid, toks = g["id"], [s["token"] for s in g["seats"]]
    seats = [T.seat(gid, i, t) for i, t in enumerate(toks)]
    for s in seats:
        s.until(lambda m: m["type"] == "state" and m["status"] == "playing")
    # play until the mover can draw (or 30 moves)
    for _ in range(30):
        s = T.mover_of(seats)
        if s is not None and any(m.startswith("draw") for m in s.state["legal"]):
            break
        T.play(seats, 1)
    for x in seats:
        x.drain(0.3)
    s = T.mover_of(seats)
    check(s is not None, "a seat decides")
    dec = s.state["decision"]
    views = {x.seat: x.state["view"] for x in seats}
    move = draw_or_any(s.state["legal"])
    print(f"decision {dec}: seat {s.seat} will try {move!r} with the database away", flush=True)

    # ---- the database goes away; the move is refused ----
    fault(True)
    for x in seats:
        watch_frames(x)
    s.ws.send({"type": "move", "move": move, "decision": dec})
    err = s.until(lambda m: m["type"] == "error" or m["decision"] != dec, timeout=30)
    check(err["type"] == "error" and err["code"] == "storage", f"the move is refused: {err}")

    # the mover asks for a resync: a whole state, at the old decision
    s.ws.send({"type": "resync"})
    m = s.until(lambda m: m["type"] == "state", timeout=15)
    check(m["decision"] == dec, f"after a resync the mover is at decision {m['decision']}, "
          f"not {dec}: the refused move is shown")
    check(m["view"] == views[s.seat], "after a resync the mover's view is the old one")
    # the opponent's connection drops: a frame to the mover (the seat is
    # away); it connects again (on PostgreSQL once the database is back,
    # below: the upgrade's session cannot be read before)
    o = [x for x in seats if x is not s][0]
    o.ws.close()
    time.sleep(0.3)
    s.drain(0.5)
    if not pg_mode():
        o.connect()
    # a spectator
    w = srv.ws()
    w.send({"type": "watch", "game": gid})
    wm = w.recv_until(lambda m: m["type"] == "state", timeout=15)
    shown.append((-1, wm))
    w.close()
    st, summ = http_json(srv.port, "GET", f"/api/games/{gid}")
    check(st == 200 and summ.get("decision") == dec,
          f"the summary is at decision {summ.get('decision')} while the database is away")
    check(len(shown) >= 2, f"frames were sent while the database was away ({len(shown)})")

    def shown_ok(when):
        for who, m in shown:
            check(m["decision"] == dec, f"{when}: seat {who} was shown decision "
                  f"{m['decision']} (the refused move made)")
            check(all(e["n"] < dec for e in m["log"]), f"{when}: seat {who}: a log entry "
                  f"past {dec}")
            if who >= 0:
                check(m["view"] == views[who], f"{when}: seat {who}: the view shown is not "
                      "the stored one")
        shown.clear()
    shown_ok("while the database was away")
    check(srv.alive(), "the server runs on")

    # ---- the database is back: the same move, consistent ----
    fault(False)
    if pg_mode():  # at once, before the game may have been read back
        rejoin(o)
        s.drain(0.3)
        shown_ok("the opponent back as the database returns")
    accepted = None
    end = time.time() + 40
    while time.time() < end and accepted is None:
        for x in seats:
            x.drain(0.1)
        s.ws.send({"type": "move", "move": move, "decision": dec})
        m = s.until(lambda m: m["type"] == "error" or m["decision"] > dec, timeout=30)
        if m["type"] == "state":
            accepted = m
        else:
            check(m["code"] == "storage", f"only storage refusals meanwhile: {m}")
            time.sleep(0.3)
    check(accepted is not None, "the move is accepted once the database is back")
    if accepted:
        check(accepted["decision"] == dec + 1, f"one decision further: {accepted['decision']}")
        check(T.seen.get(dec) == move or any(e["n"] == dec for e in accepted["log"]),
              "the move is in the log")
        o.until(lambda m: m["type"] == "state" and m["decision"] > dec)
    T.play(seats, 6)
    for x in seats:
        x.drain(0.3)
    check(T.db_moves(gid) == [T.seen[n] for n in range(T.acked)],
          f"the database holds exactly the {T.acked} moves shown")
finally:
    code = srv.stop()
    check(code == 0, f"the server exits cleanly (status {code}): {srv.log_text()[-2000:]}")

finish("server_refused: a move the database refused was never shown")
