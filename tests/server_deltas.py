"""server_deltas.py: state frames as deltas (docs/protocol.md, "Frames as
deltas") over real sockets. A person plays against three random bots while
two spectators watch with patches and one with whole frames. Checked: the
first frame after a join has the whole view and seq 1, the later ones a
patch whose base is the view before and consecutive seq numbers; patched
views equal the whole views of the same decision; both patch spectators get
the very same patch text (built once per perspective); "seats" is left out
when unchanged; a resync brings the whole view, the static part and the
seats at once; a reconnect starts again with a whole view; "frames":"full"
never gets a patch; resync needs a game; and the patches are much smaller
than the views.

    python3 tests/server_deltas.py BINARY SRCDIR WORKDIR
"""
import json
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import (Server, WS, http_json, guest, check, finish, test_args,  # noqa: E402
                      pick_move, json_patch)

BIN, SRC, WORK = test_args()
srv = Server(BIN, os.path.join(WORK, "deltas.db")).start()
rng = random.Random(18)


class Raw:
    """A connection read frame by frame as text: the patches as sent."""

    def __init__(self, cookie=None):
        self.ws = WS("127.0.0.1", srv.port, cookie=cookie)
        self.ws.delta_checks = False
        self.frames = []  # (raw text, decoded) of the state frames

    def state(self, timeout=30):
        while True:
            self.ws.sock.settimeout(timeout)
            raw = self.ws.recv_raw()
            m = json.loads(raw)
            if m.get("type") == "state":
                self.frames.append((raw, m))
                return m
            if m.get("type") == "error":
                return m


