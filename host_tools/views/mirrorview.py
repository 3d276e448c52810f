"""``fleetref mirror``: follow a board's game live over USB serial (or a simulator's
pseudo-terminal), replaying its events through the same rules core (host_tools/link/mirror.py) and
comparing state hashes. The live view shows the board's grid, the game, the ships, the newest
events and refusals, the link and hash check. It fits the terminal (screen.py), 80x24
included: the ship list and the log collapse to "... N more" lines rather than run off the
screen. A refusal goes away once the board applies a later event; a new game on the board is
announced. When the host's rules and the board's disagree even after a replay from the start
and after taking the board's state, it stops with an error (exit status 3)."""

import json
import sys
from typing import TYPE_CHECKING

import serial
from rich.console import Console
from rich.live import Live
from rich.text import Text

from host_tools import userfiles
from host_tools.argtypes import MAX_BAUD, add_port_argument, whole_number
from host_tools.views import clockview, view
from host_tools.views.gridface import GridFace
from host_tools.link.mirror import Disagreement, Mirror, MirrorError, find_port
from host_tools.views.screen import Section, compose
from referee.texts import plural, ship_state, shows

COMMAND = "mirror"  # fleetref mirror; SUMMARY: its line in fleetref --help (cli.py)
SUMMARY = "follow a board's game live over USB serial"

if TYPE_CHECKING:
    from collections.abc import Callable


def ship_lines(g):
    """One line per ship of game ``g``: side, name, damage of its hit points, counters (where
    the ruleset has them: texts.shows), state."""
    out = []
    cc = shows(g)["counters"]
    for i in range(g.n):
        d = g.ship_dict(i)
        tot = sum(d["hp"])
        extra = ""
        if g.active == i:
            extra += " firing"
        style = "dim" if d["status"] == "destroyed" else ""
        out.append(
            Text(
                "%s %s: %d/%d dmg%s, %s%s%s"
                % (
                    "<" if g.side[i] == 0 else ">",
                    d["name"],
                    d["damage"],
                    tot,
                    (" +%d" % d["pending"]) if d["pending"] else "",
                    "cc %d, " % d["counters"] if cc else "",
                    ship_state(g, i),
                    extra,
                ),
                style=style,
            )
        )
    return out


