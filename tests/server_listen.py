"""server_listen.py: `chartered serve --host ADDR` listens on exactly ADDR
(issue 19, defect 1: with libwebsockets' IPv6 build, `--host 127.0.0.1`
listened on every address).

For each form of --host (an IPv4 literal, an IPv6 literal, a name that
resolves to loopback, an interface name) the server is started on a free
port, and the kernel's table of listening sockets (/proc/net/tcp and tcp6)
is read for the sockets this server process owns (their inodes among
/proc/PID/fd): there must be exactly one, bound to the address asked for.
Then a connection to that address is answered, and one to another loopback
address (127.0.0.2 or ::1, which a wildcard socket would answer) is refused.
An address that is not on this machine makes the server refuse to start
with a clear message, rather than run without listening.

usage: python3 server_listen.py BINARY SRCDIR WORKDIR
"""
import ipaddress
import os
import socket
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import check, finish, test_args  # noqa: E402

BIN, SRC, WORK = test_args()
DB = os.path.join(WORK, "listen.db")


def have_ipv6_loopback():
    try:
        s = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
        s.bind(("::1", 0))
        s.close()
        return True
    except OSError:
        return False


def proc_addr(hexaddr, v6):
    """The address of a /proc/net/tcp{,6} 'ADDR:PORT' field."""
    a, p = hexaddr.split(":")
    raw = bytes.fromhex(a)
    if v6:  # four 32-bit words, each in host (little-endian) order
        raw = b"".join(struct.pack("<I", struct.unpack(">I", raw[i:i + 4])[0])
                       for i in range(0, 16, 4))
        return str(ipaddress.IPv6Address(raw)), int(p, 16)
    return str(ipaddress.IPv4Address(struct.pack("<I", struct.unpack(">I", raw)[0]))), int(p, 16)


def listening_sockets(pid):
    """[(address, port)] of the listening TCP sockets process pid owns."""
    inodes = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            link = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if link.startswith("socket:["):
            inodes.add(link[8:-1])
    out = []
    for name, v6 in (("/proc/net/tcp", False), ("/proc/net/tcp6", True)):
        try:
            lines = open(name).read().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            f = line.split()
            if f[3] == "0A" and f[9] in inodes:  # 0A: LISTEN
                out.append(proc_addr(f[1], v6))
    return out


def start(host):
    """(process, first line of its output, port) of a server on --host host."""
    p = subprocess.Popen([BIN, "serve", "--host", host, "--port", "0", "--db", DB, "--quiet"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    line = p.stdout.readline().decode()
    port = None
    if "serving on" in line:
        port = int(line.split("/")[2].rsplit(":", 1)[1])
    return p, line, port


def stop(p):
    if p.poll() is None:
        p.terminate()
    p.wait(timeout=30)


def answers(addr, port):
    fam = socket.AF_INET6 if ":" in addr else socket.AF_INET
    s = socket.socket(fam, socket.SOCK_STREAM)
    s.settimeout(10)
    try:
        s.connect((addr, port))
        s.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        return s.recv(64).startswith(b"HTTP/1.1 200")
    except OSError:
        return False
    finally:
        s.close()


v6 = have_ipv6_loopback()
cases = [("127.0.0.1", "127.0.0.1", ["127.0.0.2"] + (["::1"] if v6 else [])),
         ("localhost", None, ["127.0.0.2"]),
         ("lo", "127.0.0.1", ["127.0.0.2"] + (["::1"] if v6 else []))]
if v6:
    cases.append(("::1", "::1", ["127.0.0.1"]))
checked = 0
for host, want, others in cases:
    p, line, port = start(host)
    check(port is not None, f"--host {host}: the server did not start: {line!r} "
          f"{p.stderr.read().decode() if p.poll() is not None else ''}")
    if port is None:
        stop(p)
        continue
    socks = listening_sockets(p.pid)
    if want is None:  # a name: whatever loopback address it resolved to
        check(len(socks) == 1 and ipaddress.ip_address(socks[0][0]).is_loopback,
              f"--host {host}: listening on {socks}, want one loopback address")
        want = socks[0][0] if socks else "?"
    else:
        check(socks == [(want, port)], f"--host {host}: listening on {socks}, want [({want!r}, {port})]")
    check(f"//{want}:" in line or f"//[{want}]:" in line,
          f"--host {host}: the start line names {line.strip()!r}, not {want}")
    check(answers(want, port), f"--host {host}: no answer on {want} port {port}")
    for o in others:
        if o != want:
            check(not answers(o, port), f"--host {host}: the server answers on {o} too")
    stop(p)
    checked += 1



def refused(host):
    """(exit code, stdout, stderr) of a server that should refuse to start;
    one that runs anyway is stopped after its first line."""
    p = subprocess.Popen([BIN, "serve", "--host", host, "--port", "0", "--db", DB, "--quiet"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = p.stdout.readline()
    if b"serving on" in out:
        stop(p)
        return 0, out, p.stderr.read()
    rest, err = p.communicate(timeout=60)
    return p.returncode, out + rest, err


# an address of no interface here: no silent start without a socket
code, out, err = refused("198.51.100.7")
check(code != 0 and b"serving on" not in out, f"--host 198.51.100.7 (not here) started: {out!r} {err!r}")
check(b"198.51.100.7" in err or b"listen" in err, f"no clear message for a foreign address: {err!r}")
# a name that does not resolve
code, out, err = refused("no-such-host.invalid")
check(code != 0 and b"does not resolve" in err, f"--host no-such-host.invalid: {code} {err!r}")
finish(f"listen: {checked} host forms listen on exactly their address (IPv6 {'on' if v6 else 'off'})")
