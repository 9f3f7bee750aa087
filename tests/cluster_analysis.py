"""cluster_analysis.py: a finished game's analysis on a cluster (issue 33
item 3; docs/protocol.md "Analysis and hints"). Two nodes (--cluster on) on
a private PostgreSQL (tests/support/pgtmp.py), all on loopback, with a small
budget (150 playouts a decision):
- a game of two greedy bots is played to its end on node n1;
- a guest asks n1 for its analysis (202, node n1); node n2 answers a GET
  meanwhile with the progress n1 writes to the shared row (202, node n1),
  then with the result once n1 stored it (200);
- a POST on n2 then answers 200 with the same result and queues nothing:
  n2's health counts no analysis queued, running or done; n1's counts one;
- the same person asking n2 for another game's analysis while theirs runs
  on n1 is refused (429): the per-person share holds across nodes.
Every wait is bounded.

usage: python3 cluster_analysis.py BINARY SRCDIR WORKDIR
"""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import pgtmp  # noqa: E402
from cluster import start_logged, wait_for  # noqa: E402
from wsclient import Server, http_json, guest, check, finish, test_args  # noqa: E402

BIN, SRC, WORK = test_args()
pgtmp.require()
os.environ.update(CHARTERED_ANALYSIS_ITERATIONS="150")

with pgtmp.PgTmp() as pg:
    nodes = {}
    for name in ("n1", "n2"):
        nodes[name] = start_logged(Server(BIN, pg.url, extra=["--cluster", "on", "--node", name,
                                                              "--bot-threads", "1"]),
                                   os.path.join(WORK, name + ".log"))
        wait_for(lambda: (lambda r: r[0] == 200 and r[1]["database"]["link"] == "ok")(
            http_json(nodes[name].port, "GET", "/api/health")), 60, f"{name}'s lease link")
    p1, p2 = nodes["n1"].port, nodes["n2"].port
    try:
        games = []
        for _ in range(2):
            st, g = http_json(p1, "POST", "/api/games", {"players": 2, "seats": [
                {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]})
            check(st == 201, f"a game of two greedy bots on n1: {st} {g}")
            games.append(g["id"])
        for gid in games:
            wait_for(lambda: http_json(p1, "GET", f"/api/games/{gid}")[1].get("status") == "over",
                     90, f"game {gid} ends")
        g1, g2 = games
        ann = guest(p1, "Ann")
        st, r = http_json(p1, "POST", f"/api/games/{g1}/analysis", {}, cookie=ann)
        check(st == 202 and r.get("node") == "n1", f"asked on n1: 202 by n1 ({st} {r})")
        st, r = http_json(p2, "POST", f"/api/games/{g2}/analysis", {}, cookie=ann)
        check(st == 429, f"the same person on n2 meanwhile: 429 ({st} {r})")
        seen = []
        end = time.time() + 90
        while time.time() < end:
            st, r = http_json(p2, "GET", f"/api/games/{g1}/analysis")
            if st == 200:
                break
            check(st == 202 and r.get("node") == "n1", f"n2 reads n1's progress: {st} {r}")
            seen.append(r.get("done", 0))
            time.sleep(0.1)
        check(st == 200 and r.get("status") == "done", f"n2 serves the stored result ({st})")
        check(seen == sorted(seen), f"the progress n2 read never went back: {seen[:3]}..{seen[-3:]}")
        result = r.get("analysis", {})
        check(result.get("node") == "n1" and len(result.get("decisions", [])) > 20,
              f"computed by n1: {result.get('node')}, {len(result.get('decisions', []))} decisions")
        st, r = http_json(p2, "POST", f"/api/games/{g1}/analysis", {}, cookie=guest(p2, "Bob"))
        check(st == 200 and r.get("analysis") == result, f"a POST on n2: 200, the same result ({st})")
        h1 = http_json(p1, "GET", "/api/health")[1].get("analyses", {})
        h2 = http_json(p2, "GET", "/api/health")[1].get("analyses", {})
        check(h1.get("done") == 1 and h2 == {"queued": 0, "running": 0, "done": 0, "cpu": 0.0},
              f"n1 computed it once, n2 nothing: {h1} {h2}")
    finally:
        for name, s in nodes.items():
            code = s.stop()
            check(code == 0, f"{name} stops cleanly ({code})")

finish("cluster_analysis: one node computes, every node serves the stored analysis")
