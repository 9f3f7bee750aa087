"""server_position.py: games that start from a position (issue 15 part 6,
docs/formats.md "Positions"; docs/protocol.md POST /api/games "position"),
over real sockets: POST /api/games with a position text creates an unrated
practice game with the position's players, board and cards; a seat sees its
hand from the position and can play from it; the game survives a restart
(the setup stores the position); a bad position is refused with
"position:LINE: reason" and creates nothing; a position with its own setup
fields (seed, players) is refused; GET /api/games/ID/position gives a seat
its own copy (the others' hands, the deck, the reserve and the seed hidden)
and anyone else a spectator's copy (no hand), and a copy starts a game.

usage: python3 server_position.py BINARY SRCDIR WORKDIR
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import Server, guest, http_json, check, finish, test_args  # noqa: E402

BIN, SRC, WORK = test_args()

LESSON = """# the rulebook's founding example: B1 and D1 lone, seat 2 holds C1
edition amsterdam
players 3
seed 5
turn 1 player 2 phase turn
warehouse Harbour B1
warehouse Harbour D1
player 2 cash f100
hand 2 Harbour C1, random 4
hand 1 random 5
hand 3 random 5
"""


def full_hands():
    """Every hand of LESSON as dealt (the engine deals a position the same
    from the same seed): {seat: [card names]}, from the CLI's full state."""
    pos = os.path.join(WORK, "lesson.pos")
    with open(pos, "w") as f:
        f.write(LESSON)
    game = os.path.join(WORK, "lesson.json")
    subprocess.run([BIN, "new", "--position", pos, "-o", game], check=True, capture_output=True)
    text = subprocess.run([BIN, "show", game, "--position"], check=True, capture_output=True,
                          text=True).stdout
    hands = {}
    for line in text.splitlines():
        if line.startswith("hand "):
            _, seat, cards = line.split(" ", 2)
            hands[int(seat)] = [x.strip() for x in cards.split(",") if x.strip() != "none"]
    return hands


def named(text, card):
    """Is card named as an item of a card list of the position text?"""
    for line in text.splitlines():
        if line.startswith(("warehouse ", "placeholder ", "build-", "#")):
            continue
        items = [x.strip() for x in line.split(",")]
        if items and " " in items[0]:  # "hand 2 Harbour C1": the key and seat before the card
            items.append(items[0].split(" ", 2)[-1])
            items.append(items[0].split(" ", 1)[-1])
        if card in items:
            return True
    return False


def check_copies(gid, cookie, state):
    """GET /api/games/ID/position: seat 2's copy holds its own hand and no
    other hidden card; a spectator's (no seat, or no session) holds no hand;
    each copy is a position that starts a game."""
    hands = full_hands()
    mine = [c for c in hands[2] if c != "Harbour C1"]  # C1 has been played
    check(len(mine) == 4 and len(hands[1]) == 5 and len(hands[3]) == 5, f"the deal: {hands}")
    st, r = http_json(srv.port, "GET", f"/api/games/{gid}/position", cookie=cookie)
    check(st == 200 and r.get("viewer") == "seat" and r.get("seat") == 1, f"seat 2's copy: {st} {r}")
    text = r["position"]
    for card in mine:
        check(named(text, card), f"seat 2's copy names its own {card}:\n{text}")
    for seat in (1, 3):
        for card in hands[seat]:
            check(not named(text, card), f"seat 2's copy hides seat {seat}'s {card}:\n{text}")
    check("hand 1 random 5" in text and "hand 3 random 5" in text, f"the others' hands as random:\n{text}")
    for hidden in ("\nseed ", "\nrng ", "\nreserve L", "\ndeck Harbour", "\ndeck Jordaan"):
        check(hidden not in text, f"seat 2's copy has no {hidden.strip()!r} line:\n{text}")
    check("\ndeck random" in text and "\nreserve random 4" in text, f"deck and reserve hidden:\n{text}")
    check("company Coal f30" in text and "player 2 cash f130" in text, f"the copy is the game now:\n{text}")
    # a spectator: someone with a session but no seat, and someone without one
    for who, ck in (("a guest without a seat", guest(srv.port)), ("no session", None)):
        st, r = http_json(srv.port, "GET", f"/api/games/{gid}/position", cookie=ck)
        check(st == 200 and r.get("viewer") == "spectator" and "seat" not in r, f"{who}: {st} {r}")
        spec = r["position"]
        for seat in (1, 2, 3):
            for card in hands[seat]:
                if card != "Harbour C1":
                    check(not named(spec, card), f"{who}: the spectator's copy hides seat {seat}'s {card}")
        check("hand 2 random 4" in spec, f"{who}: seat 2's hand as random:\n{spec}")
    st, r = http_json(srv.port, "GET", "/api/games/ffffffffffffffff/position")
    check(st == 404, f"an unknown game's position: {st} {r}")
    # the copy is a position: it starts a game with that board, seat 2's hand kept
    st, g2 = http_json(srv.port, "POST", "/api/games", {"position": text, "seats": [
        {"kind": "bot", "bot": "greedy"}, {"kind": "human"}, {"kind": "bot", "bot": "greedy"}]})
    check(st == 201, f"seat 2's copy starts a game: {st} {g2}")
    c2 = srv.ws()
    c2.send({"type": "join", "game": g2["id"], "token": g2["seats"][1]["token"]})
    m2 = c2.recv_until(lambda m: m["type"] == "state" and m["status"] == "playing")
    check(m2["view"]["players"][1]["cash"] == 130 and sorted(m2["view"]["players"][1]["hand"]) ==
          sorted(state["view"]["players"][1]["hand"]), f"the copy's game: seat 2 as it was: {m2['view']['players'][1]}")
    c2.close()


