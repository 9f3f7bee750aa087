"""server_evict.py: finished games leave the memory of `chartered serve` and
come back from the database on demand. The server runs with
CHARTERED_EVICT_SECONDS=1. A game of bots is played to the end while a
spectator watches; it stays in memory while watched, and is dropped about a
second after the spectator leaves (GET /api/health counts the games held and
the evictions); each request for a held game starts that second again. The
checks do not depend on how fast the machine answers: they wait for the
eviction, and count loads against evictions. The finished-games list still shows it (from the database,
without loading it); its summary, its replay and a WebSocket watch load it
back and show the same final result and decision as at the end of play; it
is dropped again afterwards. A game in play is never dropped, even with no
client. After a restart finished games are not loaded at start, yet listed
and served on demand.

usage: python3 server_evict.py BINARY SRCDIR WORKDIR
"""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import Server, http_json, check, finish, test_args  # noqa: E402

BIN, SRC, WORK = test_args()

db = os.path.join(WORK, "evict.db")
for f in (db, db + "-wal", db + "-shm"):
    if os.path.exists(f):
        os.remove(f)
os.environ["CHARTERED_EVICT_SECONDS"] = "1"
srv = Server(BIN, db).start()


def health():
    st, h = http_json(srv.port, "GET", "/api/health")
    check(st == 200 and h.get("ok") is True, f"health: {st} {h}")
    return h


def wait_gone(what, secs=60):
    """Wait until only the game in play is held (the finished game left
    memory); the health answer then."""
    end = time.time() + secs
    while time.time() < end:
        h = health()
        if h["games_in_memory"] == 1:
            return h
        time.sleep(0.2)
    check(False, f"{what}: not evicted within {secs} s ({health()})")
    return health()


def watch_final(gid):
    w = srv.ws()
    w.send({"type": "watch", "game": gid})
    m = w.recv_until(lambda m: m["type"] == "state" and m["status"] == "over", timeout=150)
    return w, m


