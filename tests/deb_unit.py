#!/usr/bin/env python3
"""deb_unit.py: runs the installed chartered.service's command the way systemd
would, where systemd itself does not run (a container: PID 1 is not systemd,
so `systemctl start` cannot be tried). Called by deb_e2e.sh, as root, after
`dpkg -i`; docs/deploy.md says what this covers and what only systemd can.

It reads the unit and its EnvironmentFile, checks the unit's assumptions
(DynamicUser, StateDirectory = WorkingDirectory = the folder of --db, the
program, the documentation it names), expands ExecStart as systemd.service(5)
says ("${VAR}" inside a word, "$VAR" alone split into words), and runs it as
a user that is not root and owns nothing but the state directory (as
DynamicUser gives), in that directory, with UMask=0077, a clean environment
and no standard input. Then: the server answers on the configured address, the
database is created in the state directory, readable by that user only;
SIGTERM (KillSignal) ends it with status 0 within TimeoutStopSec, so
Restart=on-failure does not restart it; a bad setting makes it exit non-zero
(restarted, up to the start limit).

usage: deb_unit.py UNIT_FILE
"""
import http.client
import os
import pwd
import re
import signal
import socket
import stat
import subprocess
import sys

UID = 61234  # in systemd's DynamicUser range (61184-65519), unused here


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def parse_unit(path):
    """{section: {key: [values]}} of a unit file (comments, continuations)."""
    unit, sec, pending = {}, None, ""
    for raw in open(path, encoding="utf-8"):
        line = pending + raw.rstrip("\n")
        pending = ""
        if line.endswith("\\"):
            pending = line[:-1] + " "
            continue
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            sec = unit.setdefault(line[1:-1], {})
            continue
        k, _, v = line.partition("=")
        sec.setdefault(k.strip(), []).append(v.strip())
    return unit


def parse_env_file(path):
    """systemd's EnvironmentFile: KEY=VALUE lines, # and ; comments, quotes."""
    env = {}
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        k, sep, v = line.partition("=")
        if not sep:
            fail(f"{path}: not an assignment: {line}")
        v = v.strip()
        if len(v) >= 2 and v[0] == v[-1] and v[0] in "'\"":
            v = v[1:-1]
        env[k.strip()] = v
    return env


def expand_exec(cmdline, env):
    """ExecStart's words after systemd's variable expansion."""
    words = []
    for w in cmdline.split():
        m = re.fullmatch(r"\$([A-Za-z_][A-Za-z0-9_]*)", w)
        if m:  # "$VAR" alone: split into words at white space
            words += env.get(m.group(1), "").split()
            continue
        words.append(re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}",
                            lambda m: env.get(m.group(1), ""), w))
    return words


def one(unit, sec, key):
    v = unit.get(sec, {}).get(key)
    if not v:
        fail(f"unit: no {key}= in [{sec}]")
    return v[-1]


def main():
    unit = parse_unit(sys.argv[1])
    svc = unit["Service"]
    if one(unit, "Service", "DynamicUser") != "yes":
        fail("unit: DynamicUser is not yes")
    state = "/var/lib/" + one(unit, "Service", "StateDirectory")
    if one(unit, "Service", "WorkingDirectory") != state:
        fail("unit: WorkingDirectory is not the state directory")
    for key in ("StartLimitIntervalSec", "StartLimitBurst"):
        if key in svc:
            fail(f"unit: {key} belongs in [Unit] (systemd ignores it in [Service])")
    for doc in " ".join(unit["Unit"].get("Documentation", [])).split():
        if doc.startswith("file://") and not os.path.isfile(doc[7:]):
            fail(f"unit: Documentation {doc} is not installed")
        if doc.startswith("man:"):
            page = re.fullmatch(r"man:([^(]+)\((\d)\)", doc)
            r = subprocess.run(["man", "-w", page.group(2), page.group(1)],
                               capture_output=True)
            if r.returncode != 0:
                fail(f"unit: Documentation {doc}: no such manual page")
    env_file = one(unit, "Service", "EnvironmentFile").lstrip("-")
    env = parse_env_file(env_file)
    # an administrator's edit of the config: a free loopback port, not 8080
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    env["CHARTERED_PORT"] = str(port)
    argv = expand_exec(one(unit, "Service", "ExecStart"), env)
    if not os.path.isabs(argv[0]) or not os.access(argv[0], os.X_OK):
        fail(f"ExecStart: {argv[0]} is not an executable absolute path")
    db = argv[argv.index("--db") + 1]
    if os.path.dirname(db) != state:
        fail(f"ExecStart: --db {db} is not in the state directory {state}")
    host = argv[argv.index("--host") + 1]
    print("ExecStart expands to: " + " ".join(argv))

    try:
        pwd.getpwuid(UID)
        fail(f"uid {UID} has an account here; pick another")
    except KeyError:
        pass
    if os.path.lexists(state):
        fail(f"{state} exists already")
    # what StateDirectory= with DynamicUser= sets up: the folder, owned by the
    # service's user, mode StateDirectoryMode
    os.mkdir(state)
    os.chmod(state, int(one(unit, "Service", "StateDirectoryMode"), 8))
    os.chown(state, UID, UID)
    umask = int(one(unit, "Service", "UMask"), 8)
    clean_env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
                 "LANG": "C.UTF-8", "HOME": "/", **env}

    def start(settings):
        """ExecStart with these settings, as the service's user."""
        cmd = ["setpriv", f"--reuid={UID}", f"--regid={UID}", "--clear-groups",
               "--no-new-privs", "--"] + expand_exec(one(unit, "Service", "ExecStart"), settings)
        return subprocess.Popen(cmd, env=settings, cwd=state, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                preexec_fn=lambda: os.umask(umask))

    p = start(clean_env)
    try:
        line = p.stdout.readline().decode()
        if "serving on" not in line:
            p.kill()
            fail("the service did not start: " + line + p.stderr.read().decode())
        c = http.client.HTTPConnection(host, port, timeout=30)
        c.request("GET", "/")
        r = c.getresponse()
        body = r.read()
        c.close()
        if r.status != 200 or b"<html" not in body.lower():
            fail(f"GET / on {host}:{port}: status {r.status}")
        st = os.stat(db)
        if st.st_uid != UID:
            fail(f"{db} is owned by uid {st.st_uid}, not the service's {UID}")
        if stat.S_IMODE(st.st_mode) & 0o077:
            fail(f"{db} has mode {oct(stat.S_IMODE(st.st_mode))}: others may read it")
        print(f"served / on {host}:{port} as uid {UID}; {db} mode "
              f"{oct(stat.S_IMODE(st.st_mode))}")
        timeout = int(re.sub(r"s$", "", one(unit, "Service", "TimeoutStopSec")))
        p.send_signal(getattr(signal, one(unit, "Service", "KillSignal")))
        rc = p.wait(timeout=timeout)
        if rc != 0:
            fail(f"{one(unit, 'Service', 'KillSignal')}: exit status {rc}, so "
                 f"Restart={one(unit, 'Service', 'Restart')} would restart it")
        print(f"{one(unit, 'Service', 'KillSignal')}: exit status 0 (no restart)")
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()

    p = start(dict(clean_env, CHARTERED_PORT="not-a-port"))
    try:
        _, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    if p.returncode == 0:
        fail("a bad CHARTERED_PORT did not make the service fail")
    print(f"CHARTERED_PORT=not-a-port: exit status {p.returncode} "
          f"({err.decode().strip().splitlines()[-1]})")
    print("ok: the unit's command, user, state directory and stop signal")


if __name__ == "__main__":
    main()
