"""smtpsink.py: an SMTP server on loopback for the e-mail tests (issue 32),
Debian's aiosmtpd: every message it accepts is written whole to DIR as
N.eml (N counting from 1), then renamed into place, so a reader never sees
half a file. Runs until killed.

usage: /usr/bin/python3 smtpsink.py PORT DIR
"""
import os
import sys
import time

from aiosmtpd.controller import Controller


class Sink:
    def __init__(self, folder):
        self.folder = folder

    async def handle_DATA(self, server, session, envelope):
        n = len([f for f in os.listdir(self.folder) if f.endswith(".eml")]) + 1
        tmp = os.path.join(self.folder, f".{n}.tmp")
        with open(tmp, "wb") as f:
            f.write(b"X-Rcpt: " + ",".join(envelope.rcpt_tos).encode() + b"\r\n")
            f.write(envelope.original_content or envelope.content)
        os.rename(tmp, os.path.join(self.folder, f"{n}.eml"))
        return "250 OK"


port, folder = int(sys.argv[1]), sys.argv[2]
os.makedirs(folder, exist_ok=True)
c = Controller(Sink(folder), hostname="127.0.0.1", port=port)
c.start()
print("ready", flush=True)
try:
    while True:
        time.sleep(3600)
finally:
    c.stop()
