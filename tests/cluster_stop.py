"""cluster_stop.py: a planned stop of a node (SIGTERM) hands its games over at
once (issue 28, "What to build" 6). Before, the node kept its leases, cut
its WebSockets without a close frame, and its games waited for the leases
to run out, as after a crash (4.7 s median with 6 s leases).

Two nodes behind HAProxy, leases of 6 s. A game of two people and a
bot-only game (ISMCTS, through the owner's own port) on one node; SIGTERM to
that node:
- both players get a close frame with code 1001 and a reason;
- the node exits with status 0;
- the players reconnect through HAProxy and a move is accepted on the other
  node within 3 s of the signal, well inside the 6 s lease: the lease was
  handed back, not left to run out;
- the other node owns the bot-only game within 3 s too (claimed at once on
  the stopping node's notice) and its bots move on;
- the stored moves are numbered once each and are the moves shown.

usage: python3 cluster_stop.py BINARY SRCDIR WORKDIR
"""
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import cluster  # noqa: E402
from cluster import play, owner_of, check_stored, wait_for  # noqa: E402
from wsclient import WSClosed, http_json, check, finish  # noqa: E402

BIN, SRC, WORK = cluster.test_setup()
rng = random.Random(28)
LEASE = 6
BOUND = 3.0

with cluster.Cluster(BIN, SRC, WORK, nodes=2, lease=LEASE) as cl:
    print(f"cluster up: storage {cl.store}, HAProxy on {cl.port}", flush=True)
    gid, toks, cookies, game, conns = cluster.two_players(cl, 28)
    own = owner_of(cl, gid, cl.names)
    check(own is not None, "a node owns the game")
    other = [n for n in cl.names if n != own][0]
    check(play(game, conns, 10, rng) == "done", f"10 moves on node {own}")
    st, bg = http_json(cl.node(own).port, "POST", "/api/games", {
        "players": 2, "seats": [{"kind": "bot", "bot": "ismcts", "strength": 3},
                                {"kind": "bot", "bot": "ismcts", "strength": 3}]})
    check(st == 201, f"a bot-only game on node {own}: {st} {bg}")
    bgid = bg["id"]
    wait_for(lambda: owner_of(cl, bgid, [own]), 10, f"node {own} owns the bot-only game")

    t0 = time.time()
    proc = cl.node(own).proc
    proc.terminate()
    closes = []
    for c in conns:
        try:
            while True:
                m = c.recv(timeout=10)
                if m["type"] == "state":
                    game.note(m)
        except (WSClosed, OSError, TimeoutError, ValueError):
            pass
        cr = c.proto.close_rcvd
        closes.append((cr.code, cr.reason) if cr else None)
        c.close()
    for cr in closes:
        check(cr is not None and cr[0] == 1001 and "stopping" in cr[1],
              f"a close frame 1001 with the reason: {cr}")
    print(f"closed {time.time() - t0:.2f} s after SIGTERM", flush=True)
    conns = []
    for i in range(2):
        w, m, _ = cluster.join_via(cl.port, gid, cookies[i], toks[i], timeout=60)
        print(f"seat {i} back {time.time() - t0:.2f} s after SIGTERM; node exit "
              f"{proc.poll()}", flush=True)
        game.note(m)
        conns.append(w)
    before = game.acked
    r = play(game, conns, before + 1, rng)
    wait = time.time() - t0
    check(r in ("done", "over") and game.acked > before, f"a move is accepted after the stop: {r}")
    check(owner_of(cl, gid, [other]) == other, f"node {other} plays the game now")
    check(wait < BOUND, f"the first move on node {other} came {wait:.2f} s after SIGTERM "
          f"(leases of {LEASE} s: handed back, not run out)")
    print(f"planned stop: first move on node {other} {wait:.2f} s after SIGTERM", flush=True)
    took = wait_for(lambda: owner_of(cl, bgid, [other]), 10, f"node {other} takes the bot game")
    t_bot = time.time() - t0
    check(took and t_bot < BOUND + 1, f"the bot-only game was taken {t_bot:.2f} s after SIGTERM")
    try:
        code = proc.wait(timeout=20)
    except Exception:
        code = None
    cl.nodes[own].proc = None
    check(code == 0, f"node {own} exits with status 0: {code}")
    # ISMCTS bots think for a budget of CPU time: on a loaded machine (CI ran
    # this at a load of 27 on 2 cores) a move took more than the 2 s this
    # once waited, so the test waits for the next decision, up to 30 s
    def decision():
        return http_json(cl.port, "GET", f"/api/games/{bgid}")[1].get("decision", 0)
    st1 = decision()
    moved = wait_for(lambda: decision() > st1, 30, f"the bots move on on node {other}")
    check(moved, f"the bots move on on node {other}: decision {st1} -> {decision()}")
    check(play(game, conns, game.acked + 10, rng) in ("done", "over"), "10 more moves")
    for c in conns:
        c.close()
    check_stored(cl, gid, game)

finish("cluster_stop: SIGTERM closed with 1001, handed the leases back, the games went on at once")
