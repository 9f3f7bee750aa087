"""server_accounts.py: what a person does with their account and sessions
(issue 28, "Accounts"), over real sockets against `chartered serve`:
a password change (the current password checked; every other session ends,
its WebSocket too, this one stays); the list of one's sessions (created, last
seen, network, user agent, "this device"), one ended, all ended ("log out
everywhere"); guest names that cannot pass for an account's or a bot's, nor
hold control, direction or invisible characters, and guests marked as such
in seats, state frames and chat; a guest's seats carried into the account it signs
up for (in memory and after a restart); expired sessions deleted.

usage: python3 server_accounts.py BINARY SRCDIR WORKDIR
"""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import (Server, WS, sql_rows, sql_exec, db_dump, http_call, http_json,  # noqa: E402
                      session_cookie, guest, check, finish, test_args)

BIN, SRC, WORK = test_args()


def fresh(name):
    db = os.path.join(WORK, name)
    for f in (db, db + "-wal", db + "-shm"):
        if os.path.exists(f):
            os.remove(f)
    return db


def me(port, cookie):
    return http_json(port, "GET", "/api/me", cookie=cookie)[1]


def login(port, name, password, agent="TestBrowser/1.0", addr=None):
    hd = {"User-Agent": agent}
    if addr:
        hd["X-Forwarded-For"] = addr
    st, r, h = http_call(port, "POST", "/api/login", {"name": name, "password": password},
                         headers=hd)
    return st, session_cookie(h)


