"""cluster_single.py: cluster mode is its own setting (`--cluster on|off|CONN`,
docs/cluster.md "Cluster mode"), not implied by a PostgreSQL --db. On a
private PostgreSQL (tests/support/pgtmp.py), all on loopback:
- a server on a postgresql:// URL without --cluster is a single node: health
  says "cluster": false, no lease table is made, a game is made and played;
- the same database with --cluster on: health says "cluster": true, a join
  takes the game's lease (a lease row names the node), moves go on;
- while that node holds the lease, a single node (no --cluster) on the same
  database is refused with a message naming --cluster on;
- --cluster on with an SQLite --db is refused with a clear message.
Every wait is bounded.

usage: python3 cluster_single.py BINARY SRCDIR WORKDIR
"""
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import pgtmp  # noqa: E402
from cluster import start_logged, wait_for  # noqa: E402
from wsclient import Server, http_json, guest, pick_move, check, finish, test_args  # noqa: E402

BIN, SRC, WORK = test_args()
pgtmp.require()
rng = random.Random(3)


def refused(args):
    r = subprocess.run([BIN, "serve", "--host", "127.0.0.1", "--port", "0", "--quiet"] + args,
                       capture_output=True, text=True, timeout=120)
    return r.returncode, r.stderr


def play_one(srv, gid, tok, cookie):
    """Join seat 0 and make a move when it decides: the decision after it."""
    w = srv.ws(cookie=cookie)
    w.send({"type": "join", "game": gid, "token": tok})
    m = w.recv_until(lambda m: m["type"] == "error" or
                     (m["type"] == "state" and 0 in m["deciders"]), timeout=30)
    if m["type"] == "error":
        w.close()
        return m
    d = m["decision"]
    w.send({"type": "move", "move": pick_move(m["legal"], rng), "decision": d})
    m = w.recv_until(lambda m: m["type"] == "error" or (m["type"] == "state" and m["decision"] > d),
                     timeout=30)
    w.close()
    return m


with pgtmp.PgTmp() as pg:
    url = pg.url
    # ---- a single node on PostgreSQL: no leases ----
    srv = start_logged(Server(BIN, url), os.path.join(WORK, "single.log"))
    st, h = http_json(srv.port, "GET", "/api/health")
    check(st == 200 and h["cluster"] is False, f"no --cluster: a single node: {h}")
    st, g = http_json(srv.port, "POST", "/api/games", {
        "players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]})
    check(st == 201, f"a game on the single node: {st} {g}")
    gid, tok = g["id"], g["seats"][0]["token"]
    cookie = guest(srv.port, "Anke")
    m = play_one(srv, gid, tok, cookie)
    check(m["type"] == "state", f"a move on the single node: {m}")
    check(pg.psql("SELECT to_regclass('chartered_lease') IS NULL").strip() == "t",
          "a single node makes no lease table")
    check(srv.stop() == 0, "the single node stops cleanly")

    # ---- the same database as a cluster node ----
    node = start_logged(Server(BIN, url, extra=["--cluster", "on", "--node", "n1"]),
                        os.path.join(WORK, "n1.log"))
    # the node serves before its lease thread has connected: wait for the link
    h = wait_for(lambda: (lambda r: r[1] if r[0] == 200 and r[1]["database"]["link"] == "ok"
                          else None)(http_json(node.port, "GET", "/api/health")), 60,
                 "the cluster node's lease link")
    check(h and h["cluster"] is True and h["node"] == "n1", f"--cluster on: {h}")
    m = play_one(node, gid, tok, cookie)
    check(m["type"] == "state", f"the game goes on on the cluster node: {m}")
    owners = pg.psql("SELECT owner FROM chartered_lease WHERE game = '%s'" % gid).split()
    check(owners == ["n1"], f"the join took the game's lease: {owners}")

    # ---- a single node may not play a cluster's games ----
    code, err = refused(["--db", url])
    check(code == 1 and "--cluster on" in err,
          f"a single node on a database whose leases are held is refused: {code} {err!r}")
    check(node.stop() == 0, "the cluster node stops cleanly")

# ---- --cluster on needs PostgreSQL ----
code, err = refused(["--db", os.path.join(WORK, "x.db"), "--cluster", "on"])
check(code == 1 and "PostgreSQL" in err, f"--cluster on with SQLite is refused: {code} {err!r}")
finish("cluster_single: cluster mode is its own setting; a single node on PostgreSQL "
       "runs without leases")
