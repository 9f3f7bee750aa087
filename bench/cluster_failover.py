"""cluster_failover.py: how long players wait after kill -9 of the node that
plays their game (issue 17 figures; docs/performance.md "Cluster").

Two nodes over one PostgreSQL behind HAProxy (tests/support/cluster.py).
Each round: a game is made through HAProxy, two players join through it and
play 10 moves; the game's node is killed with SIGKILL; the players reconnect
through HAProxy as the browser does (following "moved"), and the time from
the kill to the first move acknowledged on the other node is measured. The
killed node is started again before the next round. Prints each round and
the median and maximum.

With STOP "term" the node is stopped with SIGTERM instead (a planned stop:
issue 28, the graceful stop hands its leases back), and the time from the
signal to the first move acknowledged on the other node is measured the
same way; the node's exit is waited for after the measure.

usage: python3 bench/cluster_failover.py BUILD_DIR [ROUNDS] [LEASE_SECONDS] [kill|term]
e.g.   python3 bench/cluster_failover.py build 20 6
       python3 bench/cluster_failover.py build 10 6 term
"""
import os
import shutil
import random
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(SRC, "tests", "support"))
import cluster  # noqa: E402
from cluster import Game, play, owner_of  # noqa: E402
from wsclient import WSClosed, http_json, guest, pick_move  # noqa: E402


def main():
    build = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    lease = int(sys.argv[3]) if len(sys.argv) > 3 else 6
    term = len(sys.argv) > 4 and sys.argv[4] == "term"
    how = "SIGTERM" if term else "kill -9"
    rng = random.Random(1)
    work = tempfile.mkdtemp(prefix="chfail-", dir="/tmp")
    waits = []
    with cluster.Cluster(os.path.join(build, "chartered"), SRC, work, nodes=2,
                         lease=lease) as cl:
        print(f"2 nodes, storage {cl.store}, lease {lease} s, {rounds} rounds of {how}",
              flush=True)
        cookies = [guest(cl.port, "Anke"), guest(cl.port, "Bram")]
        for r in range(rounds):
            st, g = http_json(cl.port, "POST", "/api/games", {"players": 2})
            if st != 201:
                print(f"round {r + 1}: no game ({st} {g})")
                continue
            gid, toks = g["id"], [s["token"] for s in g["seats"]]
            game = Game()
            conns = []
            for i in range(2):
                w, m, _ = cluster.join_via(cl.port, gid, cookies[i], toks[i])
                game.note(m)
                conns.append(w)
            play(game, conns, 10, rng)
            own = None
            for _ in range(50):  # a health answer may be slow under load
                own = owner_of(cl, gid)
                if own:
                    break
                time.sleep(0.2)
            if own is None:
                print(f"round {r + 1}: no node owns game {gid}")
                continue
            other = [n for n in cl.names if n != own][0]
            t_kill = time.time()
            proc = cl.node(own).proc
            if term:
                proc.terminate()  # not waited for: the players reconnect meanwhile
            else:
                cl.kill(own)
            for c in conns:
                try:
                    while True:
                        m = c.recv(timeout=0.2)
                        if m["type"] == "state":
                            game.note(m)
                except (WSClosed, OSError, TimeoutError, ValueError):
                    pass
                c.close()
            conns = []
            for i in range(2):
                w, m, _ = cluster.join_via(cl.port, gid, cookies[i], toks[i], timeout=120)
                game.note(m)
                conns.append(w)
            before = game.acked
            play(game, conns, before + 1, rng, timeout=60)
            wait = time.time() - t_kill
            ok = game.acked > before and owner_of(cl, gid, [other]) == other
            waits.append(wait)
            print(f"round {r + 1}: node {own} {how}, first move on node {other} after "
                  f"{wait:.2f} s{'' if ok else ' (NOT CONFIRMED)'}", flush=True)
            for c in conns:
                c.close()
            if term:
                proc.wait(timeout=60)
                cl.nodes[own].proc = None
            cl.start_node(own)
            cl.wait_routed({own})
    if waits:
        print(f"pause over {len(waits)} rounds of {how} (lease {lease} s): median "
              f"{statistics.median(waits):.2f} s, max {max(waits):.2f} s, min {min(waits):.2f} s",
              flush=True)
    print("load:", open("/proc/loadavg").read().strip(), flush=True)
    shutil.rmtree(work, ignore_errors=True)  # logs and haproxy.cfg of the run


if __name__ == "__main__":
    main()
