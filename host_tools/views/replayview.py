"""The replay's terminal front end (and its web page with ``--web``): the board's grid drawn by
the firmware's own renderer, the game, the ships, the newest events, the bookmarks and where
the file breaks, fitted to the terminal (screen.py) as the simulator's and mirror's views are.

Keys: Space play/pause, Right (or n) one event on, Left (or b) one event back, r / R the next /
previous round, p / P the next / previous phase, a number then g (or Enter) that round's start,
s / e the start / end, + / - faster / slower, q quits. The stepping is host_tools.files.replay.Replay;
nothing here changes the game but through it.
"""

import json
import os
import select
import sys
import termios
import threading
import tty

from rich.console import Console
from rich.live import Live
from rich.text import Text

from host_tools.views import view
from host_tools.views.mirrorview import ship_lines
from host_tools.views.screen import Section, compose

KEY_HELP = (
    "Space play/pause  Right/n step  Left/b back  r/R next/prev round  p/P next/prev "
    "phase  N g round N  s/e start/end  +/- speed  q quit"
)
ESCAPES = {
    "\x1b[C": "right",
    "\x1b[D": "left",
    "\x1b[A": "up",
    "\x1b[B": "down",
    "\x1b[H": "home",
    "\x1b[F": "end",
    "\x1b[1~": "home",
    "\x1b[4~": "end",
    "\x1bOC": "right",
    "\x1bOD": "left",
    "\x1bOH": "home",
    "\x1bOF": "end",
}


def parse_keys(data):
    """Key names in the terminal bytes ``data`` (str): arrows and Home/End by name, other
    characters as themselves; an unknown escape sequence is dropped."""
    out = []
    i = 0
    while i < len(data):
        if data[i] == "\x1b":
            for seq, name in ESCAPES.items():
                if data.startswith(seq, i):
                    out.append(name)
                    i += len(seq)
                    break
            else:  # CSI / SS3: up to a final byte @..~; a lone Esc alone
                j = i + 1
                if data[j : j + 1] in ("[", "O"):
                    j += 1
                    while j < len(data) and not "@" <= data[j] <= "~":
                        j += 1
                i = j + 1 if j > i + 1 else i + 1
            continue
        out.append(data[i])
        i += 1
    return out


class Controls:
    """What the keys do to Replay ``rp``: :meth:`key` takes a key name and returns a note
    (str) to show. ``playing``: whether the replay runs on by itself; ``speed``: events a
    second."""

    def __init__(self, rp, speed=1.0):
        self.rp = rp
        self.playing = False
        self.speed = max(0.25, speed)
        self.number = ""
        self.quit = False

    def tick(self):
        """One event on while playing; stops playing at the end or the break."""
        if self.playing and self.rp.step() is None:
            self.playing = False

    def key(self, k):
        rp = self.rp
        if k.isdigit():
            self.number += k
            return "round %s: press g or Enter" % self.number
        if k in ("g", "\r", "\n") and self.number:
            n, self.number = int(self.number), ""
            try:
                rp.goto_round(n)
            except ValueError as e:
                return str(e)
            return "start of round %d" % n
        self.number = ""
        if k in ("q", "\x03", "\x04"):
            self.quit = True
        elif k == " ":
            self.playing = not self.playing and not rp.stopped
        elif k in ("right", "n"):
            self.playing = False
            rp.step()
        elif k in ("left", "b"):
            self.playing = False
            rp.back()
        elif k in ("r", "R", "p", "P", "down", "up"):
            self.playing = False
            kind = "round" if k in ("r", "R") else "phase"
            rp.next_mark(kind, 1 if k in ("r", "p", "down") else -1)
        elif k in ("s", "home"):
            self.playing = False
            rp.goto(0)
        elif k in ("e", "end"):
            self.playing = False
            rp.to_end()
        elif k == "+":
            self.speed = min(50.0, self.speed * 2)
        elif k == "-":
            self.speed = max(0.25, self.speed / 2)
        return ""


