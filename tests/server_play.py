"""server_play.py: complete games of both editions through the server's
protocol over real sockets (docs/protocol.md). Human seats are played by test
clients choosing random legal moves from "legal" (ranges expanded), beside
server bots and a spectator. Afterwards every frame each client received is
checked against the full game rebuilt with the command line: the view in a
frame must be exactly `chartered view` of that seat at that decision
(nothing hidden leaks), log entries of hidden moves must be masked for the
seats that may not see them, and the replay API must give the same game.

usage: python3 server_play.py BINARY SRCDIR WORKDIR
"""
import json
import os
import random
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import Server, http_json, pick_move, check, finish, test_args  # noqa: E402

BIN, SRC, WORK = test_args()


def play_game(srv, req, seed):
    rng = random.Random(seed)
    st, created = http_json(srv.port, "POST", "/api/games", req)
    assert st == 201, (st, created)
    gid = created["id"]
    humans = [s for s in created["seats"] if s["kind"] == "human"]
    clients = {}
    for s in humans:
        c = srv.ws()
        c.send({"type": "join", "game": gid, "token": s["token"], "lang": "en"})
        clients[s["seat"]] = c
    spect = srv.ws()
    spect.send({"type": "watch", "game": gid})
    # play until every client has seen the game over
    latest = {}
    done = set()
    import selectors
    sel = selectors.DefaultSelector()
    for seat, c in clients.items():
        sel.register(c.sock, selectors.EVENT_READ, seat)
    moves_sent = 0
    last_move = {}
    while len(done) < len(clients):
        ready = sel.select(timeout=60)
        check(ready, f"game {gid}: no frame for 60 s")
        if not ready:
            break
        for key, _ in ready:
            seat = key.data
            c = clients[seat]
            while True:
                m = c.recv(timeout=30)
                if m["type"] == "error":
                    # a stale move can happen when a bot moved first; anything
                    # else is a bug in the server or this client
                    # a move sent from a frame that was already old when the game ended
                    # is answered "the game is over" (the server checks the end first)
                    check(m["code"] in ("stale", "rate_limited") or
                          (m["code"] == "not_your_turn" and "over" in m.get("message", "")), f"seat {seat}: unexpected error {m}")
                    if m["code"] == "rate_limited" and seat in last_move:
                        time.sleep(0.1)  # throttled: send the move again later
                        c.send(last_move[seat])
                elif m["type"] == "state":
                    latest[seat] = m
                    if m["status"] == "over":
                        done.add(seat)
                    elif m["legal"]:
                        mv = pick_move(m["legal"], rng)
                        last_move[seat] = {"type": "move", "move": mv, "decision": m["decision"]}
                        c.send(last_move[seat])
                        moves_sent += 1
                if not c.buf:
                    break
    final = latest[next(iter(clients))]
    # the spectator saw the end too
    spect.recv_until(lambda m: m.get("status") == "over", timeout=30)
    for c in clients.values():
        c.close()
    spect.close()
    return gid, created, clients, spect, final, moves_sent