db = fresh("accounts.db")
srv = Server(BIN, db, extra=["--trust-proxy"]).start()
try:
    P = srv.port
    # ---- a password change ends every other session, keeps this one ----
    st, r, h = http_call(P, "POST", "/api/signup", {"name": "dora", "password": "first secret"},
                         headers={"User-Agent": "Laptop/1", "X-Forwarded-For": "203.0.113.9"})
    check(st == 201, f"sign-up dora: {st} {r}")
    d1 = session_cookie(h)
    st, d2 = login(P, "dora", "first secret", agent="Phone/2", addr="198.51.100.77")
    st3, d3 = login(P, "dora", "first secret", agent="Tablet/3")
    check(st == 200 and st3 == 200, "dora has three sessions")

    # the list of one's sessions
    st, r = http_json(P, "GET", "/api/sessions", cookie=d1)
    check(st == 200 and len(r.get("sessions", [])) == 3, f"three sessions listed: {st} {r}")
    ss = r["sessions"]
    check([s["current"] for s in ss].count(True) == 1 and
          next(s for s in ss if s["current"])["agent"] == "Laptop/1",
          f"exactly this one is marked as this device: {ss}")
    phone = next((s for s in ss if s["agent"] == "Phone/2"), {})
    check(phone.get("address") == "198.51.100.0/24",
          f"the network, not the address, is kept: {phone}")
    check(all(s["last_seen"] >= s["created"] > 0 and len(s["id"]) == 16 for s in ss),
          f"created, last seen and an id: {ss}")
    text = repr(r)
    for c in (d1, d2, d3):
        check(c.split("=", 1)[1] not in text, "no session token in the list")
    st, r = http_json(P, "GET", "/api/sessions")
    check(st == 401, f"no session, no list: {st} {r}")

    # a WebSocket of the phone plays a seat until the password changes
    st, g = http_json(P, "POST", "/api/games", {"players": 2, "seat": 0}, cookie=d2)
    check(st == 201, f"dora creates a game on her phone: {st} {g}")
    w = WS("127.0.0.1", P, cookie=d2)
    w.send({"type": "join", "game": g["id"]})
    m = w.recv_until(lambda m: m["type"] in ("error", "state"))
    check(m["type"] == "state" and m["seat"] == 0, f"the phone plays seat 0: {m.get('type')}")

    for body, code, what in [({"password": "wrong secret", "new_password": "second secret"}, 401,
                              "a wrong current password"),
                             ({"password": "first secret", "new_password": "short"}, 400,
                              "a short new password"),
                             ({"password": "first secret", "new_password": "DORA"}, 400,
                              "the user name as password"),
                             ({"new_password": "second secret"}, 400, "no current password")]:
        st, r = http_json(P, "POST", "/api/password", body, cookie=d1)
        check(st == code and r.get("error"), f"refused: {what}: {st} {r}")
    check(me(P, d2).get("name") == "dora", "a refused change ends nothing")
    st, r = http_json(P, "POST", "/api/password",
                      {"password": "first secret", "new_password": "second secret"})
    check(st == 401, f"a change needs a session: {st} {r}")
    cato = guest(P, "Cato")
    st, r = http_json(P, "POST", "/api/password",
                      {"password": "first secret", "new_password": "second secret"}, cookie=cato)
    check(st == 403, f"a guest has no password to change: {st} {r}")

    st, r = http_json(P, "POST", "/api/password",
                      {"password": "first secret", "new_password": "second secret"}, cookie=d1)
    check(st == 200 and r.get("ended") == 2, f"the password is changed, two sessions end: {st} {r}")
    check(me(P, d1).get("name") == "dora", "this session stays")
    check(me(P, d2) == {"kind": "none"} and me(P, d3) == {"kind": "none"},
          "every other session has ended")
    m = w.recv_until(lambda m: m["type"] == "error")
    check(m["code"] == "no_session", f"the phone's WebSocket is told and plays no more: {m}")
    w.close()
    check(login(P, "dora", "first secret")[0] == 401, "the old password opens nothing")
    st, d4 = login(P, "dora", "second secret", agent="Phone/2")
    check(st == 200, "the new password logs in")

    # ---- one session ended, then all ("log out everywhere") ----
    st, r = http_json(P, "GET", "/api/sessions", cookie=d1)
    other = next(s for s in r["sessions"] if not s["current"])
    st, r = http_json(P, "POST", "/api/sessions/end", {"id": other["id"]}, cookie=d1)
    check(st == 200 and r == {"ended": 1, "this_one": False}, f"one session ended: {st} {r}")
    check(me(P, d4) == {"kind": "none"} and me(P, d1).get("name") == "dora",
          "that one is gone, this one stays")
    st, r = http_json(P, "POST", "/api/sessions/end", {"id": other["id"]}, cookie=d1)
    check(st == 404, f"an ended session cannot be ended twice: {st} {r}")
    # someone else's session is not ours to end
    st, r, h = http_call(P, "POST", "/api/signup", {"name": "emil", "password": "emil's secret"})
    emil = session_cookie(h)
    st, r = http_json(P, "GET", "/api/sessions", cookie=emil)
    emil_id = r["sessions"][0]["id"]
    st, r = http_json(P, "POST", "/api/sessions/end", {"id": emil_id}, cookie=d1)
    check(st == 404 and me(P, emil).get("name") == "emil",
          f"another account's session is not ended: {st} {r}")
    st, r = http_json(P, "POST", "/api/sessions/end", {"id": emil_id}, cookie=cato)
    check(st == 404 and me(P, emil).get("name") == "emil", "nor by a guest")
    for body in ({}, {"all": True, "id": "x"}, {"id": 7}):
        st, r = http_json(P, "POST", "/api/sessions/end", body, cookie=d1)
        check(st == 400, f"a bad request is refused: {body}: {st} {r}")
    st, d5 = login(P, "dora", "second secret")
    st, r, h = http_call(P, "POST", "/api/sessions/end", {"all": True}, cookie=d1)
    check(st == 200 and r == {"ended": 2, "this_one": True} and
          "max-age=0" in h.get("set-cookie", "").lower().replace(" ", ""),
          f"log out everywhere: {st} {r} {h.get('set-cookie')}")
    check(me(P, d1) == {"kind": "none"} and me(P, d5) == {"kind": "none"},
          "every session of the account is gone")
    check(me(P, emil).get("name") == "emil", "another account's session lives on")

    # ---- guest names that cannot pass for an account or a bot ----
    http_call(P, "POST", "/api/signup", {"name": "alice", "password": "alice's secret"})
    refused = ["alice", "ALICE", "Alice", "a1ice", "al1ce", "\u0430lice", "\uff41lice",
               "a_lice", "a-l-i-c-e", "Greedy 2", "greedy", "ISMCTS 3", "Random", "Random #1",
               "GreedyBot", "my bot", "Robot", "\u202eecila", "al\u200bice", "x\u2066y",
               "Bob\u00adby", "\ufeffBob", "Bob\u200d", "B\u0007ob", " Bob", "Bob ", "Bo  b",
               "Bob\u00a0", "Bo\ue000b", "\U000e0041Bob"]
    for name in refused:
        st, r = http_json(P, "POST", "/api/guest", {"name": name})
        check(st in (400, 409) and r.get("error"), f"the guest name {name!r} is refused: {st} {r}")
    st, r = http_json(P, "POST", "/api/guest", {"name": "al\u200bice"})
    check("invisible" in r.get("error", ""), f"the error says why: {r}")
    st, r = http_json(P, "POST", "/api/guest", {"name": "alice"})
    check(st == 409 and "account" in r.get("error", ""), f"an account's name: {st} {r}")
    for name in ["Zo\u00eb", "\u7530\u4e2d", "Talbot", "Al", "Grete", "Bram 2"]:
        st, r = http_json(P, "POST", "/api/guest", {"name": name})
        check(st == 201 and r.get("name") == name, f"the guest name {name!r} is taken: {st} {r}")
    st, r = http_json(P, "POST", "/api/signup", {"name": "a1ice", "password": "another one"})
    check(st == 409, f"nor may a new account look like alice: {st} {r}")

    # guests are marked as guests, in seats and state frames
    st, r, h = http_call(P, "POST", "/api/signup", {"name": "finn", "password": "finn's secret"})
    finn = session_cookie(h)
    greta = guest(P, "Greta")
    st, g = http_json(P, "POST", "/api/games", {"players": 2, "seat": 0,
                                                 "seats": [{"kind": "human"},
                                                           {"kind": "human",
                                                            "access": "open"}]}, cookie=greta)
    st, r = http_json(P, "POST", f"/api/games/{g['id']}/join", {"seat": 1}, cookie=finn)
    check(st in (200, 201), f"finn takes seat 1: {st} {r}")
    st, s = http_json(P, "GET", f"/api/games/{g['id']}")
    check(s["seats"][0].get("guest") is True and "guest" not in s["seats"][1],
          f"the guest's seat is marked, the account's not: {s['seats']}")
    wg = WS("127.0.0.1", P, cookie=greta)
    wg.send({"type": "join", "game": g["id"]})
    m = wg.recv_until(lambda m: m["type"] in ("error", "state"))
    check(m["type"] == "state" and m["seats"][0].get("guest") is True and
          "guest" not in m["seats"][1], f"and in the state frame: {m.get('seats')}")
    wf = WS("127.0.0.1", P, cookie=finn)
    wf.send({"type": "join", "game": g["id"]})
    wf.recv_until(lambda m: m["type"] in ("error", "state"))
    wg.send({"type": "chat", "text": "hello from Greta"})
    wf.send({"type": "chat", "text": "hello from finn"})
    said = {}
    while len(said) < 2:
        m = wg.recv_until(lambda m: m["type"] == "chat")
        for x in m["messages"]:
            said[x["text"]] = x
    check(said["hello from Greta"].get("guest") is True and "guest" not in said["hello from finn"],
          f"a guest's chat message is marked, an account's not: {said}")
    wf.close()

    # ---- a guest's seats become the account it signs up for ----
    st, r, h = http_call(P, "POST", "/api/signup", {"name": "greta", "password": "greta's secret"},
                         cookie=greta)
    check(st == 201 and r.get("name") == "greta", f"greta signs up from her guest session: {st} {r}")
    greta_acc = session_cookie(h)
    check(me(P, greta) == {"kind": "none"}, "the guest session has ended")
    st, s = http_json(P, "GET", f"/api/games/{g['id']}")
    check(s["seats"][0]["name"] == "greta" and "guest" not in s["seats"][0],
          f"seat 0 is the account's now: {s['seats'][0]}")
    st, mg = http_json(P, "GET", "/api/my-games", cookie=greta_acc)
    check(st == 200 and [x["id"] for x in mg["games"]] == [g["id"]],
          f"the game is in the account's games: {mg}")
    # her open connection plays on as the account
    m = wg.recv_until(lambda m: m["type"] == "state" and
                      m["seats"][0].get("name") == "greta", timeout=10)
    check("guest" not in m["seats"][0], f"the frame shows the account: {m['seats'][0]}")
    wg.close()
    wa = WS("127.0.0.1", P, cookie=greta_acc)
    wa.send({"type": "join", "game": g["id"]})
    m = wa.recv_until(lambda m: m["type"] in ("error", "state"))
    check(m["type"] == "state" and m["seat"] == 0, f"the account plays seat 0: {m}")
    wa.close()
    # signing up without a guest session carries nothing
    st, r = http_json(P, "POST", "/api/signup", {"name": "hugo", "password": "hugo's secret"},
                      cookie=finn)
    st, s = http_json(P, "GET", f"/api/games/{g['id']}")
    check(s["seats"][1]["name"] == "finn", f"an account's seats stay its own: {s['seats'][1]}")
    time.sleep(0.5)  # the seats' write goes with the next commit