db = os.path.join(WORK, "position.db")
srv = Server(BIN, db).start()
try:
    seats = [{"kind": "bot", "bot": "greedy"}, {"kind": "human", "name": "Bernadette"},
             {"kind": "bot", "bot": "greedy"}]
    st, g = http_json(srv.port, "POST", "/api/games", {"position": LESSON, "seats": seats})
    check(st == 201, f"create from a position: {st} {g}")
    gid = g["id"]
    st, s = http_json(srv.port, "GET", f"/api/games/{gid}")
    check(st == 200 and s.get("practice") is True, f"a position game is a practice game: {s}")
    c = srv.ws()
    c.send({"type": "join", "game": gid, "token": g["seats"][1]["token"]})
    m = c.recv_until(lambda m: m["type"] == "state" and m["status"] == "playing")
    view = json.dumps(m["view"])
    check("Harbour C1" in json.dumps(m["view"]["players"][1]), "seat 2 holds Harbour C1")
    check("play Harbour C1" in json.dumps(m.get("legal", [])), f"seat 2 may play Harbour C1: {m.get('legal')}")
    check(m["view"]["players"][1]["cash"] == 100, "seat 2 has f100")
    check("Harbour B1" in view and "Harbour D1" in view, "the board has B1 and D1")
    dec = m["decision"]
    c.send({"type": "move", "move": "play Harbour C1", "decision": dec})
    m = c.recv_until(lambda m: m["type"] == "state" and m["decision"] > dec)
    c.send({"type": "move", "move": "found Coal", "decision": m["decision"]})
    m = c.recv_until(lambda m: m["type"] == "state" and m["view"]["players"][1]["cash"] == 130)
    check_copies(gid, c._cookie, m)
    c.close()
    st, s = http_json(srv.port, "GET", f"/api/games/{gid}")
    before = s["decision"]
    # bad positions: refused with the line and the reason, nothing created
    for text, want in [
        ("players 3\nwarehouse Harbor B1\n", "position:2: unknown plot 'Harbor B1' (did you mean 'Harbour B1'?)"),
        ("players 3\nwarehouse Harbour B1\nwarehouse Harbour C1\n", "position:3: lone warehouses"),
        (7, "position must be the text of a position"),
        # issue 28 item 1: this one request ended the server with SIGSEGV
        ("edition golden-age\nplayers 1\n", "position:2: the player count is a whole number from 2 to 6"),
        ("players 6\n", "position:1: Building Amsterdam is for 2 to 5 players, not 6"),
    ]:
        st, r = http_json(srv.port, "POST", "/api/games", {"position": text})
        check(st == 400 and want in r.get("error", ""), f"bad position: {st} {r}")
    st, s = http_json(srv.port, "GET", f"/api/games/{gid}")
    check(st == 200, f"the server still answers after the bad positions: {st} {s}")
    st, r = http_json(srv.port, "POST", "/api/games", {"position": LESSON, "seed": 3})
    check(st == 400 and "seed" in r.get("error", ""), f"a position with a seed: {st} {r}")
    st, r = http_json(srv.port, "POST", "/api/games", {"position": LESSON, "practice": False})
    check(st == 400, f"a position game cannot be rated: {st} {r}")
finally:
    code = srv.stop()
    check(code == 0, f"the server exits cleanly (status {code}): {srv.log_text()[-2000:]}")

# the game comes back after a restart, from its stored position and moves
srv = Server(BIN, db).start()
try:
    st, s = http_json(srv.port, "GET", f"/api/games/{gid}")
    check(st == 200, f"the position game is back after a restart: {st} {s}")
    check(s["decision"] == before and s.get("practice") is True,
          f"... at the same decision ({before}), still a practice game: {s}")
finally:
    code = srv.stop()
    check(code == 0, f"the server exits cleanly (status {code})")

finish("server_position: games from a position: create, play, restart, refusals")
