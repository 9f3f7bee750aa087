"""server_bids.py: two people who send their sealed bids at the same moment
both have them taken (over real sockets). Both bids name the decision each
person's page showed; the first one in moves the game on, and the second,
made for the decision before, still counts: every decision since was another
player's sealed bid, which the bidder cannot see (src/server/game/play.c,
same_bid_round). A move for an older decision of anything else is still
refused as late.

usage: python3 server_bids.py BINARY SRCDIR WORKDIR
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import Server, check, finish, http_json, test_args  # noqa: E402

BIN, SRC, WORK = test_args()

# tests/positions/ba-event-verlappen.pos, as far as its position goes
POS = open(os.path.join(SRC, "tests", "positions", "ba-event-verlappen.pos")).read().split("\n# Player 1")[0]

srv = Server(BIN, os.path.join(WORK, "bids.db")).start()
try:
    st, g = http_json(srv.port, "POST", "/api/games", {"position": POS, "seats": [
        {"kind": "human"}, {"kind": "human"}, {"kind": "human"}]})
    check(st == 201, f"a game of three people from the Verlappen position: {st} {g}")
    gid = g["id"]
    ws = []
    for k in range(3):
        c = srv.ws()
        c.send({"type": "join", "game": gid, "token": g["seats"][k]["token"]})
        ws.append(c)
    m = [c.recv_until(lambda f: f["type"] == "state" and f["status"] == "playing") for c in ws]
    a = ws[0]
    for mv in ("play Jordaan A1", "action event", "event Verlappen"):
        dec = a.recv_until(lambda f: f["type"] == "state" and f.get("legal")
                           and any(x.startswith(mv.split()[0]) for x in f["legal"]))["decision"]
        a.send({"type": "move", "move": mv, "decision": dec})
    # every seat bids now; seats 2 and 3 both send theirs for the same decision
    f2 = ws[1].recv_until(lambda f: f["type"] == "state" and any("bid" in x for x in f.get("legal", [])))
    f3 = ws[2].recv_until(lambda f: f["type"] == "state" and f["decision"] == f2["decision"]
                          and any("bid" in x for x in f.get("legal", [])))
    d = f2["decision"]
    ws[1].send({"type": "move", "move": "bid f60", "decision": d})
    ws[1].recv_until(lambda f: f["type"] == "state" and f["decision"] == d + 1)
    ws[2].send({"type": "move", "move": "bid f10", "decision": d})  # made for d, the game is at d + 1
    got = ws[2].recv_until(lambda f: f["type"] == "error" or (f["type"] == "state" and f["decision"] == d + 2))
    check(got["type"] == "state", f"the second bid, made for decision {d}, is taken at {d + 1}: {got}")
    # a bid made for a decision before the round's first bid is still late
    ws[0].send({"type": "move", "move": "bid f40", "decision": d - 1})
    late = ws[0].recv_until(lambda f: f["type"] == "error" or (f["type"] == "state" and f["decision"] == d + 3))
    check(late["type"] == "error" and "decision" in late.get("message", late.get("error", "")),
          f"a bid made before the round began is refused as late: {late}")
    ws[0].send({"type": "move", "move": "bid f40", "decision": d + 2})
    end = ws[0].recv_until(lambda f: f["type"] == "state" and f["decision"] == d + 3)
    check(srv.alive(), "the server runs on")
    for c in ws:
        c.close()
finally:
    srv.stop()
finish("sealed bids sent at the same moment are both taken; a move of an older round is late")
