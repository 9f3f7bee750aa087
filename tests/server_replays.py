"""server_replays.py: replays are rebuilt on the event loop, so the server
bounds how many it rebuilds a second (issue 28, low: unbounded, a client
asking in a loop held the loop and every game's frames).

With CHARTERED_REPLAYS_PER_SECOND=2 (bursts of 4), a finished game of two
random bots is asked for its replay 12 times at once: at most 4 answers are
200 (each a whole replay), the others 503 with the reason and retry_after;
1.5 s later a replay is answered again, and other requests were answered
all along.

usage: python3 server_replays.py BINARY SRCDIR WORKDIR
"""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import Server, http_json, check, finish, test_args  # noqa: E402

BIN, SRC, WORK = test_args()
os.environ["CHARTERED_REPLAYS_PER_SECOND"] = "2"
srv = Server(BIN, os.path.join(WORK, "replays.db")).start()
try:
    st, g = http_json(srv.port, "POST", "/api/games", {
        "players": 2, "seed": 3, "seats": [{"kind": "bot", "bot": "random"},
                                           {"kind": "bot", "bot": "random"}]})
    check(st == 201, f"a game of two random bots: {st} {g}")
    end = time.time() + 120
    while time.time() < end:
        st, s = http_json(srv.port, "GET", f"/api/games/{g['id']}")
        if s.get("status") == "over":
            break
        time.sleep(0.3)
    check(s.get("status") == "over", f"the game ends: {s.get('status')}")
    time.sleep(2.5)  # the bucket full again
    answers = [http_json(srv.port, "GET", f"/api/games/{g['id']}/replay") for _ in range(12)]
    ok = [a for st, a in answers if st == 200]
    refused = [(st, a) for st, a in answers if st != 200]
    check(1 <= len(ok) <= 5, f"at most the burst is rebuilt: {len(ok)} of 12")
    check(all(a.get("steps", 0) > 0 and a.get("moves") for a in ok), "each a whole replay")
    check(refused and all(st == 503 and "replays" in a.get("error", "") and
                          a.get("retry_after") == 1 for st, a in refused),
          f"the rest: 503 with the reason and retry_after: {refused[:1]}")
    st, h = http_json(srv.port, "GET", "/api/health")
    check(st == 200, "other requests are answered meanwhile")
    time.sleep(1.5)
    st, a = http_json(srv.port, "GET", f"/api/games/{g['id']}/replay")
    check(st == 200, f"a replay again once the bucket refilled: {st}")
    print(f"{len(ok)} of 12 replays at once rebuilt, {len(refused)} refused with 503", flush=True)
finally:
    code = srv.stop()
    check(code == 0, f"the server exits cleanly (status {code}): {srv.log_text()[-2000:]}")

finish("server_replays: replays rebuilt on the loop are bounded")
