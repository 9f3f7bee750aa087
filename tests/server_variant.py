"""server_variant.py: games set up from a variant file (docs/variants.md;
docs/protocol.md POST /api/games "variant"; issue 36 item 1), over real
sockets: POST /api/games with a variant's text creates a game with the
variant's settings (each seat's money, hands, open cards, supply, players,
arrangement), unrated; it survives a restart (the setup keeps the variant's
text); a bad variant is refused with "variant:LINE: reason" and creates
nothing; a request that contradicts the variant, a variant naming an
arrangement file, or a variant with a position is refused with the reason.

usage: python3 server_variant.py BINARY SRCDIR WORKDIR
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import Server, http_json, check, finish, test_args  # noqa: E402

BIN, SRC, WORK = test_args()

VARIANT = """# a test variant: every setting the server can honour
variant server test
edition amsterdam
players 3
arrangement crossroads
events off
cash f500
cash 2 +f100
hand 6
open 4
warehouses 30
"""
BOTS = [{"kind": "human", "name": "Anke"}, {"kind": "bot", "bot": "greedy"},
        {"kind": "bot", "bot": "greedy"}]


COOKIES = {}


def state_of(gid, token):
    """The state frame seat 1 is sent (its session kept: the seat is bound
    to the first session that joins it)."""
    c = srv.ws(COOKIES.get(token))
    c.send({"type": "join", "game": gid, "token": token})
    m = c.recv_until(lambda m: m["type"] == "state" and m["status"] == "playing")
    COOKIES[token] = c._cookie
    c.close()
    return m


db = os.path.join(WORK, "variant.db")
srv = Server(BIN, db).start()
try:
    st, g = http_json(srv.port, "POST", "/api/games", {"variant": VARIANT, "seats": BOTS})
    check(st == 201, f"create from a variant: {st} {g}")
    gid = g["id"]
    st, s = http_json(srv.port, "GET", f"/api/games/{gid}")
    check(st == 200 and s["players"] == 3 and s["arrangement"] == "crossroads",
          f"the variant's players and arrangement: {s}")
    m = state_of(gid, g["seats"][0]["token"])
    check(m.get("variant") == "server test" and s.get("variant") == "server test",
          f"the frame and the summary name the variant: {m.get('variant')} {s.get('variant')}")
    view = m["view"]
    game = view["game"]
    check(game["warehouses_total"] == 30 and game["market_size"] == 4 and game["open_events"] == 0,
          f"supply, open cards, no stock events: {game}")
    check(game["total_money"] == 500 + 600 + 500, f"the money given at setup: {game['total_money']}")
    check(len(view["players"][0]["hand"]) <= 6, f"a hand of 6 dealt: {view['players'][0]}")
    # bad variants: refused with the line, nothing created
    for text, want in [
        ("variant x\nhands 7\n", "variant:2: unknown setting 'hands' (did you mean 'hand'?)"),
        ("players 3\n", "variant:1: a variant file starts with 'variant NAME'"),
        ("variant x\nopen 9\n", "variant:2: the number of open cards is 1 to 5"),
        ("variant x\narrangement ./mine.arr\n", "variant:2: the server plays the built-in arrangements"),
        ("variant x\ncash 5 f100\n", "seat 5's money"),
        (7, "variant must be the text of a variant file"),
    ]:
        st, r = http_json(srv.port, "POST", "/api/games", {"variant": text})
        check(st == 400 and want in r.get("error", ""), f"bad variant {text!r}: {st} {r}")
    st, r = http_json(srv.port, "POST", "/api/games", {"variant": VARIANT, "players": 4})
    check(st == 400 and "the variant sets players" in r.get("error", ""), f"players against the variant: {st} {r}")
    st, r = http_json(srv.port, "POST", "/api/games", {"variant": VARIANT, "players": 3,
                                                       "edition": "amsterdam", "seats": BOTS})
    check(st == 201, f"the same players and edition as the variant: {st} {r}")
    st, r = http_json(srv.port, "POST", "/api/games", {"variant": VARIANT, "position": "players 3\n"})
    check(st == 400 and "leave variant out" in r.get("error", ""), f"a variant with a position: {st} {r}")
    ga = "variant g\nedition golden-age\nevents on\nwarehouses 40\n"
    st, r = http_json(srv.port, "POST", "/api/games", {"variant": ga, "players": 2, "seats": BOTS[:2]})
    check(st == 201, f"a Golden Age variant: {st} {r}")
    gm = state_of(r["id"], r["seats"][0]["token"])["view"]["game"]
    check(gm["warehouses_total"] == 40 and gm["events_on"] is True, f"Golden Age supply and events: {gm}")
finally:
    code = srv.stop()
    check(code == 0, f"the server exits cleanly (status {code}): {srv.log_text()[-2000:]}")

# the game comes back after a restart, set up from its stored variant
srv = Server(BIN, db).start()
try:
    m = state_of(gid, g["seats"][0]["token"])
    game = m["view"]["game"]
    check(game["warehouses_total"] == 30 and game["market_size"] == 4 and game["total_money"] == 1600,
          f"after a restart, still the variant's game: {game}")
finally:
    code = srv.stop()
    check(code == 0, f"the server exits cleanly (status {code})")

finish("server_variant: games from a variant: create, refusals, restart")
