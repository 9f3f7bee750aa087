"""cluster_basic.py: two nodes over one PostgreSQL behind HAProxy, all on
loopback (tests/support/cluster.py; issue 17 items 2 and 5):
- GET /api/health of each node: its name, the games it owns, its database
  link "ok";
- the two clients of one game, connecting through HAProxy, land on the same
  node: the one that owns the game;
- a game created through node A is listed through node B (the lobby change
  reaches B by LISTEN/NOTIFY), and joinable through B: B answers the join
  with a 307 to ?node=a, which HAProxy sends to A; B's listing then shows
  the seat taken;
- an account made on A logs in on B;
- a WebSocket join on B of A's game gets a "moved" frame naming A.
Every wait is on an event, bounded in time.

usage: python3 cluster_basic.py BINARY SRCDIR WORKDIR
"""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import cluster  # noqa: E402
from cluster import join_at, owner_of, wait_for  # noqa: E402
from wsclient import http_call, http_json, guest, check, finish  # noqa: E402

BIN, SRC, WORK = cluster.test_setup()


with cluster.Cluster(BIN, SRC, WORK, nodes=2) as cl:
    print(f"cluster up: storage {cl.store}, HAProxy on {cl.port}", flush=True)
    # ---- health ----
    for n in cl.names:
        h = cl.health(n)
        check(h and h["node"] == n and h["cluster"] is True, f"node {n} says its name: {h}")
        check(h and h["database"]["link"] == "ok", f"node {n}: database link ok: {h}")
        check(h and h["games_owned"] == 0 and h["owned"] == [], f"node {n} owns nothing yet")

    # ---- two clients of one game land on its node ----
    st, g = http_json(cl.port, "POST", "/api/games", {"players": 2})
    check(st == 201, f"a game is created through HAProxy: {st} {g}")
    gid = g["id"]
    toks = [s["token"] for s in g["seats"]]
    own = owner_of(cl, gid)
    check(own is not None, "one node owns the new game (its health lists it)")
    other = [n for n in cl.names if n != own][0]
    check(gid not in cl.health(other)["owned"], "the other node does not")
    c1, c2 = guest(cl.port, "Anke"), guest(cl.port, "Bram")
    w1, m1 = join_at(cl.port, gid, c1, toks[0])
    if m1["type"] == "moved":  # hashed to the other node: it says where
        w1.close()
        check(m1["node"] == own, f"moved names the owner: {m1}")
        w1, m1 = join_at(cl.port, gid, c1, toks[0], node=m1["node"])
    w2, m2 = join_at(cl.port, gid, c2, toks[1])
    if m2["type"] == "moved":
        w2.close()
        w2, m2 = join_at(cl.port, gid, c2, toks[1], node=m2["node"])
    check(m1["type"] == "state" and m2["type"] == "state", f"both clients join: {m1} {m2}")
    check(cl.health(own)["clients"] == 2 and cl.health(other)["clients"] == 0,
          f"both clients are on node {own}: {cl.health(own)['clients']} and "
          f"{cl.health(other)['clients']}")
    w1.close()
    w2.close()

    # ---- created through A, listed and joinable through B ----
    A, B = cl.node("a").port, cl.node("b").port
    st, g2 = http_json(A, "POST", "/api/games",
                       {"players": 2, "seats": [{"kind": "human", "access": "open"},
                                                {"kind": "human", "access": "open"}]})
    check(st == 201, f"node a creates a game: {st} {g2}")
    gid2 = g2["id"]
    check(gid2 in cl.health("a")["owned"], "node a owns the game it made")

    def listed_on_b():
        st, r = http_json(B, "GET", "/api/games")
        return st == 200 and [x for x in r["games"] if x["id"] == gid2]
    got = wait_for(listed_on_b, 15, "the game made on a is listed on b")
    check(bool(got) and got[0]["status"] == "waiting", f"b lists it as waiting: {got}")
    st, s2 = http_json(B, "GET", f"/api/games/{gid2}")
    check(st == 200 and s2["id"] == gid2, f"b answers its summary: {st}")
    cookie = guest(B, "Carla")
    st, r, hdr = http_call(B, "POST", f"/api/games/{gid2}/join", {}, cookie=cookie)
    check(st == 307 and "node=a" in hdr.get("location", ""),
          f"a join on b is sent to a: {st} {hdr.get('location')} {r}")
    loc = hdr.get("location", "")
    st, r, _ = http_call(cl.port, "POST", loc, {}, cookie=cookie)
    check(st == 200 and r.get("seat") is not None, f"the join through HAProxy to a: {st} {r}")

    def seat_taken_on_b():
        st, r = http_json(B, "GET", "/api/games")
        e = [x for x in r.get("games", []) if x["id"] == gid2] if st == 200 else []
        return e and any(s.get("claimed") for s in e[0]["seats"])
    wait_for(seat_taken_on_b, 15, "b's listing shows the seat taken on a")

    # ---- accounts: made on a, used on b ----
    st, r, hdr = http_call(A, "POST", "/api/signup", {"name": "dora", "password": "pass dora"})
    check(st in (200, 201), f"sign-up on a: {st} {r}")
    st, r, hdr = http_call(B, "POST", "/api/login", {"name": "dora", "password": "pass dora"})
    check(st == 200, f"the account made on a logs in on b: {st} {r}")

    # ---- a WebSocket join on the wrong node is told where to go ----
    w, m = join_at(B, gid2, cookie)
    check(m["type"] == "moved" and m["node"] == "a" and m["game"] == gid2,
          f"b sends the client to a: {m}")
    w.close()
    w, m = join_at(cl.port, gid2, cookie, node="a")
    check(m["type"] == "state", f"with node=a HAProxy reaches a and the seat plays: {m}")
    w.close()

finish("cluster_basic: health, one node per game, created on a and joined through b")
