#!/usr/bin/env python3
"""driver.py: plays whole games of `chartered play` in tmux as a person would,
for the end-to-end tests (tests/cli_play_*.sh). It reads the screen with
tmux capture-pane, finds the listed legal moves, chooses one by a simple
policy (steered so that a merger, a sealed bid, an auction and a trade offer
happen in Building Amsterdam), and types it with tmux send-keys. Along the
way it tries bad input, help, narrowing the list, save, end of input and
resume, and undo, and it asserts on what the screen shows.

usage: driver.py BINARY WORKDIR EDITION SEED
"""
import os
import random
import re
import subprocess
import sys
import time

BIN, WORK, EDITION, SEED = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
SOCK = "chartered-play-%d-%s" % (os.getpid(), EDITION)
PROMPT = re.compile(r"your move \(number, move or help\) >\s*$")
SHELL = re.compile(r"^\$\s*$")
OVER = re.compile(r"The game is over\. Type 'save FILE'.*leave\.\s*$")
ENTRY = re.compile(r"(\d+)(?:-(\d+))?  (\S.*?)(?=\s{3,}\d+(?:-\d+)?  \S|\s*$)")
rng = random.Random(SEED)
# A game ends: the human decides far fewer times than this in any game of
# either edition. A bound on decisions, not on time: a loaded machine plays
# more slowly, never more. (Each wait for the screen has its own bound.)
MAX_DECISIONS = 3000


def tmux(*args, check=True):
    return subprocess.run(["tmux", "-L", SOCK, "-f", "/dev/null"] + list(args),
                          capture_output=True, text=True, check=check)


def cap():
    return tmux("capture-pane", "-p", "-t", "t").stdout


def last_line(screen):
    lines = [l for l in screen.rstrip("\n").split("\n") if l.strip()]
    return lines[-1] if lines else ""


def fail(msg, screen=None):
    sys.stderr.write("FAIL: %s\n" % msg)
    if screen is not None:
        sys.stderr.write("---- screen ----\n%s\n----------------\n" % screen)
    tmux("kill-server", check=False)
    sys.exit(1)


def wait_for(pattern, old=None, timeout=60):
    """Wait until the last line matches pattern (and the screen changed)."""
    end = time.time() + timeout
    screen = ""
    while time.time() < end:
        screen = cap()
        if (old is None or screen != old) and pattern.search(last_line(screen)):
            return screen
        time.sleep(0.03)
    fail("timed out waiting for %s" % pattern.pattern, screen)


def send(text, enter=True):
    if text:
        tmux("send-keys", "-t", "t", "-l", text)
    if enter:
        tmux("send-keys", "-t", "t", "Enter")


def type_and_wait(text, pattern=PROMPT):
    old = cap()
    send(text)
    return wait_for(pattern, old)


def moves_of(screen):
    """The listed moves: [(number, text)] and ranges [(lo, hi, prefix, flo, fhi)]."""
    lines = screen.split("\n")
    moves, ranges = [], []
    # the list is between the decision head and the prompt
    for line in lines:
        for m in ENTRY.finditer(line):
            num, num2, text = int(m.group(1)), m.group(2), m.group(3).strip()
            if num2:
                r = re.match(r"(.*) f(\d+)\.\.f(\d+)$", text)
                if r:
                    ranges.append((num, int(num2), r.group(1), int(r.group(2)), int(r.group(3))))
                continue
            moves.append((num, text))
    return moves, ranges


def decision_lines(screen):
    """From the decision head (the line 'NAME: phase') to the prompt."""
    lines = [l for l in screen.rstrip("\n").split("\n")]
    for i in range(len(lines) - 1, -1, -1):
        if lines[i].startswith("Anke: "):
            return lines[i], "\n".join(lines[i + 1:])
    return "", ""


log_seen = []


def collect_log(screen):
    lines = screen.split("\n")
    if "Last moves" not in screen:
        return
    i = lines.index("Last moves") if "Last moves" in lines else -1
    for l in lines[i + 1:]:
        if not l.startswith("  ") or l.strip() == "":
            break
        t = l.strip()
        if t not in log_seen[-20:]:
            log_seen.append(t)


