"""bot_starve.py: how long a person waits for a greedy bot's reply while other
games of bots only (ISMCTS) run on the same server (issue 28 item 5: 19 such
games took the reply from 6 ms to a median of 18.9 s at 4f76437).

Starts `chartered serve` (the build given) on a fresh SQLite file, creates
GAMES games of two ISMCTS bots (strength STRENGTH) from loopback, then
plays a game of one person against a greedy bot: each of the person's moves
is a random legal one, and the time from sending it to the state frame in
which the person decides again (the bot's replies in between, committed) is
one sample. Prints the samples' median, p99 and maximum, the bot-only games
the server accepted, and the load.

usage: python3 bench/bot_starve.py BINARY [GAMES] [REPLIES] [STRENGTH]
e.g.   python3 bench/bot_starve.py build/chartered 20 200 2
"""
import os
import random
import shutil
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests", "support"))
from wsclient import Server, http_json, pick_move  # noqa: E402


def main():
    binary = sys.argv[1]
    ngames = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    nreplies = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    strength = int(sys.argv[4]) if len(sys.argv) > 4 else 2
    work = tempfile.mkdtemp(prefix="chstarve-", dir="/tmp")
    srv = Server(binary, os.path.join(work, "b.db")).start()
    rng = random.Random(5)
    try:
        made = 0
        refused = None
        for i in range(ngames):
            st, g = http_json(srv.port, "POST", "/api/games", {
                "players": 2, "seed": 1000 + i,
                "seats": [{"kind": "bot", "bot": "ismcts", "strength": strength},
                          {"kind": "bot", "bot": "ismcts", "strength": strength}]})
            if st == 201:
                made += 1
            else:
                refused = (st, g.get("error"))
        print(f"{made} of {ngames} bot-only ISMCTS (strength {strength}) games made"
              f"{'' if refused is None else f'; refused: {refused}'}", flush=True)
        samples = []
        t_end = time.time() + 1800
        while len(samples) < nreplies and time.time() < t_end:
            st, g = http_json(srv.port, "POST", "/api/games", {
                "players": 2, "seed": rng.randrange(1 << 30),
                "seats": [{"kind": "human", "name": "P"}, {"kind": "bot", "bot": "greedy"}]})
            if st != 201:
                print(f"the person's game is refused: {st} {g}")
                return
            w = srv.ws()
            w.send({"type": "join", "game": g["id"], "token": g["seats"][0]["token"]})
            m = w.recv_until(lambda m: m["type"] == "state" and
                             (m["legal"] or m["status"] == "over"), timeout=600)
            while m["status"] != "over" and len(samples) < nreplies and time.time() < t_end:
                d = m["decision"]
                time.sleep(0.06)  # under the server's 20 frames a second (not timed)
                t0 = time.time()
                w.send({"type": "move", "move": pick_move(m["legal"], rng), "decision": d})
                m = w.recv_until(lambda x: x["type"] == "error" or (
                    x["type"] == "state" and x["decision"] > d and
                    (x["legal"] or x["status"] == "over")), timeout=600)
                if m["type"] == "error":
                    print("error:", m)
                    break
                if m["decision"] > d + 1:  # the bot moved in between: a reply
                    samples.append(time.time() - t0)
                if samples and len(samples) % 20 == 0 and m["decision"] > d + 1:
                    print(f"  {len(samples)} replies, last {samples[-1] * 1000:.0f} ms",
                          flush=True)
            w.close()
        samples.sort()
        p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
        print(f"greedy reply over {len(samples)} replies with {made} bot-only games running: "
              f"median {statistics.median(samples) * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, "
              f"max {samples[-1] * 1000:.0f} ms", flush=True)
        st, h = http_json(srv.port, "GET", "/api/health")
        print("load:", open("/proc/loadavg").read().strip(), flush=True)
    finally:
        srv.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
