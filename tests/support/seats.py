"""seats.py: people seated at one game over real sockets, for the server tests
that break its storage under a game in play (server_dbfail.py: a refused
write; server_conflict.py: a second writer of move N). A Table holds what the
clients were shown (seen: move number -> notation; acked: the highest
decision shown to any client); a Seat is one seated connection and the newest
state it holds; Table.play makes moves one at a time, each acknowledged.

    t = Table(srv, db, random.Random(11))
    seats = [t.seat(gid, i, tok) for i, tok in enumerate(tokens)]
    t.play(seats, 12)
    t.db_moves(gid) == [t.seen[n] for n in range(t.acked)]
"""
import time

from wsclient import check, pick_move, sql_rows


class Table:
    def __init__(self, srv, db, rng):
        self.srv, self.db, self.rng = srv, db, rng
        self.seen = {}   # move number -> notation, as the clients were told (acknowledged)
        self.acked = 0   # highest decision any client was shown

    def seat(self, gid, seat, tok):
        return Seat(self, gid, seat, tok)

    def mover_of(self, seats):
        """A seat that decides now in the newest decision (with its move)."""
        top = max(s.state["decision"] for s in seats)
        for s in seats:
            st = s.state
            if st["decision"] == top and st["status"] == "playing" and st["legal"]:
                return s
        return None

    def play(self, seats, count):
        """Make `count` moves (fewer if the game ends), each acknowledged."""
        for _ in range(count):
            for s in seats:
                s.drain(0.02)
            s = self.mover_of(seats)
            if s is None:
                if all(x.state["status"] == "over" for x in seats):
                    return
                for x in seats:  # a frame in flight
                    x.drain(0.3)
                s = self.mover_of(seats)
                check(s is not None, "someone decides")
                if s is None:
                    return
            d = s.state["decision"]
            s.ws.send({"type": "move", "move": pick_move(s.state["legal"], self.rng),
                       "decision": d})
            m = s.until(lambda m: m["type"] == "error" or m["decision"] > d)
            check(m["type"] == "state", f"move accepted: {m}")
            for x in seats:
                if x is not s:
                    x.until(lambda m: m["type"] == "state" and m["decision"] >= m_dec(s))

    def db_moves(self, gid):
        return [r[0] for r in sql_rows(self.db, "SELECT move FROM moves WHERE game='%s' "
                                                "ORDER BY n" % gid)]


class Seat:
    """One seated connection and the newest state it holds."""

    def __init__(self, table, gid, seat, tok):
        self.t = table
        self.gid, self.seat, self.tok = gid, seat, tok
        self.connect()

    def connect(self):
        self.ws = self.t.srv.ws()
        self.ws.send({"type": "join", "game": self.gid, "token": self.tok})
        self.state = None
        self.errors = []
        self.take(self.ws.recv_until(lambda m: m["type"] == "state", timeout=30))

    def take(self, m):
        if m["type"] == "state":
            self.state = m
            for e in m["log"]:
                if e["player"] == self.seat or not e.get("hidden"):
                    prev = self.t.seen.get(e["n"])
                    check(prev is None or prev == e["move"], f"log entry {e['n']} changed")
                    self.t.seen[e["n"]] = e["move"]
            self.t.acked = max(self.t.acked, m["decision"])
        elif m["type"] == "error":
            self.errors.append(m)

    def drain(self, secs=0.05):
        end = time.time() + secs
        try:
            while True:
                self.take(self.ws.recv(timeout=max(0.01, end - time.time())))
                if time.time() >= end and not self.ws.buf:
                    break
        except (TimeoutError, OSError):
            pass

    def until(self, pred, timeout=30):
        m = self.ws.recv_until(lambda m: m["type"] in ("state", "error"), timeout=timeout)
        while True:
            self.take(m)
            if pred(m):
                return m
            m = self.ws.recv_until(lambda m: m["type"] in ("state", "error"), timeout=timeout)


def m_dec(s):
    return s.state["decision"]
