"""server_auth.py: accounts and sessions of `chartered serve` over real
sockets (issue 14 item 1): sign-up, login, logout, guests, /api/me; the
session cookie's attributes (HttpOnly, SameSite=Lax, Secure only over TLS or
behind a trusted proxy saying https); a wrong password and an unknown user
answered alike; the limits per user name and address, per address, and the
slowdown of a user name tried from many addresses, none of which lets anyone
lock an account's owner out (issue 28: sign-ups with a taken name did); a
database that
holds no session token, no seat token and no password in clear, and
passwords hashed with argon2id at 19 MiB and 2 passes.

usage: python3 server_auth.py BINARY SRCDIR WORKDIR
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import (Server, WS, sql_rows, db_dump, pg_mode, http_call, http_json, session_cookie, guest,  # noqa: E402
                      check, finish, test_args)

BIN, SRC, WORK = test_args()


def fresh(name):
    db = os.path.join(WORK, name)
    for f in (db, db + "-wal", db + "-shm"):
        if os.path.exists(f):
            os.remove(f)
    return db


def attrs(set_cookie):
    return {a.strip().split("=", 1)[0].lower() for a in set_cookie.split(";")[1:]}


db = fresh("auth.db")
srv = Server(BIN, db, extra=["--trust-proxy"]).start()
try:
    P = srv.port
    # ---- sign-up ----
    st, r, h = http_call(P, "POST", "/api/signup", {"name": "anke", "password": "correct horse"})
    check(st == 201 and r == {"kind": "account", "name": "anke"}, f"sign-up: {st} {r}")
    anke = session_cookie(h)
    check(anke is not None and len(anke.split("=", 1)[1]) == 64,
          f"a 256-bit session token in the cookie: {h.get('set-cookie')}")
    a = attrs(h.get("set-cookie", ""))
    check({"httponly", "samesite", "path", "max-age"} <= a and "secure" not in a,
          f"cookie attributes over plain HTTP: {h.get('set-cookie')}")
    check("samesite=lax" in h.get("set-cookie", "").lower().replace(" ", ""), "SameSite=Lax")
    st, me = http_json(P, "GET", "/api/me", cookie=anke)
    check(st == 200 and me == {"kind": "account", "name": "anke"}, f"/api/me: {me}")
    st, me = http_json(P, "GET", "/api/me")
    check(st == 200 and me == {"kind": "none"}, f"/api/me without a cookie: {me}")
    st, me = http_json(P, "GET", "/api/me", cookie="chartered_session=" + "0" * 64)
    check(me == {"kind": "none"}, f"a forged cookie is no session: {me}")
    for body, what in [({"name": "Anke", "password": "another one"}, "a taken name (any case)"),
                       ({"name": "x", "password": "long enough"}, "a one-letter name"),
                       ({"name": "bad name!", "password": "long enough"}, "a name with a space"),
                       ({"name": "bram", "password": "short"}, "a short password"),
                       ({"name": "bram"}, "no password"),
                       ({"name": "bram", "password": 12345678}, "a password that is no text")]:
        st, r = http_json(P, "POST", "/api/signup", body)
        check(st in (400, 409) and r.get("error"), f"sign-up refused: {what}: {st} {r}")
    # behind a proxy that says https the cookie is Secure
    st, r, h = http_call(P, "POST", "/api/signup", {"name": "bram", "password": "battery staple"},
                         headers={"X-Forwarded-Proto": "https"})
    check(st == 201 and "secure" in attrs(h.get("set-cookie", "")),
          f"Secure behind a trusted proxy saying https: {h.get('set-cookie')}")

    # ---- login, wrong password, unknown user ----
    st, r, h = http_call(P, "POST", "/api/login", {"name": "ANKE", "password": "correct horse"})
    check(st == 200 and r["name"] == "anke" and session_cookie(h) not in (None, anke),
          f"login (any case) gives a new session: {st} {r}")
    anke2 = session_cookie(h)
    st, wrong = http_json(P, "POST", "/api/login", {"name": "anke", "password": "wrong horse"})
    st2, unknown = http_json(P, "POST", "/api/login", {"name": "nobody", "password": "whatever1"})
    check(st == 401 and st2 == 401 and wrong == unknown,
          f"a wrong password and an unknown user get the same answer: {wrong} / {unknown}")
    check("user name or password" in wrong.get("error", ""), f"the error says so: {wrong}")

    # ---- logout ends that session only ----
    w = WS("127.0.0.1", P, cookie=anke2)
    st, r, h = http_call(P, "POST", "/api/logout", cookie=anke2)
    check(st == 200 and "max-age=0" in h.get("set-cookie", "").lower().replace(" ", ""),
          f"logout clears the cookie: {st} {h.get('set-cookie')}")
    st, me = http_json(P, "GET", "/api/me", cookie=anke2)
    check(me == {"kind": "none"}, f"the session is gone after logout: {me}")
    st, me = http_json(P, "GET", "/api/me", cookie=anke)
    check(me["kind"] == "account", "the other session of the account lives on")
    st, g = http_json(P, "POST", "/api/games", {"players": 2})
    w.send({"type": "join", "game": g["id"], "token": g["seats"][0]["token"]})
    m = w.recv_until(lambda m: m["type"] in ("error", "state"))
    check(m["type"] == "error" and m["code"] == "no_session",
          f"a WebSocket opened before the logout plays nothing after it: {m}")
    w.close()

    # ---- guests ----
    st, r, h = http_call(P, "POST", "/api/guest", {"name": "Cato"})
    check(st == 201 and r == {"kind": "guest", "name": "Cato"} and session_cookie(h),
          f"a guest session: {st} {r}")
    st, r = http_json(P, "POST", "/api/guest", {"name": "x" * 25})
    check(st == 400, f"a guest name too long: {st} {r}")
    st, r = http_json(P, "POST", "/api/guest", {"name": "a\nb"})
    check(st == 400, f"a guest name with a control character: {st} {r}")

    # ---- a request from another site has no session ----
    st, r, _ = http_call(P, "POST", "/api/games", {"players": 2}, cookie=anke,
                         headers={"Origin": "http://evil.example"})
    check(st == 403, f"a cross-site POST is refused: {st} {r}")
    st, r, _ = http_call(P, "GET", "/api/me", cookie=anke,
                         headers={"Origin": "http://evil.example"})
    check(r == {"kind": "none"}, f"a cross-site request has no session: {r}")
    st, r, _ = http_call(P, "GET", "/api/me", cookie=anke,
                         headers={"Origin": f"http://127.0.0.1:{P}"})
    check(r.get("name") == "anke", f"a same-site request has it: {r}")

    # ---- nobody can lock an account's owner out (issue 28) ----
    # sign-ups with a taken name count against their address only: twelve of
    # them, then the owner logs in (today the ninth locked bram out)
    codes = [http_call(P, "POST", "/api/signup", {"name": "bram", "password": f"attempt {i}x"},
                       headers={"X-Forwarded-For": "198.51.100.7"})[0] for i in range(12)]
    check(codes == [409] * 12, f"sign-ups with a taken name: {codes}")
    st, r, _ = http_call(P, "POST", "/api/login", {"name": "bram", "password": "battery staple"},
                         headers={"X-Forwarded-For": "198.51.100.7"})
    check(st == 200, f"the owner logs in after twelve sign-ups with its name: {st} {r}")
    # the limit per user name and address: 10 attempts in 10 minutes
    codes = [http_call(P, "POST", "/api/login", {"name": "bram", "password": f"guess {i}"},
                       headers={"X-Forwarded-For": "198.51.100.8"})[0] for i in range(12)]
    check(codes == [401] * 10 + [429] * 2, f"10 attempts per name and address, then 429: {codes}")
    st, r, _ = http_call(P, "POST", "/api/login", {"name": "bram", "password": "battery staple"},
                         headers={"X-Forwarded-For": "198.51.100.8"})
    check(st == 429 and "try again in" in r.get("error", "") and r.get("retry_after", 0) > 500,
          f"even the right password waits at that address: {st} {r}")
    st, r, _ = http_call(P, "POST", "/api/login", {"name": "bram", "password": "battery staple"},
                         headers={"X-Forwarded-For": "203.0.113.5"})
    check(st == 200, f"the owner elsewhere is not locked out by them: {st} {r}")
    st, r = http_json(P, "POST", "/api/login", {"name": "anke", "password": "correct horse"})
    check(st == 200, f"another user name is not limited: {st} {r}")

    # ---- nothing secret in the database ----
    st, g = http_json(P, "POST", "/api/games", {"players": 2})
    srv.stop()
    raw = db_dump(db)
    for secret, what in [(anke.split("=", 1)[1], "a session token"),
                         (g["seats"][1]["token"], "a seat token"),
                         ("correct horse", "a password")]:
        check(secret.encode() not in raw, f"{what} is not in the database in clear")
    check(len(raw) > 1000, f"the database was read for the check above ({len(raw)} bytes)")
    ((pw,),) = sql_rows(db, "SELECT pwhash FROM accounts WHERE name_key='anke'")
    check(pw.startswith("$argon2id$v=19$m=19456,t=2,p=1$"),
          f"argon2id with 19 MiB and 2 passes: {pw[:40]}")
    ((ver,),) = sql_rows(db, "SELECT max(version) FROM schema_version" if pg_mode()
                         else "PRAGMA user_version")
    check(int(ver) >= 2, f"the schema version is stored: {ver}")
finally:
    srv.stop()

# ---- the limit per address (set low here), and on guests ----
db = fresh("auth-limits.db")
os.environ["CHARTERED_AUTH_LIMITS"] = "10,5,3"
srv = Server(BIN, db).start()
try:
    P = srv.port
    codes = [http_json(P, "POST", "/api/login", {"name": f"user{i}", "password": "whatever1"})[0]
             for i in range(7)]
    check(codes == [401] * 5 + [429] * 2, f"5 attempts per address, then 429: {codes}")
    st, r = http_json(P, "POST", "/api/signup", {"name": "newcomer", "password": "long enough"})
    check(st == 429, f"sign-up counts against the same address limit: {st} {r}")
    codes = [http_call(P, "POST", "/api/guest", {})[0] for i in range(4)]
    check(codes == [201] * 3 + [429], f"3 guests per address, then 429: {codes}")
finally:
    srv.stop()
    del os.environ["CHARTERED_AUTH_LIMITS"]

# ---- a user name tried from many addresses is slowed down, not locked ----
db = fresh("auth-name.db")
os.environ["CHARTERED_AUTH_LIMITS"] = "10,200,200,4"
srv = Server(BIN, db, extra=["--trust-proxy"]).start()
try:
    P = srv.port
    home = {"X-Forwarded-For": "192.0.2.1"}
    st, r, _ = http_call(P, "POST", "/api/signup", {"name": "carl", "password": "carl's secret"},
                         headers=home)
    check(st == 201, f"carl signs up: {st} {r}")
    got = [http_call(P, "POST", "/api/login", {"name": "carl", "password": "not it at all"},
                     headers={"X-Forwarded-For": f"198.51.100.{20 + i}"})[:2] for i in range(6)]
    codes = [g[0] for g in got]
    check(codes[:4] == [401] * 4 and codes[4:] == [429] * 2,
          f"4 attempts on one name from all addresses, then a slowdown: {codes}")
    check(0 < got[4][1].get("retry_after", 0) <= 10,
          f"a slowdown of seconds, not a lock-out of minutes: {got[4][1]}")
    st, r, _ = http_call(P, "POST", "/api/login", {"name": "carl", "password": "carl's secret"},
                         headers=home)
    check(st == 200, f"carl, from where he logged in before, is not slowed down: {st} {r}")
finally:
    srv.stop()
    del os.environ["CHARTERED_AUTH_LIMITS"]
finish("server_auth: accounts, sessions, guests and their limits hold")