finally:
    srv.stop()

# ---- after a restart: the carried seat, and expired sessions deleted ----
((gid_count,),) = sql_rows(db, "SELECT count(*) FROM game_players p JOIN accounts a ON "
                               "a.id = p.user_id WHERE a.name_key = 'greta'")
check(int(gid_count) == 1, f"the carried game is the account's in the database: {gid_count}")
st_rows = sql_rows(db, "SELECT seats FROM games")
check(not any('"g:' in r[0] and "greta" in r[0].lower() and '"name":"Greta"' in r[0]
              for r in st_rows), "no stored seat is still the guest Greta's")
((before,),) = sql_rows(db, "SELECT count(*) FROM sessions")
sql_exec(db, "UPDATE sessions SET created = created - 31 * 86400 WHERE user_id = "
             "(SELECT id FROM accounts WHERE name_key = 'emil')")
os.environ["CHARTERED_EVICT_SECONDS"] = "1"  # an idle turn-based game leaves memory
srv = Server(BIN, db, extra=["--trust-proxy"]).start()
try:
    P = srv.port
    check(me(P, emil) == {"kind": "none"}, "an expired session opens nothing")
    left = None
    for _ in range(50):
        ((left,),) = sql_rows(db, "SELECT count(*) FROM sessions WHERE user_id = "
                                  "(SELECT id FROM accounts WHERE name_key = 'emil')")
        if int(left) == 0:
            break
        time.sleep(0.1)
    check(int(left) == 0, f"the expired session's row is deleted: {left} left")
    ((after,),) = sql_rows(db, "SELECT count(*) FROM sessions")
    check(int(after) == int(before) - 1, f"and only that one: {before} -> {after}")
    wa = WS("127.0.0.1", P, cookie=greta_acc)
    wa.send({"type": "join", "game": g["id"]})
    m = wa.recv_until(lambda m: m["type"] in ("error", "state"))
    check(m["type"] == "state" and m["seat"] == 0, f"after a restart the account plays seat 0: "
          f"{m.get('type')} {m.get('code')}")
    wa.close()

    # a guest's game that is only in the database is carried too
    ivo = guest(P, "Ivo")
    st, tg = http_json(P, "POST", "/api/games", {"players": 2, "seat": 0, "mode": "turn-based",
                                                  "days": 1, "seats": [{"kind": "human"},
                                                                       {"kind": "bot",
                                                                        "bot": "random"}]},
                       cookie=ivo)
    check(st == 201, f"Ivo, a guest, starts a turn-based game: {st} {tg}")
    evicted = 0
    for _ in range(100):
        evicted = http_json(P, "GET", "/api/health")[1].get("games_evicted", 0)
        if evicted:
            break
        time.sleep(0.1)
    check(evicted >= 1, f"the game left memory: {evicted}")
    st, r, h = http_call(P, "POST", "/api/signup", {"name": "ivo", "password": "ivo's secret"},
                         cookie=ivo)
    ivo_acc = session_cookie(h)
    check(st == 201, f"Ivo signs up: {st} {r}")
    st, s = http_json(P, "GET", f"/api/games/{tg['id']}")
    check(s["seats"][0]["name"] == "ivo" and "guest" not in s["seats"][0],
          f"the stored seat is the account's: {s['seats'][0]}")
    st, mg = http_json(P, "GET", "/api/my-games", cookie=ivo_acc)
    check(tg["id"] in [x["id"] for x in mg.get("games", [])], f"and in its games: {mg}")

    # a stolen cookie is no faster way to guess the password: limited per account
    st, r, h = http_call(P, "POST", "/api/signup", {"name": "jan", "password": "jan's secret"})
    jan = session_cookie(h)
    codes = [http_json(P, "POST", "/api/password", {"password": f"guess {i}",
                                                     "new_password": "whatever it is"},
                       cookie=jan)[0] for i in range(11)]
    check(codes == [401] * 10 + [429], f"10 password changes per account, then 429: {codes}")
    st, r = http_json(P, "POST", "/api/password", {"password": "jan's secret",
                                                   "new_password": "whatever it is"}, cookie=jan)
    check(st == 429, f"even with the right password: {st} {r}")
finally:
    srv.stop()
    del os.environ["CHARTERED_EVICT_SECONDS"]
raw = db_dump(db)
for secret in ("second secret", "greta's secret", greta_acc.split("=", 1)[1]):
    check(secret.encode() not in raw, "no password or token in the database in clear")
finish("server_accounts: password change, sessions, guest names, carried seats, expiry hold")
