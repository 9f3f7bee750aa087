"""cluster_idle.py: a turn-based game that nobody visits leaves a cluster
node's memory and gives its lease back (issue 17; docs/cluster.md, "Idle
games"), with two nodes over one PostgreSQL behind HAProxy, all on loopback
(tests/support/cluster.py). The nodes run with CHARTERED_EVICT_SECONDS=1.
- a turn-based game (1 day a move, two people) is made and played a little
  on node a;
- both players leave: node a drops it (its health holds no game, owns none)
  and its lease row is deleted; it stays out through the node's next
  renewals (their lists, sent before the release, do not read it back);
- a player comes back through node b: b takes the lease and loads the game
  at the decision it was left at; the other player comes through HAProxy
  and lands on b; moves go on;
- they leave again: b drops it and gives the lease back; they come back
  through node a, which loads it; moves go on;
- at the end the stored moves are numbered 0..n once each and are exactly
  the moves the players were shown: none lost, none twice.
Then, on a second cluster whose "day" is 2 s (CHARTERED_DAY_SECONDS): a
turn-based game left by its players, out of memory and without a lease, is
woken when its clock runs out by a node that takes its lease, and the
stand-in bot moves for the seat (each move stored once).
Every wait is on an event (a health answer, a frame), bounded in time.

usage: python3 cluster_idle.py BINARY SRCDIR WORKDIR
"""
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import cluster  # noqa: E402
from cluster import Game, check_stored, join_at, play, wait_for  # noqa: E402
from wsclient import http_json, guest, check, finish  # noqa: E402

BIN, SRC, WORK = cluster.test_setup()
rng = random.Random(23)
os.environ["CHARTERED_EVICT_SECONDS"] = "1"


def lease_rows(cl, gid):
    return cl.pg.psql("SELECT owner FROM chartered_lease WHERE game = '%s'" % gid).split()


def leave_and_wait(cl, node, gid, conns):
    for c in conns:
        c.close()
    h = wait_for(lambda: (lambda h: h if h and h["games_in_memory"] == 0 else None)(
        cl.health(node)), 60, f"node {node} drops the idle game")
    check(h is not None and h["games_owned"] == 0 and gid not in h["owned"],
          f"node {node} owns nothing once the game left memory: {h}")
    check(wait_for(lambda: lease_rows(cl, gid) == [], 30, "the lease row goes"),
          f"the lease of the idle game is given back: {lease_rows(cl, gid)}")
    # the node's renewals that were on their way still named the game: they
    # must not read it back (a negative check: watched over two renewals)
    end = time.time() + 2 * cl.lease / 3 + 0.5
    while time.time() < end:
        h = cl.health(node)
        check(h["games_in_memory"] == 0 and h["games_owned"] == 0,
              f"node {node} does not read the idle game back by itself: {h}")
        if failures_seen():
            break
        time.sleep(0.2)
    check(lease_rows(cl, gid) == [], "no node holds the idle game's lease")


def failures_seen():
    import wsclient
    return bool(wsclient.failures)


