"""turnbased_memory.py: the memory an idle turn-based game costs the server
(issue 14: "0 bytes while it is out of memory"). It starts `chartered serve`
on a fresh database with CHARTERED_EVICT_SECONDS=60, creates N turn-based
games of two seats (a guest's and a greedy bot's; 50 guests hold 50 games
each at most), waits until each waits on its person, and prints the
server's resident memory (VmRSS) and GET /api/health before, with every game
in memory (the growth over N is what a held game costs), and after the idle
games have left memory (games_in_memory 0: the server keeps no record of
them; the process keeps the freed heap, so VmRSS does not fall back); then it
asks for each game once (read back on demand) and prints the same again.

usage: python3 bench/turnbased_memory.py BINARY [N]   (N default 400)
"""
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "support"))
from wsclient import Server, http_json, guest  # noqa: E402

BIN = sys.argv[1]
N = int(sys.argv[2]) if len(sys.argv) > 2 else 400
os.environ["CHARTERED_EVICT_SECONDS"] = "60"
os.environ["CHARTERED_AUTH_LIMITS"] = "10,200,0"
work = tempfile.mkdtemp()
srv = Server(BIN, os.path.join(work, "mem.db")).start()


def rss_kib():
    with open(f"/proc/{srv.proc.pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def health():
    return http_json(srv.port, "GET", "/api/health")[1]


def report(what):
    h = health()
    print(f"{what}: VmRSS {rss_kib()} KiB, games_in_memory {h['games_in_memory']}, "
          f"evicted {h['games_evicted']}, reloaded {h['games_reloaded']}", flush=True)
    return h


try:
    report("start")
    ids = []
    cookie = None
    for i in range(N):
        if i % 50 == 0:
            cookie = guest(srv.port)
        st, g = http_json(srv.port, "POST", "/api/games", {
            "edition": "amsterdam", "players": 2, "mode": "turn-based", "days": 3,
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]}, cookie=cookie)
        assert st == 201, (st, g)
        ids.append(g["id"])
    time.sleep(3)  # the bots' first moves
    report(f"{N} games created")
    end = time.time() + 300
    while time.time() < end and health()["games_in_memory"] > 0:
        time.sleep(0.5)
    report("idle games left memory")
    out = rss_kib()
    for gid in ids:
        st, s = http_json(srv.port, "GET", f"/api/games/{gid}")
        assert st == 200 and s["status"] == "playing", (st, s)
    back = report("each game read back once")
    print(f"memory per game held: about {(rss_kib() - out) * 1024 // max(1, back['games_in_memory'])}"
          f" bytes (VmRSS growth from no game held to {back['games_in_memory']} read back); "
          f"out of memory: 0 bytes (no record of the game is kept)", flush=True)
finally:
    srv.stop()