class MirrorScreen:
    """Builds the view of Mirror ``m`` (see mirror.Mirror) for a terminal of a given size."""

    def __init__(self, m, console=None):
        self.m = m
        self.face = GridFace()
        self.w, self.h = self.face.w, self.face.h
        self.console = console or Console()
        self.err_seen = 0  # refusals seen so far
        self.err_seq = None  # the seq when the newest refusal came
        self.game_notes = []  # "new game ..." lines
        self.gid = None
        # optional callable -> Section shown first (the demo's story)
        self.extra = None  # type: Callable[[], Section] | None
        self.warnings = []  # the mirror's newest warnings (live_view sends them here)
        self._note_seq = None  # (link note, the seq when it came)

    def warn(self, text):
        """A warning of the mirror, shown in the view (the newest three) rather than printed
        above it, where it would stay; the link's own lines (lost, the board found on another
        port) show as ``link_note`` instead and go once the link is back; a new game is said
        by the view itself."""
        if (
            text == self.m.link_note
            or text.startswith("NEW GAME")
            or "is gone; now following" in text
        ):
            return
        self.warnings.append(text)
        del self.warnings[:-3]

    def _link_note(self, g):
        """The link's line: while it is lost, and what came back until play goes on."""
        m = self.m
        if not m.link_note:
            return []
        if not m.connected:
            return [Text(m.link_note, style="yellow")]
        if self._note_seq is None or self._note_seq[0] != m.link_note:
            self._note_seq = (m.link_note, g.seq)
        if g.seq > self._note_seq[1]:
            return []
        return [Text(m.link_note, style="bold cyan")]

    def _refusals(self, g):
        errs = self.m.rep.errors
        n = len(errs)
        if errs and (n != self.err_seen or errs[-1] is not getattr(self, "_last", None)):
            self.err_seen = n
            self._last = errs[-1]
            self.err_seq = g.seq
        if self.err_seq is None or g.seq > self.err_seq:
            return []  # an event applied since: the refusal is old news
        return [Text("refused: " + errs[-1], style="bold red")] if errs else []

    def ship_lines(self, g):
        return ship_lines(g)

    def sections(self):
        m = self.m
        rep = m.rep
        g = rep.game
        self._note_new_game(rep)
        head = view.header_text(g, rep.scenario).split()
        hs = self._status_line(g)
        notes = [Text(n, style="bold yellow") for n in self.game_notes + self.warnings]
        notes += self._link_note(g)  # "link lost ...", or the restore (mirror.py)
        if rep.decided is not None and g.winner() is not None:  # the deciding moment
            notes.append(
                Text(
                    "GAME OVER in round %d: %s" % (rep.decided["round"], rep.decided["text"]),
                    style="bold green",
                )
            )
        hist = []
        if rep.history:
            hist = [
                Text(
                    "initiative rolls: "
                    + ", ".join("round %d %d/%d" % r for r in rep.history[-6:])
                )
            ]
        chart = [x for x in view.chart_text(g).split() if x.plain]
        recent = [Text("%d %s" % r) for r in rep.recent_texts()]
        extra = [self.extra()] if self.extra is not None else []
        # beside a story that tells the events (the demo's), the ships outrank it and the
        # event list may go: the story gives up its older lines first
        told = bool(extra)
        return extra + [
            Section(head, priority=9, keep=2),
            Section(notes + self._refusals(g), priority=10, keep=len(notes) + 1),
            Section(self.ship_lines(g), priority=12 if told else 6, keep=2, what="ships"),
            Section(
                recent,
                priority=1 if told else 7,
                keep=0 if told else 2,
                tail=True,
                what="earlier events",
            ),
            Section(chart, priority=3, keep=0, what="chart lines"),
            Section(hist, priority=2, keep=0),
            Section([hs], priority=8, keep=1),
        ]

    def _note_new_game(self, rep):
        """A new game on the board (replica ``rep``) is said in the notes (the last two)."""
        if rep.gid != self.gid:
            if self.gid is not None:
                self.game_notes.append(
                    "NEW GAME %s (%s): was %s" % (rep.gid, rep.scenario, self.gid)
                )
                del self.game_notes[:-2]
            self.gid = rep.gid

    def _status_line(self, g):
        """The link's line: connected or not, the game, the hash checks, the committed dice
        (docs/dice.md) and the clocks (docs/clock.md) of game ``g``."""
        m = self.m
        rep = m.rep
        link = "connected" if m.connected else "DISCONNECTED (retrying)"
        hs = Text("%s %s, game %s, seq %d, " % (link, m.port, rep.gid, g.seq))
        if rep.mismatches:
            hs.append(
                plural(len(rep.mismatches), "HASH MISMATCH", "HASH MISMATCHES"), style="bold red"
            )
        else:
            hs.append("hashes agree (%d checked)" % rep.checked, style="green")
        dv = rep.dicelog.view()  # committed dice (docs/dice.md)
        if dv["commit"]:
            hs.append(", dice commit %s.. (epoch %d)" % (dv["commit"][:12], dv["epoch"]))
            if dv["bad"]:
                hs.append(
                    " " + plural(len(dv["bad"]), "DICE MISMATCH", "DICE MISMATCHES"),
                    style="bold red",
                )
            elif dv["verified"] is not None:
                hs.append(" %s verified" % plural(dv["verified"], "roll"), style="green")
            if dv["unchecked"]:  # a restart lost their secret or their record
                hs.append(" %d CANNOT BE CHECKED" % dv["unchecked"], style="bold yellow")
        ck = clockview.view(m)  # time banks (docs/clock.md)
        if ck:
            clockview.append(hs, ck, g.side_names)
        return hs

    def build(self, width=None, height=None):
        m = self.m
        g = m.rep.game
        size = self.console.size
        width = width or size.width
        height = height or size.height
        if g is None:  # no game yet: what the link is doing
            t = Text("waiting for %s ..." % m.port)
            if m.link_note:
                t.append("\n" + m.link_note, style="yellow")
            return t
        clockview.host_clock(m)  # the grid's clocks: as the board has them
        rep = m.rep
        fb = self.face.render(g, rep.roster_text, rep.scenario, clocks=rep)
        return compose(fb, self.w, self.h, "board grid (mirrored)", self.sections(), width, height)


