"""cluster_social.py: challenges, "your turn" and rematch offers across the
nodes of a cluster (issue 32: "a cluster test in which the badge and the
challenge cross nodes"; tests/support/cluster.py): two nodes over one
PostgreSQL, all on loopback.
- anna challenges Bart through node a; Bart's badge (GET /api/challenges,
  what the header counts) on node b lists it at once, and he accepts it on
  b: the game is made on b, and anna's "My games" on a lists it.
- the header's count of games waiting for one's move (GET /api/my-games:
  "your_turn") agrees on both nodes; the person to move plays through b
  until it is the other's turn, and the other's count on a shows it.
- a rematch offer crosses nodes too: a finished game of b's (abandoned:
  nobody stays connected, CHARTERED_ABANDON_SECONDS=1) is offered again on
  b; Bart is asked on a and accepts there: a makes the game from the
  stored offer, and b sees it.
Every wait is on an event, bounded in time.

usage: python3 cluster_social.py BINARY SRCDIR WORKDIR
"""
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import cluster  # noqa: E402
from cluster import join_at, wait_for  # noqa: E402
from wsclient import http_call, http_json, session_cookie, pick_move, check, finish  # noqa: E402

BIN, SRC, WORK = cluster.test_setup()
os.environ["CHARTERED_ABANDON_SECONDS"] = "1"
rng = random.Random(32)

with cluster.Cluster(BIN, SRC, WORK, nodes=2) as cl:
    A, B = cl.node("a").port, cl.node("b").port

    def signup(port, name):
        st, r, h = http_call(port, "POST", "/api/signup", {"name": name, "password": name + " pw 1"})
        check(st == 201, f"{name} signs up: {st} {r}")
        return session_cookie(h)

    def turns(port, cookie, gid):
        st, r = http_json(port, "GET", "/api/my-games", cookie=cookie)
        e = [x for x in r.get("games", []) if x["id"] == gid] if st == 200 else []
        return e[0]["your_turn"] if e else None

    anna, bart = signup(A, "anna"), signup(B, "Bart")

    # ---- a challenge made on a, seen and accepted on b ----
    st, c = http_json(A, "POST", "/api/challenges", {"name": "bart", "edition": "amsterdam",
                                                      "mode": "turn-based", "days": 1}, cookie=anna)
    check(st == 201, f"anna challenges Bart on a: {st} {c}")
    st, r = http_json(B, "GET", "/api/challenges", cookie=bart)
    check(st == 200 and [x["id"] for x in r["incoming"]] == [c["id"]],
          f"Bart's badge on b counts it: {r}")
    st, a = http_json(B, "POST", f"/api/challenges/{c['id']}/accept", {}, cookie=bart)
    check(st == 201, f"Bart accepts on b: {st} {a}")
    gid = a["game"]
    check(gid in cl.health("b")["owned"], "b made the game and plays it")
    wait_for(lambda: turns(A, anna, gid) is not None, 10, "anna's games on a list it")

    # ---- whose turn: the same on both nodes, and after moves on b ----
    ta, tb = turns(A, anna, gid), turns(A, bart, gid)
    check(ta is not None and tb is not None and ta != tb, f"one of them is to move: {ta} {tb}")
    check(turns(B, anna, gid) == ta and turns(B, bart, gid) == tb, "b says the same")
    mover, other = (anna, bart) if ta else (bart, anna)
    w, m = join_at(B, gid, mover)
    check(m["type"] == "state", f"the mover joins on b: {cluster.short(m)}")
    for _ in range(40):
        if m.get("seat") not in m.get("deciders", []):
            break
        w.send({"type": "move", "move": pick_move(m["legal"], rng), "decision": m["decision"]})
        m = w.recv_until(lambda x: x["type"] in ("state", "error"), timeout=30)
        check(m["type"] == "state", f"a move: {cluster.short(m)}")
    w.close()
    check(m.get("seat") not in m.get("deciders", []), "the mover's turn is over")
    got = wait_for(lambda: turns(A, other, gid) is True, 15,
                   "the other's count on a shows their turn")
    check(got is True and turns(A, mover, gid) is False, "and no longer the mover's")

    # ---- a rematch offered through a, accepted through b ----
    st, c2 = http_json(A, "POST", "/api/challenges", {"name": "Bart", "edition": "golden-age"},
                       cookie=anna)
    st, a2 = http_json(B, "POST", f"/api/challenges/{c2['id']}/accept", {}, cookie=bart)
    live = a2["game"]

    def over():
        st, s = http_json(B, "GET", f"/api/games/{live}")
        return st == 200 and s["status"] in ("over", "abandoned")
    wait_for(over, 20, "the live game nobody plays ends")
    st, o = http_json(B, "POST", f"/api/games/{live}/rematch", {}, cookie=anna)
    check(st == 201 and o.get("status") == "pending", f"anna proposes the rematch: {st} {o}")
    st, r = http_json(A, "GET", "/api/rematches", cookie=bart)
    check(st == 200 and [x["id"] for x in r["offers"]] == [o.get("id")], f"Bart is asked, on a: {r}")
    st, r = http_json(A, "POST", f"/api/rematches/{o.get('id')}/accept", {}, cookie=bart)
    check(st == 200 and r.get("status") == "started", f"Bart accepts on a: it starts: {st} {r}")
    new = r.get("rematch")
    st, s = http_json(B, "GET", f"/api/games/{new}")
    check(st == 200 and sorted(x.get("name") for x in s["seats"]) == ["Bart", "anna"],
          f"b sees the new game with both: {st} {s.get('seats')}")

finish("cluster_social: a challenge, the turn count and a rematch offer across nodes")