def cli(*args):
    r = subprocess.run([BIN] + list(args), capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(" ".join(args) + ": " + r.stderr)
    return r.stdout


def verify(gid, req, created, clients, spect, final):
    st, rep = http_json(srv.port, "GET", f"/api/games/{gid}/replay")
    check(st == 200, f"replay of {gid}: {st} {rep}")
    moves = rep["moves"]
    check(rep["steps"] == final["decision"], "replay has every move")
    check(final["result"]["scores"] == rep["result"]["scores"], "same result in replay")
    # rebuild with the CLI: new + apply, and take each seat's view at each
    # decision a frame was received for
    setup = ["new", "--players", str(req["players"]), "--seed", str(req["seed"])]
    if req.get("edition") == "golden-age":
        setup += ["--edition", "golden-age"]
        if "events" in req:
            setup += ["--events", "on" if req["events"] else "off"]
        if "preset" in req:
            setup += ["--preset", req["preset"]]
    if "arrangement" in req:
        setup += ["--arrangement", req["arrangement"]]
    gf = os.path.join(WORK, gid + ".json")
    cli(*setup, "-o", gf)
    wanted = {}  # decision -> set of viewers (seat, -1 spectator)
    observers = list(clients.items()) + [(-1, spect)]
    for seat, c in observers:
        for m in c.frames:
            if m["type"] == "state":
                wanted.setdefault(m["decision"], set()).add(seat)
    views = {}
    sealed = set()
    for k in range(len(moves) + 1):
        if k in wanted:
            for seat in wanted[k]:
                out = cli("view", gf, "--player", str(seat + 1), "--json")
                views[(k, seat)] = json.loads(out)
        if k < len(moves):
            mv = moves[k]
            if mv["move"].startswith("bid "):
                full_state = json.loads(cli("show", gf, "--json"))
                ev = full_state["event"]
                if full_state["turn"]["phase"] == "bid" and \
                        set(ev["bids_in"]) | {mv["player"]} != set(ev["bidders"]):
                    sealed.add(k)  # a sealed bid that does not end its round
            cli("apply", gf, "--player", str(mv["player"] + 1), mv["move"])
    # 1. every view is exactly the library's view of that seat
    nframes = 0
    for seat, c in observers:
        for m in c.frames:
            if m["type"] != "state":
                continue
            nframes += 1
            check(m["view"] == views[(m["decision"], seat)],
                  f"game {gid} seat {seat} decision {m['decision']}: view differs from "
                  f"`chartered view`")
            check(m["seat"] == seat, "frame names the connection's seat")
            if seat < 0:
                check(m["legal"] == [], "a spectator has no legal moves")
    # 2. log entries: what each seat may see of every move
    state_json = json.loads(cli("show", gf, "--json"))
    COMPANIES = {c["name"] for c in state_json["companies"]} if isinstance(
        state_json.get("companies"), list) else set(state_json.get("companies", {}).keys())

    def offer_to(n):
        # the player an offer is made to: the latest "offer N" move before n
        for k in range(n, -1, -1):
            if moves[k]["move"].startswith("offer "):
                return int(moves[k]["move"].split(" ")[1].lstrip("Pp")) - 1
        return -2
    ga = req.get("edition") == "golden-age"
    hidden_seen = 0
    for seat, c in observers:
        for m in c.frames:
            if m["type"] != "state":
                continue
            for e in m["log"] + ([m["last"]] if m.get("last") else []):
                full = moves[e["n"]]["move"]
                verb = full.split(" ")[0]
                check(e["player"] == moves[e["n"]]["player"], "log entry names its player")
                if e["player"] == seat:
                    check(e["move"] == full, f"seat {seat} sees its own move {full} in full")
                    continue
                masked = e["move"] != full
                if masked:
                    hidden_seen += 1
                    check(e.get("hidden") is True, f"masked entry {e} is marked hidden")
                    secret = full.split(" ", 1)[1] if " " in full else None
                    if secret:  # the amount, the company, the card
                        check(secret not in e["move"] and secret not in e["text"],
                              f"masked entry {e} shows the secret of {full}")
                    ok = (e["move"] == verb and verb in ("bid", "pick", "buy", "sell", "lose")) \
                        or e["move"] in ("give card", "ask card", "give stock", "ask stock")
                    check(ok, f"entry {e} is masked in an unknown way ({full})")
                # what must never be seen by another seat or a spectator
                if verb == "pick" or (ga and verb in ("buy", "sell", "lose")) or \
                        e["n"] in sealed:
                    check(masked, f"seat {seat} sees another's {full}")
                if verb in ("give", "ask") and not full.split(" ", 1)[1].startswith("f"):
                    rest = full.split(" ", 1)[1]
                    is_stock = rest in COMPANIES
                    if not is_stock:  # a card: only the parties see it
                        party = verb == "ask" and seat >= 0 and seat == offer_to(e["n"])
                        check(masked or party, f"seat {seat} sees offer card {full}")
                    elif ga:
                        check(masked or seat == offer_to(e["n"]), f"GA stock offer {full}")
    print(f"game {gid}: {len(moves)} moves, {nframes} frames checked, "
          f"{hidden_seen} masked entries, {len(sealed)} sealed bids", flush=True)


# views built on worker threads (views.c), so that the leak checks cover
# that path too; the other server tests use the default (on the loop)
srv = Server(BIN, os.path.join(WORK, "play.db"), extra=["--view-threads", "2"]).start()
try:
    games = [
        {"edition": "amsterdam", "players": 4, "seed": 11,
         "seats": [{"kind": "human", "name": "Anke"}, {"kind": "human", "name": "Bram"},
                   {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]},
        {"edition": "golden-age", "players": 3, "seed": 12, "events": True,
         "seats": [{"kind": "human", "name": "Cor"}, {"kind": "human", "name": "Dirk"},
                   {"kind": "bot", "bot": "random"}]},
        {"edition": "amsterdam", "players": 3, "seed": 13, "arrangement": "quick-battle",
         "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]},
    ]
    for i, req in enumerate(games):
        gid, created, clients, spect, final, sent = play_game(srv, req, 100 + i)
        check(final["status"] == "over" and "result" in final, "the game ends with a result")
        verify(gid, req, created, clients, spect, final)
    check(srv.alive(), "the server is still running")
finally:
    code = srv.stop()
    check(code == 0, f"the server exits cleanly on SIGTERM (status {code}): {srv.log_text()[-2000:]}")

finish("server_play: all games complete, no hidden information leaked")