try:
    cookie = guest(srv.port, "Anke")
    st, g = http_json(srv.port, "POST", "/api/games", {
        "players": 4, "seed": 7,
        "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3}, cookie=cookie)
    check(st == 201, f"game created: {st} {g}")
    gid = g["id"]

    # resync before any join: no game
    w0 = WS("127.0.0.1", srv.port)
    w0.send({"type": "resync"})
    e = w0.recv(timeout=10)
    check(e.get("type") == "error" and e.get("code") == "no_game", f"resync without a game: {e}")
    w0.send({"type": "nonsense"})
    e = w0.recv(timeout=10)
    check("resync" in e.get("message", ""), f"unknown_type names resync: {e}")
    w0.close()

    p = Raw(cookie)
    p.ws.send({"type": "join", "game": gid})
    s1, s2, sf = Raw(), Raw(), Raw()
    s1.ws.send({"type": "watch", "game": gid})
    s2.ws.send({"type": "watch", "game": gid})
    sf.ws.send({"type": "watch", "game": gid, "frames": "full"})

    view = {"p": None, "s1": None, "s2": None}
    dec = {"p": None, "s1": None, "s2": None}
    seq = {"p": 0, "s1": 0, "s2": 0}
    whole = {}       # decision -> spectator's whole view (full-frame connection)
    patched = {}     # decision -> spectator's patched view (s1)
    patch_text = {"s1": {}, "s2": {}}  # (base, decision) -> the patch as sent
    bytes_view = 0
    omitted_seats = 0
    moves = 0

    def take(name, conn, m):
        global omitted_seats
        check(m.get("seq") == seq[name] + 1, f"{name}: seq {m.get('seq')} after {seq[name]}")
        seq[name] = m.get("seq", seq[name])
        if "patch" in m:
            check(view[name] is not None and m["patch"]["base"] == dec[name],
                  f"{name}: patch from {m['patch']['base']}, view held of {dec[name]}")
            view[name] = json_patch(view[name], m["patch"]["ops"])
            if name != "p":
                raw = conn.frames[-1][0]
                patch_text[name][(m["patch"]["base"], m["decision"])] = raw[raw.index('"patch":'):]
            if "seats" not in m:
                omitted_seats += 1
        else:
            check(m.get("seq") == 1 or name == "p", f"{name}: a whole view after the first frame "
                  f"(seq {m.get('seq')})")
            view[name] = m["view"]
        dec[name] = m["decision"]
        if name == "s1":
            patched[m["decision"]] = view[name]

    first = p.state()
    check("view" in first and "patch" not in first and first.get("seq") == 1 and "static" in first,
          f"the first frame of a join is whole: {sorted(first)}")
    take("p", p, first)
    for name, conn in (("s1", s1), ("s2", s2)):
        m = conn.state()
        check("view" in m and m.get("seq") == 1, f"{name}: the first frame is whole")
        take(name, conn, m)
    resynced = 0
    reconnected = False
    m = first
    while moves < 60:
        if m is not first:
            if m.get("type") == "error":
                check(m.get("code") == "stale", f"unexpected error {m}")
                m = p.state()
                continue
            take("p", p, m)
        if m["status"] != "playing":
            break
        if moves in (10, 30) and not resynced & (1 << moves):
            # a resync: the whole view, static and seats come at once
            resynced |= 1 << moves
            held = view["p"]
            p.ws.send({"type": "resync"})
            r = p.state()
            while "patch" in r:  # a frame already on its way before the resync
                take("p", p, r)
                held = view["p"]
                r = p.state()
            check("view" in r and "patch" not in r and "static" in r and "seats" in r,
                  f"a resync's answer is whole: {sorted(r)}")
            if r["decision"] == dec["p"]:
                check(json.dumps(r["view"]) == json.dumps(held),
                      "the resynced view equals the patched one (key order included)")
            take("p", p, r)
            m = r
        if moves == 40 and not reconnected:
            # a reconnect: a new join, whose first frame is whole again
            reconnected = True
            p.ws.close()
            p = Raw(cookie)
            p.ws.send({"type": "join", "game": gid})
            r = p.state()
            check("view" in r and r.get("seq") == 1, f"a reconnect starts whole: {sorted(r)}")
            seq["p"] = 0
            take("p", p, r)
            m = r
        if m["legal"]:
            p.ws.send({"type": "move", "move": pick_move(m["legal"], rng), "decision": m["decision"]})
            moves += 1
        m = p.state()
    # the spectators: read what came
    for name, conn in (("s1", s1), ("s2", s2)):
        while True:
            try:
                m = conn.state(timeout=2)
            except (TimeoutError, OSError):
                break
            take(name, conn, m)
    while True:
        try:
            m = sf.state(timeout=2)
        except (TimeoutError, OSError):
            break
        check("patch" not in m and "view" in m and "seats" in m,
              f"frames full: every frame whole ({sorted(m)})")
        whole[m["decision"]] = m["view"]
        bytes_view += len(json.dumps(m["view"], separators=(",", ":")))
    same = [d for d in whole if d in patched]
    check(len(same) >= 5, f"decisions seen by both spectators: {len(same)}")
    for d in same:  # key order included
        check(json.dumps(whole[d]) == json.dumps(patched[d]),
              f"decision {d}: patched spectator view equals the whole one")
    shared = [k for k in patch_text["s1"] if k in patch_text["s2"]]
    check(len(shared) >= 5, f"patches seen by both patch spectators: {len(shared)}")
    for k in shared:
        check(patch_text["s1"][k] == patch_text["s2"][k], f"patch {k}: the same text for both")
    check(omitted_seats > 0, "delta frames leave out unchanged seats")
    check(moves >= 20, f"moves played: {moves}")
    avg_view = bytes_view // max(1, len(whole))
    avg_patch = sum(len(t) for t in patch_text["s1"].values()) // max(1, len(patch_text["s1"]))
    print(f"{moves} moves; a spectator's patch {avg_patch} bytes on average, its whole view "
          f"{avg_view} bytes")
    check(avg_patch * 3 < avg_view, "patches are much smaller than views")
finally:
    srv.stop()
finish("server_deltas: patches, seq, resync, reconnect, full frames, shared patches")