class Policy:
    def __init__(self):
        self.did = {"bid": False, "auction": False, "offer": False, "merge": False,
                    "undo": False, "undo_refused": False}
        self.offer_items = 0
        self.bought = False

    def choose(self, head, moves, ranges):
        texts = {t: n for n, t in moves}
        phase = head.split(": ", 1)[1] if ": " in head else ""

        def pick(pred):
            c = [t for _, t in moves if pred(t)]
            return rng.choice(c) if c else None

        def has_range(prefix):
            for lo, hi, p, flo, fhi in ranges:
                if p == prefix:
                    return flo, fhi
            return None

        if phase.startswith("choose a stock event"):
            for want, key in (("event Coopmanscappen", "offer"), ("event Veilinge", "auction")):
                if want in texts and not self.did[key]:
                    return want
            if not self.did["bid"]:
                for ev in ("event Verlappen", "event Aenleggen", "event Dreighinghe"):
                    if ev in texts:
                        return ev
            return "event deck" if "event deck" in texts else moves[0][1]
        if phase.startswith("Coopmanscappen: make an offer"):
            if not self.did["offer"]:
                o = pick(lambda t: t.startswith("offer P"))
                if o:
                    self.offer_items = 0
                    return o
            return "done"
        if phase.startswith("Coopmanscappen: build your offer"):
            self.offer_items += 1
            # notation typed directly: the list may be longer than the screen
            if self.offer_items == 1:
                return "give f10"
            if self.offer_items == 2:
                c = pick(lambda t: t.startswith("ask "))
                if c:
                    return c
            self.did["offer"] = True
            return "propose"
        if phase.startswith("Coopmanscappen: answer"):
            return "decline"
        if phase.startswith("Veilinge: choose"):
            self.did["auction"] = True
            c = pick(lambda t: t.startswith("auction stock"))
            return c or moves[0][1] if moves else "pass"
        if phase.startswith("auction"):
            self.did["auction"] = True
            b = has_range("bid")
            if b and not self.auction_bid:
                self.auction_bid = True
                return "bid f%d" % b[0]
            c = pick(lambda t: t.startswith("bid"))
            if c and not self.auction_bid:
                self.auction_bid = True
                return c
            return "pass"
        if phase.startswith("your sealed bid"):
            self.did["bid"] = True
            b = has_range("bid")
            if b:
                return "bid f%d" % min(b[1], max(b[0], 10))
            return pick(lambda t: t.startswith("bid")) or moves[0][1]
        if phase.startswith("choose your turn"):
            self.bought = False
            self.auction_bid = False
            plays = [t for _, t in moves if t.startswith("play ")]
            if plays and rng.random() < 0.85:
                return rng.choice(plays)
            c = pick(lambda t: t.startswith("take ") or t == "draw")
            return c or (plays[0] if plays else moves[0][1])
        if phase.startswith("take cards"):
            c = pick(lambda t: t == "draw" or t.startswith("take "))
            return c or "done"
        if phase.startswith("trade"):
            if "action event" in texts and not (self.did["offer"] and self.did["auction"] and self.did["bid"]):
                self.auction_bid = False
                return "action event"
            if not self.bought:
                c = pick(lambda t: t.startswith("buy ") or t.startswith("flag "))
                if c:
                    self.bought = True
                    return c
            return "done"
        if phase.startswith("merger: which") or phase.startswith("merger: the next"):
            self.did["merge"] = True
            return moves[0][1]
        if phase.startswith("merger: sell"):
            self.did["merge"] = True
            c = pick(lambda t: t.startswith("keep"))
            return c or moves[0][1]
        if phase.startswith("sell up to two"):
            return "done" if "done" in texts else moves[0][1]
        if not moves and ranges:
            return "%s f%d" % (ranges[0][2], ranges[0][3])
        return moves[0][1]


def start(cmd):
    return type_and_wait(cmd, re.compile(PROMPT.pattern + "|" + OVER.pattern))