class ReplayScreen:
    """Builds the terminal view of Replay ``rp`` (file name ``name``)."""

    def __init__(self, rp, name, controls, console=None):
        from host_tools.views.gridface import GridFace

        self.rp = rp
        self.name = name
        self.controls = controls
        self.face = GridFace()
        self.w, self.h = self.face.w, self.face.h
        game = rp.data["game"]
        self.roster_text = json.dumps(game["roster"])
        self.scenario = self.face.set_roster(self.roster_text, game.get("scenario") or "")
        self.console = console or Console()
        self.note = ""

    def sections(self):
        rp, c = self.rp, self.controls
        g = rp.game
        head = view.header_text(g, self.scenario).split()
        state = "playing (%g events/s)" % c.speed if c.playing else "paused"
        status = [Text("replay of %s: %s, %s" % (self.name, rp.where(), state), style="bold")]
        b = rp.broken
        if rp.stopped == "broken":
            status.append(
                Text(
                    "STOPPED: event %d (round %d, %s phase) fails its check: %s"
                    % (b.seq, b.round, b.phase, b.why),
                    style="bold red",
                )
            )
        elif b is not None:
            status.append(
                Text(
                    "the file breaks at event %d (round %d, %s phase): the replay "
                    "stops there" % (b.seq, b.round, b.phase),
                    style="red",
                )
            )
        else:
            status.append(
                Text(
                    "every event checked so far matches its state hash (%d in the "
                    "file)" % rp.total,
                    style="green",
                )
            )
        if rp.stopped == "end":
            status.append(Text("end of the game", style="bold"))
        if self.note:
            status.append(Text(self.note, style="yellow"))
        marks = [m for m in rp.bookmarks() if m["round"] == g.round]
        bm = [
            Text("rounds: %s" % " ".join(str(r) for r in rp.rounds())),
            Text(
                "phases of round %d: %s"
                % (g.round, ", ".join("%s (event %d)" % (m["phase"], m["seq"]) for m in marks))
            ),
        ]
        recent = [
            Text("%d R%d %s: %s" % (r["seq"], r["round"], r["phase"], r["text"]))
            for r in rp.recent(12)
        ]
        return [
            Section(head, priority=9, keep=2),
            Section(status, priority=10, keep=len(status)),
            Section(ship_lines(g), priority=6, keep=2, what="ships"),
            Section(recent, priority=7, keep=2, tail=True, what="earlier events"),
            Section(bm, priority=5, keep=1),
            Section([Text(KEY_HELP, style="dim")], priority=8, keep=1),
        ]

    def build(self, width=None, height=None):
        size = self.console.size
        fb = self.face.render(self.rp.game, self.roster_text, self.scenario)
        return compose(
            fb,
            self.w,
            self.h,
            "board grid (replay)",
            self.sections(),
            width or size.width,
            height or size.height,
        )


class WebPublisher:
    """Publishes the replay's position into a webfeed.Feed served by host_tools/views/web.py. Going
    back renames the game for the page (``<gid>~<n>``) so that it starts its log again."""

    FIELDS = ("seq", "ev", "hash", "board_hash", "text", "round", "phase", "undone")

    def __init__(self, rp, feed, name):
        self.rp = rp
        self.feed = feed
        self.name = name
        self.rewinds = 0
        self.last = -1

    def publish(self):
        rp = self.rp
        if rp.pos < self.last:
            self.rewinds += 1
        self.last = rp.pos
        gid = "%s~%d" % (rp.data["game"].get("gid") or "replay", self.rewinds)
        recs = [{k: r[k] for k in self.FIELDS} for r in rp.records[: rp.pos]]
        self.feed.reset(gid, rp.snapshot(), recs)
        self.feed.set_link(True, "replay of %s: %s" % (self.name, rp.where()))


def start_web(rp, name, http):
    """Serve the replay on fleetref web's page in a thread; returns its WebPublisher."""
    from host_tools.views import web, webfeed
    import socket

    host, port = web.parse_http(http or web.DEFAULT_HTTP)
    try:  # a port in use is said here (the server's thread would not)
        with socket.create_server((host, port)):
            pass
    except OSError as e:
        raise OSError("cannot serve on %s:%d: %s" % (host, port, e.strerror or e))
    feed = webfeed.Feed(name)
    pub = WebPublisher(rp, feed, name)
    pub.publish()
    started = threading.Event()
    t = threading.Thread(
        target=web.serve,
        args=(feed, host, port, "fleetref replay"),
        kwargs={"started": started, "say": lambda s: None},
        daemon=True,
    )
    t.start()
    started.wait(10)
    return pub, "http://%s:%d/" % (host, port)


def run(rp, args):
    """The interactive replay (a terminal is needed). Returns the exit status."""
    fd = sys.stdin.fileno()
    if not os.isatty(fd):
        print(
            "fleetref replay: needs a terminal for its keys; --check plays it without one",
            file=sys.stderr,
        )
        return 2
    name = os.path.basename(args.game)
    pub = None
    controls = Controls(rp, args.speed)
    screen = ReplayScreen(rp, name, controls)
    if args.web:
        try:
            pub, url = start_web(rp, name, args.http)
        except (ValueError, OSError) as e:
            print("fleetref replay: %s" % e, file=sys.stderr)
            return 2
        screen.note = "web page: %s" % url
    old = termios.tcgetattr(fd)
    tty.setcbreak(fd)
    try:
        with Live(
            screen.build(), console=screen.console, auto_refresh=False, vertical_overflow="crop"
        ) as live:
            while not controls.quit:
                wait = 1.0 / controls.speed if controls.playing else None
                ready, _, _ = select.select([fd], [], [], wait)
                if ready:
                    data = os.read(fd, 64).decode("utf-8", "replace")
                    for k in parse_keys(data):
                        note = controls.key(k)
                        if note or not controls.number:
                            screen.note = note or screen.note
                else:
                    controls.tick()
                if pub is not None:
                    pub.publish()
                live.update(screen.build(), refresh=True)
    except KeyboardInterrupt:
        pass
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)
    for line in rp.summary() if rp.stopped else [rp.where()]:
        print(line)
    return 1 if rp.stopped == "broken" else 0
