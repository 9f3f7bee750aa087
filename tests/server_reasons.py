"""server_reasons.py: the library's reasons for a refused move reach each
client of `chartered serve` in the language it joined with (chx_reason): a
notation typo and an illegal move in Dutch and Japanese (with the values in
them), and in English for an English client, over real sockets. A refusal
changes nothing: the game stays at its decision.

usage: python3 server_reasons.py BINARY SRCDIR WORKDIR
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import Server, http_json, check, finish, test_args  # noqa: E402

BIN, SRC, WORK = test_args()

db = os.path.join(WORK, "reasons.db")
srv = Server(BIN, db).start()
try:
    st, g = http_json(srv.port, "POST", "/api/games", {
        "edition": "amsterdam", "players": 2, "seed": 5,
        "seats": [{"kind": "human", "name": "A"}, {"kind": "human", "name": "B"}]})
    check(st == 201, f"create: {st} {g}")
    gid = g["id"]
    toks = [s["token"] for s in g["seats"]]
    # seat 1 speaks Dutch, seat 2 Japanese
    a, b = srv.ws(), srv.ws()
    a.send({"type": "join", "game": gid, "token": toks[0], "lang": "nl"})
    b.send({"type": "join", "game": gid, "token": toks[1], "lang": "ja"})
    sa = a.recv_until(lambda m: m["type"] == "state" and m["status"] == "playing")
    sb = b.recv_until(lambda m: m["type"] == "state" and m["status"] == "playing")
    decider = sa["deciders"][0]
    dec = sa["decision"]
    mover = a if decider == 0 else b
    lang = "nl" if decider == 0 else "ja"

    def refusal(c, move):
        c.send({"type": "move", "move": move, "decision": dec})
        m = c.recv_until(lambda m: m["type"] == "error", timeout=10)
        check(m["code"] == "illegal_move", f"'{move}': {m}")
        return m["message"]

    want = {
        "nl": ["bedrag '120' heeft het guldenteken nodig: schrijf het als f120",
               "'bid f10' mag nu niet: kopen, een bouwkaart spelen of verkopen"],
        "ja": ["金額 '120' にはフローリン記号が必要です: f120 のように書いてください",
               "'bid f10' は今は指せません: 購入・建設カード・売却のどれかを選ぶ"],
    }[lang]
    got = [refusal(mover, "bid 120"), refusal(mover, "bid f10")]
    for w, m in zip(want, got):
        check(w in m, f"{lang} reason: expected '{w}' in '{m}'")
    # the same seat joined again in English gets the library's own text
    e = srv.ws()
    e.send({"type": "join", "game": gid, "token": toks[decider], "lang": "en"})
    e.recv_until(lambda m: m["type"] == "state")
    en = refusal(e, "bid f10")
    check("'bid f10' is not legal now: choose purchase, a building card, or selling" in en,
          f"English reason: {en}")
    # nothing moved
    w = srv.ws()
    w.send({"type": "watch", "game": gid})
    m = w.recv_until(lambda m: m["type"] == "state")
    check(m["decision"] == dec, f"the refusals moved the game ({m['decision']} != {dec})")
    for c in (a, b, e, w):
        c.close()
finally:
    srv.stop()
finish(f"ok: refusals in {lang} and English: {got[1]!r}")
