"""cluster_throughput.py: total durable moves/s of 1, 2 or 3 nodes over one
PostgreSQL on this machine (issue 17 figures; docs/performance.md "Cluster").

Starts a cluster (tests/support/cluster.py: a private PostgreSQL, NODES nodes,
HAProxy) and runs one loadgen per node against that node's own port (each
loadgen creates its games there, so each node plays its own games: what the
load balancer does for a game's connections, without HAProxy's CPU on this
2-core machine). Prints each node's figure, the total, and the CPU per move of
the nodes and of PostgreSQL (from /proc), from which the capacity of N
machines is estimated.

usage: python3 bench/cluster_throughput.py BUILD_DIR NODES [GAMES_PER_NODE] [SECONDS] [THINK_MS]
e.g.   python3 bench/cluster_throughput.py build 2 250 20 0
"""
import os
import shutil
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(SRC, "tests", "support"))
import cluster  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def cpu_s(pid):
    """utime + stime of a process, in seconds."""
    with open(f"/proc/{pid}/stat") as f:
        parts = f.read().rsplit(")", 1)[1].split()
    return (int(parts[11]) + int(parts[12])) / TICK


def pg_pids(pgdir):
    """The postgres processes of the private server (its postmaster and children)."""
    with open(os.path.join(pgdir, "data", "postmaster.pid")) as f:
        master = int(f.readline())
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(master)], capture_output=True,
                         text=True).stdout.split()
    return [master] + [int(p) for p in out]


def main():
    build, nodes = sys.argv[1], int(sys.argv[2])
    games = int(sys.argv[3]) if len(sys.argv) > 3 else 250
    secs = int(sys.argv[4]) if len(sys.argv) > 4 else 20
    think = int(sys.argv[5]) if len(sys.argv) > 5 else 0
    binary = os.path.join(build, "chartered")
    loadgen = os.path.join(build, "bench", "loadgen")
    os.environ["CHARTERED_AUTH_LIMITS"] = "10,200,0"  # loadgen opens a guest session per client
    work = tempfile.mkdtemp(prefix="chbench-", dir="/tmp")
    with cluster.Cluster(binary, SRC, work, nodes=nodes, lease=6) as cl:
        print(f"{nodes} node(s), storage {cl.store}, {games} games x 4 clients per node, "
              f"{secs} s, think {think} ms", flush=True)
        procs = []
        for n in cl.names:
            s = cl.node(n)
            p = subprocess.Popen([loadgen, "--port", str(s.port), "--games", str(games),
                                  "--seconds", str(secs), "--warmup", "5", "--think", str(think),
                                  "--server-pid", str(s.proc.pid)],
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            procs.append((n, s, p))
        # PostgreSQL's CPU over the measured window: from when every loadgen
        # has its clients connected plus its 5 s warm-up, for `secs` seconds
        import threading
        outs = {n: [] for n, _, _ in procs}
        connected = threading.Semaphore(0)

        def reader(n, p):
            for line in p.stdout:
                outs[n].append(line)
                if line.startswith("connected "):
                    connected.release()
        threads = [threading.Thread(target=reader, args=(n, p), daemon=True) for n, _, p in procs]
        for t in threads:
            t.start()
        for _ in procs:
            connected.acquire(timeout=600)
        time.sleep(5)
        pg0 = sum(cpu_s(p) for p in pg_pids(cl.pg.dir) if os.path.exists(f"/proc/{p}"))
        t0 = time.time()
        time.sleep(secs)
        pg1 = sum(cpu_s(p) for p in pg_pids(cl.pg.dir) if os.path.exists(f"/proc/{p}"))
        elapsed = time.time() - t0
        total = 0.0
        node_cpu_ms = []
        for n, s, p in procs:
            p.wait(timeout=secs + 600)
            for t in threads:
                t.join(timeout=10)
            out = "".join(outs[n])
            m = re.search(r"= (\d+) moves/s", out)
            c = re.search(r"([\d.]+) ms CPU per move", out)
            lat = re.search(r"p50 ([\d.]+) ms, p99 ([\d.]+) ms", out)
            mps = float(m.group(1)) if m else 0.0
            total += mps
            if c:
                node_cpu_ms.append(float(c.group(1)))
            print(f"node {n}: {mps:.0f} moves/s"
                  + (f", p50 {lat.group(1)} ms, p99 {lat.group(2)} ms" if lat else "")
                  + (f", {c.group(1)} ms node CPU per move" if c else ""), flush=True)
            if not m:
                print(out[-2000:])
        moves_all = total * elapsed  # moves in PostgreSQL's window (the same rate)
        pg_ms = (pg1 - pg0) * 1000 / moves_all if moves_all else 0
        node_ms = sum(node_cpu_ms) / len(node_cpu_ms) if node_cpu_ms else 0
        print(f"total: {total:.0f} moves/s with {nodes} node(s)", flush=True)
        print(f"CPU per move: node {node_ms:.2f} ms, PostgreSQL {pg_ms:.2f} ms "
              f"(PostgreSQL CPU {pg1 - pg0:.1f} s in the {elapsed:.0f} s measured)", flush=True)
        if node_ms:
            print(f"estimate: one 2-core node machine ~ {2000 / node_ms:.0f} moves/s at full CPU; "
                  f"the database machine ~ {2000 / pg_ms if pg_ms else 0:.0f} moves/s per 2 cores "
                  f"of PostgreSQL", flush=True)
        print("load:", open("/proc/loadavg").read().strip(), flush=True)
    shutil.rmtree(work, ignore_errors=True)  # logs and haproxy.cfg of the run


if __name__ == "__main__":
    main()