def main():
    tmux("kill-server", check=False)
    env_cmd = "env -i PATH=/usr/bin:/bin HOME=%s TERM=xterm-256color LANG=C.UTF-8 PS1='$ ' bash --norc --noprofile" % WORK
    tmux("new-session", "-d", "-x", "100", "-y", "50", "-s", "t", "-c", WORK, env_cmd)
    wait_for(SHELL)
    if EDITION == "amsterdam":
        cmd = "%s play --seats human,greedy,random --names Anke --seed %d --lang en" % (BIN, SEED)
    else:
        cmd = ("%s play --edition golden-age --players 3 --seats human,greedy,random "
               "--names Anke --events on --seed %d --lang en" % (BIN, SEED))
    screen = start(cmd)
    if "Chartered:" not in screen:
        fail("no title on the first screen", screen)

    # bad input of every kind at the first prompt: the same prompt again
    s = type_and_wait("xyzzy")
    if "'xyzzy' is not a move or a command" not in s:
        fail("garbage was not refused", s)
    s = type_and_wait("999")
    if "There is no move 999" not in s:
        fail("a wrong number was not refused", s)
    head, area = decision_lines(screen)
    illegal = "accept" if "answer the offer" not in head else "lone"
    s = type_and_wait(illegal)
    if "Not allowed:" not in s:
        fail("an illegal move did not show the engine's reason", s)
    moves, ranges = moves_of(area)
    # three letters of a listed move: part of a move, never a whole one
    word = (moves[-1][1] if moves else ranges[0][2])[:3]
    s = type_and_wait(word)
    if not re.search(r"\d+ moves? match(es)? '%s'" % word, s):
        fail("typing part of a move did not narrow the list", s)
    s = type_and_wait("help", re.compile(r"Press Enter to go on\.\s*$"))
    if "See the rules" not in s:
        fail("help did not explain the decision", s)
    screen = type_and_wait("")

    pol = Policy()
    pol.auction_bid = False
    decisions = 0
    saved = eof_done = False
    resume_check = None
    while True:
        if decisions >= MAX_DECISIONS:
            fail("the game did not end within %d decisions" % decisions, screen)
        collect_log(screen)
        if OVER.search(last_line(screen)):
            break
        head, area = decision_lines(screen)
        if not head:
            fail("no decision head on the screen", screen)
        moves, ranges = moves_of(area)
        if not moves and not ranges:
            fail("no legal moves listed", screen)
        if resume_check is not None:
            title = [l for l in screen.split("\n") if l.startswith("Chartered:")]
            if not title or title[0] != resume_check:
                fail("the resumed game does not show the same turn: %r vs %r" % (title, resume_check), screen)
            resume_check = None
        decisions += 1
        if decisions == 15 and not saved:
            s = type_and_wait("save saved-game.json")
            if "Saved to saved-game.json" not in s:
                fail("save did not confirm", s)
            saved = True
            screen = s
            continue
        if decisions == 40 and not eof_done:
            title = [l for l in screen.split("\n") if l.startswith("Chartered:")][0]
            old = cap()
            tmux("send-keys", "-t", "t", "C-d")
            s = wait_for(SHELL, old)
            if "End of input: the game is saved in chartered-autosave.json" not in s:
                fail("end of input did not save the game", s)
            eof_done = True
            screen = start("%s play --resume chartered-autosave.json" % BIN)
            resume_check = title
            continue
        choice = pol.choose(head, moves, ranges)
        if choice is None:
            choice = moves[0][1]
        if os.environ.get("DRIVER_DEBUG"):
            sys.stderr.write("%s -> %s\n" % (head, choice))
        # play by number when listed, else by notation
        num = [n for n, t in moves if t == choice]
        text = str(num[0]) if num and rng.random() < 0.5 else choice
        prev_phase = head
        screen = type_and_wait(text, re.compile(PROMPT.pattern + "|" + OVER.pattern))
        if "Not allowed" in screen or "is not a move" in screen:
            fail("the driver's move %r was refused" % text, screen)
        # undo: right after a buy, when the next decision is again ours
        if (choice.startswith("buy ") and not pol.did["undo"] and PROMPT.search(last_line(screen))
                and decision_lines(screen)[0].startswith("Anke: trade")):
            s = type_and_wait("undo")
            if "Your last decision was undone." not in s:
                fail("undo within our own turn was refused", s)
            head2, area2 = decision_lines(s)
            if not head2.startswith("Anke: trade"):
                fail("undo did not go back to the trade decision", s)
            pol.did["undo"] = True
            pol.bought = False
            screen = s
        elif (pol.did["undo"] and not pol.did["undo_refused"] and prev_phase.startswith("Anke: trade")
                and choice == "done" and PROMPT.search(last_line(screen))):
            # the bots have played since (cards revealed): undo must refuse
            s = type_and_wait("undo")
            if "Undo refused" in s:
                pol.did["undo_refused"] = True
            elif "Your last decision was undone." in s:
                pass  # nothing was revealed in between: allowed
            screen = s
    collect_log(cap())
    log = "\n".join(log_seen)
    if not re.search(r"Final scores", screen) and "The game is over. Final scores:" not in screen:
        fail("no final scores at the end", screen)
    old = cap()
    send("save final.json")
    s = wait_for(re.compile(OVER.pattern), old)
    if "Saved to final.json" not in s:
        fail("saving at the end did not confirm", s)
    # the game can be looked back on after its end: its last moves in words
    old = cap()
    send("log 3")
    s = wait_for(re.compile(r"Press Enter to go on\.\s*$"), old)
    m = re.search(r"The game so far, move by move \((\d+) moves\):", s)
    if not m or not re.search(r"^ +%s\. " % m.group(1), s, re.M):
        fail("'log 3' at the end did not show the last moves", s)
    old = cap()
    send("")
    wait_for(re.compile(OVER.pattern), old)
    send("")
    wait_for(SHELL)
    tmux("kill-server", check=False)
    r = subprocess.run([BIN, "replay", os.path.join(WORK, "final.json")], capture_output=True, text=True)
    if r.returncode != 0:
        fail("chartered replay refused the game file: %s" % r.stderr)
    r = subprocess.run([BIN, "replay", os.path.join(WORK, "saved-game.json")], capture_output=True, text=True)
    if r.returncode != 0:
        fail("chartered replay refused the saved game: %s" % r.stderr)
    checks = {"merger": "merged" in log, "undo": pol.did["undo"], "undo refused": pol.did["undo_refused"],
              "save+resume": saved and eof_done}
    if EDITION == "amsterdam":
        checks["sealed bid"] = "placed a sealed bid" in log and pol.did["bid"]
        checks["auction"] = "auctions" in log and pol.did["auction"]
        checks["trade offer"] = "made the offer to" in log and pol.did["offer"]
        checks["merger"] = "merged into" in log
    missing = [k for k, v in checks.items() if not v]
    print("decisions %d, log lines seen %d, checks %s" % (decisions, len(log_seen), checks))
    if missing:
        fail("these did not happen: %s" % ", ".join(missing))
    print("ok")


if __name__ == "__main__":
    try:
        main()
    finally:
        tmux("kill-server", check=False)
