#!/usr/bin/env python3
"""deb_unit.py: runs the installed chartered.service's command the way systemd
would, where systemd itself does not run (a container: PID 1 is not systemd,
so `systemctl start` cannot be tried). Called by deb_e2e.sh, as root, after
`dpkg -i`; docs/deploy.md says what this covers and what only systemd can.

It reads the unit and its configuration file (--config: its db as
`chartered config show` says), checks the unit's assumptions
(DynamicUser, StateDirectory = WorkingDirectory = the folder of db, the
program, the documentation it names), expands ExecStart as systemd.service(5)
says ("${VAR}" inside a word, "$VAR" alone split into words), and runs it, on
a copy of the configuration with a free port, as
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
import shutil
import sys
import tempfile

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
    # the settings: `--config FILE` on the command line (issue 35), an
    # optional secrets file (EnvironmentFile=-...) for a database password
    env = {}
    for ef in unit["Service"].get("EnvironmentFile", []):
        if ef.startswith("-") and not os.path.exists(ef[1:]):
            continue
        env.update(parse_env_file(ef.lstrip("-")))
    argv0 = expand_exec(one(unit, "Service", "ExecStart"), env)
    if not os.path.isabs(argv0[0]) or not os.access(argv0[0], os.X_OK):
        fail(f"ExecStart: {argv0[0]} is not an executable absolute path")
    if "--config" not in argv0:
        fail("ExecStart: no --config")
    conf = argv0[argv0.index("--config") + 1]
    shown = subprocess.run([argv0[0], "config", "show", "--config", conf], capture_output=True,
                           text=True, env={"PATH": "/usr/bin:/bin"})
    if shown.returncode != 0:
        fail(f"chartered config show --config {conf}: {shown.stderr}")
    settings = {}
    for line in shown.stdout.splitlines():
        k, _, rest = line.partition(" = ")
        settings[k] = rest.split("\t")[0]
    db = settings["db"]
    if os.path.dirname(db) != state:
        fail(f"{conf}: db {db} is not in the state directory {state}")
    host = settings["host"]
    # an administrator's edit of the config: a free loopback port, not 8080
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    work = tempfile.mkdtemp()
    os.chmod(work, 0o755)

    def edited(changes):
        """A copy of the config with these keys set, readable by the service's user."""
        lines = open(conf, encoding="utf-8").read().splitlines()
        for k, v in changes.items():
            lines = [l for l in lines if not re.match(r"\s*%s\s*=" % re.escape(k), l)]
            lines.append(f"{k} = {v}")
        path = os.path.join(work, "chartered-%d.conf" % len(os.listdir(work)))
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        os.chmod(path, 0o644)
        return path

    def command(path):
        return [path if w == conf else w for w in expand_exec(one(unit, "Service", "ExecStart"), env)]

    print("ExecStart expands to: " + " ".join(argv0) + f" (db {db}, host {host})")

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

    def start(path):
        """ExecStart on this config file, as the service's user."""
        cmd = ["setpriv", f"--reuid={UID}", f"--regid={UID}", "--clear-groups",
               "--no-new-privs", "--"] + command(path)
        return subprocess.Popen(cmd, env=clean_env, cwd=state, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                preexec_fn=lambda: os.umask(umask))

    p = start(edited({"port": port}))
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

    p = start(edited({"port": "not-a-port"}))
    try:
        _, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    if p.returncode == 0:
        fail("a bad port in the config did not make the service fail")
    shutil.rmtree(work, ignore_errors=True)
    print(f"port = not-a-port: exit status {p.returncode} "
          f"({err.decode().strip().splitlines()[-1]})")
    print("ok: the unit's command, user, state directory and stop signal")


if __name__ == "__main__":
    main()