def live_view(m, stop):
    """Draws ``m`` until ``stop()``: only when the mirror says something changed (no refresh
    thread, no period), so an idle mirror costs no CPU."""
    screen = MirrorScreen(m)
    m.warn = screen.warn
    with Live(
        screen.build(), console=screen.console, auto_refresh=False, vertical_overflow="crop"
    ) as live:

        def upd(_m):
            live.update(screen.build(), refresh=True)

        m.follow(upd, clockview.ticking(m, stop))  # (a running clock: once a second)
        live.update(screen.build(), refresh=True)


def add_arguments(p):
    add_port_argument(p)
    p.add_argument(
        "--log",
        help="write the event log here as JSON lines, the dice lines "
        "(roll, reveal, commitments) too: fleetref verify, dicestats, report read it",
    )
    p.add_argument("--once", action="store_true", help="sync, print one snapshot and exit")
    p.add_argument("--json", action="store_true", help="with --once: print JSON")
    p.add_argument("--baud", type=whole_number(1, MAX_BAUD), default=115200)


def open_log(m, path):
    """Resume ``m``'s replica from the ``--log`` file ``path`` (if any) and open it to append.
    Called once the port is open, so a port that cannot be had leaves no log behind and an
    existing one as it was. Returns False (after one line on stderr) when it cannot be written."""
    if not path:
        return True
    try:
        m.resume_from_log(path)
        m.log = open(path, "a")
    except OSError as e:
        return log_refused(path, e.strerror or e)
    except userfiles.FileRefused as e:
        return log_refused(path, e)
    return True


def log_refused(path, why):
    """Say in one line that the log at ``path`` cannot be written, and why; returns False."""
    print("fleetref mirror: cannot write the log %s: %s" % (path, why), file=sys.stderr)
    return False


def main(args):
    try:
        port = (
            find_port(lambda note: print("fleetref mirror: " + note, file=sys.stderr))
            if args.port == "auto"
            else args.port
        )
    except MirrorError as e:
        print("fleetref mirror: %s" % e, file=sys.stderr)
        return 2
    problem = args.log and userfiles.log_problem(args.log)
    if problem:  # said before the port is opened; nothing is created
        log_refused(args.log, problem)
        return 2
    m = Mirror(port, baud=args.baud, auto=args.port == "auto")
    if args.once:
        try:
            m.open()
            if not open_log(m, args.log):
                return 2
            m.sync()
            bs = m.board_snapshot()
            m.rep.board_hash = bs["state_hash"]
        except MirrorError as e:
            print("fleetref mirror: %s" % e, file=sys.stderr)
            return 2
        except (serial.SerialException, OSError) as e:  # a pulled cable, a board reset
            print("fleetref mirror: the link to the board was lost (%s)" % e, file=sys.stderr)
            return 2
        finally:
            m.close()
        snap = m.snapshot()
        if args.json:
            print(json.dumps(snap))
        else:
            c = Console()
            c.print(view.header_text(m.rep.game, m.rep.scenario))
            c.print(view.ships_table(m.rep.game))
            c.print("state_hash %s (board %s)" % (snap["state_hash"], snap["board_hash"]))
        return 0 if snap["hash_match"] else 3
    try:
        m.open()  # a board that cannot be had is said at once
        if not open_log(m, args.log):
            return 2
        live_view(m, None)
    except KeyboardInterrupt:
        pass
    except MirrorError as e:  # following again would not help
        print("fleetref mirror: %s" % e, file=sys.stderr)
        return 3 if isinstance(e, Disagreement) else 2
    finally:
        m.close()
    return 0
