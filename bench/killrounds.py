"""killrounds.py: how `chartered serve` survives kill -9 (issue 19's figure:
rounds survived, acknowledged moves lost, which must be 0). Bounded: ROUNDS
rounds of a few seconds each.

Each round: the server runs on one database with GAMES games of bots (greedy),
each watched by a spectator; a state frame is the acknowledgement of every
move before it (docs/protocol.md, "Durability"), so the highest decision a
spectator has seen is the number of acknowledged moves of that game. After a
random 0.3-1.5 s the server is killed with SIGKILL and restarted; every game
must then hold at least its acknowledged moves, the same ones (the moves the
spectators saw unmasked). Finished games are replaced by new ones.

usage: python3 bench/killrounds.py BINARY [ROUNDS] [GAMES]
prints: rounds, acknowledged moves checked, moves lost
"""
import os
import random
import sqlite3
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests",
                                "support"))
from wsclient import Server, WSClosed, http_json  # noqa: E402

BIN = sys.argv[1]
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 20
GAMES = int(sys.argv[3]) if len(sys.argv) > 3 else 8
rng = random.Random(19)
work = tempfile.mkdtemp(prefix="killrounds.")
db = os.path.join(work, "kill.db")
srv = Server(BIN, db).start()
seen = {}   # gid -> {n: move} as spectators saw it (unmasked entries)
acked = {}  # gid -> highest decision seen
lost = checked = 0
for rnd in range(ROUNDS):
    live = [g for g in acked if not acked[g] < 0]
    while len(live) < GAMES:
        st, g = http_json(srv.port, "POST", "/api/games", {
            "edition": rng.choice(["amsterdam", "golden-age"]), "players": 3,
            "seats": [{"kind": "bot", "bot": "greedy"}] * 3})
        assert st == 201, (st, g)
        acked[g["id"]], seen[g["id"]] = 0, {}
        live.append(g["id"])
    watchers = []
    for gid in live:
        w = srv.ws()
        w.send({"type": "watch", "game": gid})
        w.gid = gid
        watchers.append(w)
    end = time.time() + rng.uniform(0.3, 1.5)
    while time.time() < end:
        for w in watchers:
            try:
                m = w.recv(timeout=0.01)
            except (TimeoutError, OSError, WSClosed):
                continue
            if m.get("type") != "state":
                continue
            acked[w.gid] = max(acked[w.gid], m["decision"])
            for e in m["log"]:
                if not e.get("hidden"):
                    seen[w.gid][e["n"]] = e["move"]
            if m["status"] == "over":
                acked[w.gid] = -1 - acked[w.gid]  # over: checked, not watched again
    srv.proc.kill()
    srv.proc.wait()
    srv.proc = None
    for w in watchers:
        try:
            w.sock.close()
        except OSError:
            pass
    c = sqlite3.connect(db, timeout=10)
    for gid, a in acked.items():
        n_ack = a if a >= 0 else -1 - a
        rows = dict(c.execute("SELECT n, move FROM moves WHERE game=?", (gid,)).fetchall())
        missing = [n for n in range(n_ack) if n not in rows]
        wrong = [n for n, mv in seen[gid].items() if n < n_ack and rows.get(n) != mv]
        lost += len(missing) + len(wrong)
        checked += n_ack
    c.close()
    srv.start()
distinct = sum(a if a >= 0 else -1 - a for a in acked.values())
print(f"kill -9 rounds survived: {ROUNDS}; games: {len(acked)}; acknowledged moves: {distinct} "
      f"(checked {checked} times over the rounds); acknowledged moves lost: {lost}")
srv.stop()
sys.exit(1 if lost else 0)
