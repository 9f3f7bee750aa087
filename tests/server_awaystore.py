"""server_awaystore.py: a seat handed to a stand-in bot by the turn timer
stays handed over across a restart of `chartered serve`. Seat 0 never moves
and its timer (4 s) runs out, so a stand-in bot plays for it while seat 1
plays on; the server is killed (kill -9) and restarted: seat 0 is still
away at once (not only after another 4 s), and its stand-in moves for it
well before the timer could have run out again. Seat 0 then reconnects with
its token, takes the seat back, and after the next move and another restart
the seat is no longer away.

usage: python3 server_awaystore.py BINARY SRCDIR WORKDIR
"""
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import Server, http_json, pick_move, check, finish, test_args  # noqa: E402

BIN, SRC, WORK = test_args()
TIMER = 4

db = os.path.join(WORK, "awaystore.db")
for f in (db, db + "-wal", db + "-shm"):
    if os.path.exists(f):
        os.remove(f)
srv = Server(BIN, db).start()
rng = random.Random(5)


def play_seat1(b, until, timeout=40):
    """Seat 1 moves whenever it decides (once per decision: a state frame
    can come again for the same decision when the seats change), until
    until(state) holds."""
    end = time.time() + timeout
    last = None
    while time.time() < end:
        m = b.recv_until(lambda m: m["type"] in ("state", "error"), timeout=end - time.time())
        if m["type"] == "error":
            check(m["code"] in ("stale", "rate_limited"), f"seat 1: unexpected error {m}")
            if m["code"] == "rate_limited" and last:
                time.sleep(0.1)  # throttled: send the move again later
                b.send(last)
            continue
        if until(m):
            return m
        if m["legal"] and m["status"] == "playing" and (not last or last["decision"] != m["decision"]):
            last = {"type": "move", "move": pick_move(m["legal"], rng), "decision": m["decision"]}
            b.send(last)
    check(False, "seat 1: the awaited state did not come")
    return None


try:
    st, g = http_json(srv.port, "POST", "/api/games", {
        "edition": "amsterdam", "players": 2, "seed": 9, "turn_timer": TIMER,
        "seats": [{"kind": "human", "name": "Gone"}, {"kind": "human", "name": "Here"}]})
    check(st == 201, f"create: {st} {g}")
    gid, toks = g["id"], [s["token"] for s in g["seats"]]
    a, b = srv.ws(), srv.ws()
    a.send({"type": "join", "game": gid, "token": toks[0]})
    b.send({"type": "join", "game": gid, "token": toks[1]})
    a.recv_until(lambda m: m["type"] == "state" and m["status"] == "playing")
    a.close()  # seat 0 leaves and never moves
    # seat 1 plays until the stand-in of seat 0 has made a move
    went = {}

    def stand_in_moved(m):
        if m["seats"][0]["away"] and "at" not in went:
            went["at"] = m["decision"]
        return "at" in went and any(e["player"] == 0 and e["n"] >= went["at"] for e in m["log"])

    m = play_seat1(b, stand_in_moved, timeout=60)
    check(m is not None and m["seats"][0]["away"], "seat 0 went away and its stand-in moved")
    srv.stop(kill=True)
    b.close()

    srv.start()
    st, summ = http_json(srv.port, "GET", f"/api/games/{gid}")
    check(st == 200 and summ["seats"][0]["away"] is True and summ["seats"][1]["away"] is False,
          f"after kill -9 seat 0 is still away: {summ.get('seats')}")
    b = srv.ws()
    b.send({"type": "join", "game": gid, "token": toks[1]})
    # from now on every decision of seat 0 alone is made by the stand-in
    # without waiting for the timer
    slow = []
    t_dec = {}

    def seat0_moved_twice(m):
        if m["status"] != "playing":
            return True
        now = time.time()
        if m["deciders"] == [0] and m["decision"] not in t_dec:
            t_dec[m["decision"]] = now
        for e in m["log"]:
            if e["player"] == 0 and e["n"] in t_dec:
                slow.append(now - t_dec.pop(e["n"]))
        return len(slow) >= 2

    play_seat1(b, seat0_moved_twice, timeout=60)
    check(len(slow) >= 1, "the stand-in moved for seat 0 after the restart")
    check(all(t < TIMER - 1.5 for t in slow),
          f"the stand-in moves at once, not after a new timeout: {['%.2f' % t for t in slow]}")
    print("stand-in moves after the restart in " + ", ".join("%.2f s" % t for t in slow),
          flush=True)

    # seat 0 comes back, a move is made, and the seat stays its owner's
    a = srv.ws()
    a.send({"type": "join", "game": gid, "token": toks[0]})
    m = a.recv_until(lambda m: m["type"] == "state")
    check(not m["seats"][0]["away"], "the token takes the seat back")
    back_at = m["decision"]
    if m["legal"] and m["status"] == "playing":  # it decides: it moves itself
        a.send({"type": "move", "move": pick_move(m["legal"], rng), "decision": back_at})
        m = a.recv_until(lambda m: m["type"] == "state" and m["decision"] > back_at)
    else:
        m = play_seat1(b, lambda m: m["decision"] > back_at or m["status"] == "over")
    check(not m["seats"][0]["away"], "seat 0 is its owner's after the next move")
    srv.stop()
    a.close()
    b.close()
    srv.start()
    st, summ = http_json(srv.port, "GET", f"/api/games/{gid}")
    check(st == 200 and summ["seats"][0]["away"] is False,
          f"taken back, it stays taken back after a restart: {summ.get('seats')}")
finally:
    code = srv.stop()
    check(code == 0, f"the server exits cleanly on SIGTERM (status {code}): {srv.log_text()[-2000:]}")

finish("server_awaystore: a stand-in bot keeps its seat across a restart")