try:
    st, g = http_json(srv.port, "POST", "/api/games", {
        "edition": "amsterdam", "players": 3, "seed": 41,
        "seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"},
                  {"kind": "bot", "bot": "random"}]})
    check(st == 201, f"create the bot game: {st} {g}")
    done = g["id"]
    st, g = http_json(srv.port, "POST", "/api/games", {
        "edition": "golden-age", "players": 2, "seed": 42,
        "seats": [{"kind": "human"}, {"kind": "human"}]})
    check(st == 201, f"create the human game: {st} {g}")
    live = g["id"]

    w, final = watch_final(done)
    result, decision = final["result"], final["decision"]
    check(decision > 20 and len(result["scores"]) == 3, f"the bot game finished: {decision}")
    h = health()
    check(h["games_in_memory"] == 2 and h["games_evicted"] == 0, f"both games held: {h}")
    time.sleep(2.5)  # watched: stays
    h = health()
    check(h["games_in_memory"] == 2 and h["games_evicted"] == 0,
          f"a watched finished game stays in memory: {h}")
    w.close()

    h = wait_gone("the finished game after its spectator left")
    check(h["games_evicted"] == 1, f"evicted once: {h}")
    st, r = http_json(srv.port, "GET", "/api/games")
    check(st == 200 and [x["id"] for x in r["games"]] == [live], "the game in play is listed")
    st, r = http_json(srv.port, "GET", "/api/games?status=over")
    row = [x for x in r.get("games", []) if x["id"] == done] if st == 200 else []
    check(len(row) == 1 and row[0]["status"] == "over" and row[0]["decision"] == decision
          and len(row[0]["seats"]) == 3 and row[0]["seats"][1]["bot"] == "greedy",
          f"the evicted game is listed from the database: {row}")
    h = health()
    check(h["games_in_memory"] == 1 and h["games_reloaded"] == 0,
          f"listing does not load it: {h}")

    # HTTP: the summary loads it back; the replay shows the final result.
    # Each request for a held game starts its eviction delay (1 s) again, so
    # the three reads load it once when no gap between two of them reached
    # the delay; on a loaded machine a gap may, and then it is evicted and
    # loaded again in between (not an error; each load is then matched by
    # an eviction). The gaps are measured from a request's send to the
    # next one's answer, which bounds when the server looked the game up.
    e0, marks = h["games_evicted"], []
    marks.append(time.time())
    st, summ = http_json(srv.port, "GET", f"/api/games/{done}")
    check(st == 200 and summ["status"] == "over" and summ["decision"] == decision,
          f"summary of the evicted game: {st} {summ}")
    marks.append(time.time())
    st, rep = http_json(srv.port, "GET", f"/api/games/{done}/replay")
    check(st == 200 and rep["steps"] == decision and rep["result"] == result,
          f"replay of the evicted game: {st} {rep.get('steps') if isinstance(rep, dict) else rep}")
    marks.append(time.time())
    st, rep3 = http_json(srv.port, "GET", f"/api/games/{done}/replay?step=3")
    check(st == 200 and rep3["step"] == 3 and rep3["view"]["viewer"] == -1, "replay step 3")
    marks.append(time.time())
    h = health()
    loads = h["games_reloaded"]
    gaps = [marks[i + 2] - marks[i] for i in range(2)]
    check(loads >= 1 and h["games_in_memory"] - 1 == loads - (h["games_evicted"] - e0),
          f"read back, each load held or evicted once: {h}")
    if max(gaps) < 0.9:
        check(loads == 1, f"three reads within the delay load the game once: {h} (gaps {gaps})")
    reads_loads = loads
    h = wait_gone("the game read back for HTTP")
    check(h["games_evicted"] == 1 + loads, f"dropped again: {h}")

    # WebSocket: a spectator of the evicted game sees the end
    w, m = watch_final(done)
    check(m["decision"] == decision and m["result"] == result and m["deciders"] == [],
          f"watch of the evicted game: {m['decision']} {m.get('result')}")
    check(len(m["log"]) > 0 and m["last"]["n"] == decision - 1, "its log is there")
    h = health()
    check(h["games_reloaded"] == loads + 1, f"read back for the watch: {h}")
    w.close()
    h = wait_gone("the game read back for the watch")
    loads = h["games_reloaded"]

    # unknown games are not found, and not counted
    st, r = http_json(srv.port, "GET", "/api/games/0123456789abcdef")
    check(st == 404, f"unknown game: {st}")
    x = srv.ws()
    x.send({"type": "watch", "game": "0123456789abcdef"})
    m = x.recv_until(lambda m: m["type"] == "error", timeout=10)
    check(m["code"] == "no_game", f"unknown game over WebSocket: {m}")
    x.close()
    h = health()
    check(h["games_reloaded"] == loads, f"no reload for unknown ids: {h}")
    # the game in play, with no client for seconds, is still held
    check(h["games_in_memory"] == 1, f"the game in play stays: {h}")

    # restart: finished games are not loaded at start, yet served
    check(srv.stop() == 0, "SIGTERM stops the server")
    srv.start()
    h = health()
    check(h["games_in_memory"] == 1, f"after a restart only the game in play is loaded: {h}")
    st, r = http_json(srv.port, "GET", "/api/games?status=over")
    check(st == 200 and [x["id"] for x in r["games"]] == [done], "listed after the restart")
    w, m = watch_final(done)
    check(m["decision"] == decision and m["result"] == result,
          "the finished game is watched after the restart")
    w.close()
    print(f"game {done}: {decision} moves, evicted and read back {loads} times "
          f"(the three HTTP reads loaded it {reads_loads} time(s))", flush=True)
finally:
    code = srv.stop()
    check(code == 0, f"the server exits cleanly on SIGTERM (status {code}): {srv.log_text()[-2000:]}")

finish("server_evict: finished games leave memory and come back on demand")
