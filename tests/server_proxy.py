"""server_proxy.py: the client's address behind a trusted proxy
(--trust-proxy, the packaged default; issue 28 item 4), over real sockets.
The per-address limits count the address the proxy appended, the right-most
entry of the last X-Forwarded-For line, however long the header is:
- a header of 600+ bytes (the old code read 512 and otherwise fell back to
  the proxy's loopback address, which is exempt: every limit was off) still
  counts its last entry: the 4th creation in a minute is refused (429);
- another client behind the same proxy is not affected;
- a client writing its own X-Forwarded-For line ahead of the proxy's cannot
  pick its address: the proxy's line counts;
- a header whose last entry is no address counts as one non-exempt client
  (not as the proxy's loopback);
- the same address in another spelling (::ffff:a.b.c.d) counts as itself;
- requests without the header (the proxy's own machine) stay exempt.

usage: python3 server_proxy.py BINARY SRCDIR WORKDIR
"""
import json
import os
import socket
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import Server, check, finish, test_args  # noqa: E402

BIN, SRC, WORK = test_args()
os.environ.update({"CHARTERED_CREATES_PER_MINUTE": "3", "CHARTERED_WAITING_PER_ADDRESS": "50"})
srv = Server(BIN, os.path.join(WORK, "proxy.db"), extra=["--trust-proxy"]).start()
GAME = json.dumps({"edition": "amsterdam", "players": 2,
                   "seats": [{"kind": "human"}, {"kind": "human"}]}).encode()


def create(xff_lines):
    """The status of POST /api/games sent with these X-Forwarded-For lines."""
    head = [b"POST /api/games HTTP/1.1", b"Host: 127.0.0.1",
            b"Content-Type: application/json", b"Content-Length: %d" % len(GAME),
            b"Connection: close"]
    head += [b"X-Forwarded-For: " + x.encode() for x in xff_lines]
    s = socket.create_connection(("127.0.0.1", srv.port), timeout=20)
    s.sendall(b"\r\n".join(head) + b"\r\n\r\n" + GAME)
    out = b""
    while b"\r\n" not in out:
        d = s.recv(4096)
        if not d:
            break
        out += d
    s.close()
    try:
        return int(out.split(b" ", 2)[1])
    except (IndexError, ValueError):
        return 0


def statuses(xff_lines, n=4):
    return [create(xff_lines) for _ in range(n)]


long_xff = ", ".join(f"10.{i // 250}.{i % 250}.1" for i in range(60)) + ", 203.0.113.7"
check(len(long_xff) > 600, "the long header is past the old 512-byte buffer")
got = statuses([long_xff])
check(got == [201, 201, 201, 429], f"a 600-byte X-Forwarded-For: the 4th creation refused: {got}")

got = statuses(["198.51.100.9"], 3)
check(got == [201, 201, 201], f"another client behind the proxy is not affected: {got}")

got = [create([f"192.0.2.{i}", "198.51.100.20"]) for i in range(4)]
check(got == [201, 201, 201, 429],
      f"a client's own X-Forwarded-For line does not choose its address: {got}")

got = statuses(["not an address"])
check(got == [201, 201, 201, 429], f"an unreadable last entry counts as a client: {got}")
got = statuses(["127.0.0.1, " + "x" * 700], 2)
check(got == [429, 429], f"a long unreadable header is not the proxy's (exempt) address: {got}")

got = statuses(["0:0:0:0:0:ffff:cb00:7108"], 3) + statuses(["203.0.113.8"], 1)
check(got == [201, 201, 201, 429], f"another spelling of an address is that address: {got}")

got = statuses([], 5)
check(got == [201] * 5, f"the proxy's own requests (no header) stay exempt: {got}")

srv.stop()
finish("server_proxy: the right-most X-Forwarded-For entry counts, however long; "
       "unreadable headers are not exempt")