with cluster.Cluster(BIN, SRC, WORK, nodes=2, lease=3) as cl:
    print(f"cluster up: storage {cl.store}, HAProxy on {cl.port}", flush=True)
    st, g = http_json(cl.node("a").port, "POST", "/api/games",
                      {"players": 2, "seed": 31, "mode": "turn-based", "days": 1})
    check(st == 201, f"a turn-based game made on node a: {st} {g}")
    gid, toks = g["id"], [s["token"] for s in g["seats"]]
    cookies = [guest(cl.port, "Anke"), guest(cl.port, "Bram")]
    game = Game()
    conns = []
    for i in range(2):
        w, m = join_at(cl.node("a").port, gid, cookies[i], toks[i])
        check(m["type"] == "state", f"seat {i} joins on node a: {m}")
        game.note(m)
        conns.append(w)
    check(lease_rows(cl, gid) == ["a"], f"node a holds the lease: {lease_rows(cl, gid)}")
    r = play(game, conns, 8, rng)
    check(r == "done", f"8 moves on node a: {r}")
    leave_and_wait(cl, "a", gid, conns)
    # a move sent just before the players left may have been stored after
    # their last frame: the game comes back at the stored decision
    left_at = len(cl.moves(gid))
    check(left_at >= game.acked, f"every acknowledged move stored: {left_at} < {game.acked}")

    # back through node b: b takes the lease and loads the game
    w0, m = join_at(cl.node("b").port, gid, cookies[0], toks[0])
    check(m["type"] == "state" and m["decision"] == left_at,
          f"node b loads the game at decision {left_at}: {m.get('type')} {m.get('decision')}")
    check(lease_rows(cl, gid) == ["b"], f"node b holds the lease now: {lease_rows(cl, gid)}")
    game.note(m)
    w1, m, hops = cluster.join_via(cl.port, gid, cookies[1], toks[1])
    game.note(m)
    check(cl.health("b")["owned"] == [gid], "the second player lands on node b too")
    r = play(game, [w0, w1], left_at + 8, rng)
    check(r == "done", f"8 more moves on node b: {r}")
    leave_and_wait(cl, "b", gid, [w0, w1])
    left_at = len(cl.moves(gid))
    check(left_at >= game.acked, f"every acknowledged move stored: {left_at} < {game.acked}")

    # and back through node a again
    conns = []
    for i in range(2):
        w, m = join_at(cl.node("a").port, gid, cookies[i], toks[i])
        check(m["type"] == "state" and m["decision"] == left_at,
              f"seat {i}: node a loads the game at decision {left_at}: {m.get('decision')}")
        game.note(m)
        conns.append(w)
    check(lease_rows(cl, gid) == ["a"], f"node a holds the lease again: {lease_rows(cl, gid)}")
    r = play(game, conns, left_at + 8, rng)
    check(r == "done", f"8 more moves on node a: {r}")
    for c in conns:
        c.close()

    moves = check_stored(cl, gid, game)
    print(f"game {gid}: {len(moves)} moves over 3 visits (a, b, a), out of memory and "
          f"without a lease in between", flush=True)

# ---- the clock of a game out of memory runs out: a node wakes it ----
os.environ["CHARTERED_DAY_SECONDS"] = "2"
with cluster.Cluster(BIN, SRC, os.path.join(WORK, "clock"), nodes=2, lease=3) as cl:
    st, g = http_json(cl.node("a").port, "POST", "/api/games",
                      {"players": 2, "seed": 32, "mode": "turn-based", "days": 1})
    check(st == 201, f"a turn-based game made on node a: {st} {g}")
    gid, toks = g["id"], [s["token"] for s in g["seats"]]
    cookies = [guest(cl.port, "Anke"), guest(cl.port, "Bram")]
    conns = []
    for i in range(2):
        w, m = join_at(cl.node("a").port, gid, cookies[i], toks[i])
        check(m["type"] == "state", f"seat {i} joins on node a: {m}")
        conns.append(w)
    for c in conns:
        c.close()
    n0 = len(cl.moves(gid))
    # out of memory after 1 s, its clock (2 s) runs out, a node takes the
    # lease and loads it, and the stand-in plays the seat's decision
    stored = wait_for(lambda: (lambda mv: mv if len(mv) > n0 else None)(cl.moves(gid)), 60,
                      "the stand-in moves once the clock of the idle game ran out")
    if stored:
        check([n for n, _ in stored] == list(range(len(stored))),
              f"its moves are numbered once each: {[n for n, _ in stored]}")
        holders = [n for n in cl.names if gid in (cl.health(n) or {}).get("owned", [])]
        print(f"clock: game {gid} woken with {n0} moves, now {len(stored)}; held by "
              f"{holders or 'nobody (out of memory again)'}", flush=True)
    del os.environ["CHARTERED_DAY_SECONDS"]

finish("cluster_idle: an idle turn-based game leaves the node and its lease; any node "
       "loads it on the next visit")
