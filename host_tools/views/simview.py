"""The simulator's terminal view: the LED grid, the game, the selected ship, the key legend;
the keyboard is the button pad (1234 / qwer / asdf / zxcv; shifted = long press). Arrow and
function keys are read whole (termkeys.py): Up/Down select, the rest are ignored. The view
fits the terminal (screen.py), 80×24 included."""

import asyncio
import os
import sys
import termios
import tty

from rich.console import Console
from rich.live import Live
from rich.text import Text

from host_tools.views import clockview, view
from referee.texts import hit_points, plural, possessive, ship_state, shows
from host_tools.views.screen import Section, compose
from host_tools.sim.termkeys import KeyReader, PAD_KEYS, PAD_SHIFT


class Refusals:
    """The newest refusal while it is news: it disappears as soon as a later key press or
    event succeeds (the app's ``version`` moves on without a new refusal)."""

    def __init__(self, app):
        self.app = app
        self.seen = (app.error_until, app.error_text)
        self.version = -1
        self.text = ""

    def current(self):
        """The refusal to show (str, "" when none)."""
        app = self.app
        now = (app.error_until, app.error_text)
        if now != self.seen and app.error_text:
            self.seen = now
            self.text = app.error_text
            self.version = app.version
        elif self.text and app.version != self.version:
            self.text = ""
        return self.text


def selected_line(g, i):
    """The selected ship in words: name, side, class and counters where the ruleset uses them
    (texts.shows), damage of its hit points ("6/4" only for a card with a damaged side), and
    its state in the words every view uses (texts.ship_state: "ok, ionized", "exited",
    "aboard", "in the fighter pool", "destroyed")."""
    d = g.ship_dict(i)
    sh = shows(g)
    who = g.side_names[d["side"]] + (", class %d" % d["class"] if sh["class"] else "")
    t = "selected: %s (%s): damage %d of %s hit points, pending %d" % (
        d["name"],
        who,
        d["damage"],
        hit_points(g, i),
        d["pending"],
    )
    if sh["counters"]:
        t += ", " + plural(d["counters"], "counter")
    return t + ", " + ship_state(g, i)


def boot_line(app):
    """ "Restored the game in play: N events, round R" when the board started with the game
    its flash journal kept (a power cut, a restart), else ""."""
    g = app.game
    if app.journal is None or g is None or not g.seq:  # a new game starts at event 0
        return ""
    return "Restored the game in play: %s, round %d" % (plural(g.seq, "event"), g.round)


class SimView:
    def __init__(self, app, runner, display, keys, ser, stop, changed=None, console=None):
        self.app = app
        self.boot_line = boot_line(app)  # said until the next event is played
        self.boot_seq = app.game.seq if app.game is not None else 0
        self.runner = runner
        self.display = display
        self.keys = keys
        self.ser = ser
        self.stop = stop
        self.changed = changed or asyncio.Event()  # set by the simulator's loop on a new frame
        self.note = ""
        self.console = console or Console()
        self.old = None
        km = runner.keymap
        self.reader = KeyReader(km.find if hasattr(km, "find") else None)
        self.refusals = Refusals(app)

    def legend_lines(self):
        km = self.runner.keymap
        if not hasattr(km, "find"):  # the keypad's mode-based UI: keys change with mode
            return [
                "keys 1234/qwer/asdf/zxcv, shifted = held; %s mode (see "
                "firmware/referee/keypad_ui.py)" % ("ships", "actions")[km.mode]
            ]
        out = []
        g = self.app.game
        for r in range(4):
            parts = []
            for c in range(4):
                i = r * 4 + c
                s = view.pad_label(g, km.action(i, False))
                lg = view.pad_label(g, km.action(i, True))
                parts.append("%s %s%s" % (PAD_KEYS[i], s, "" if lg == s else "/%s" % lg))
            out.append("  ".join(parts))
        out.append("shifted = held; Up/Down select; Ctrl-C quits")
        return out

    def sections(self):
        app = self.app
        g = app.game
        head = view.header_text(g, app.scenario).split()
        sel = self._selection_lines(g)
        sel += clockview.sim_lines(app)  # time banks (docs/clock.md): paused, time left
        sel += self._pad_lines(g)
        refusal = self.refusals.current()
        if refusal:
            sel.append(Text("refused: %s" % refusal, style="bold red"))
        if self.reader.last_ignored:
            sel.append(
                Text("ignored key: %s (not a pad key)" % self.reader.last_ignored, style="dim")
            )
            self.reader.last_ignored = ""
        chart = view.chart_text(g).split()
        status = Text(
            "serial %s  seq %d  hash %s  %s" % (self.ser.path, g.seq, g.state_hash(), self.note),
            style="dim",
        )
        return [
            Section(head, priority=9, keep=2),
            Section(sel, priority=8, keep=len(sel)),
            Section([x for x in chart if x.plain], priority=4, keep=0, what="chart lines"),
            Section(self.legend_lines(), priority=6, keep=1, what="key rows"),
            Section([status], priority=2, keep=0),
        ]

    def _selection_lines(self, g):
        """The boot line (until the first event), the selected ship, the marked one and the
        pad's aim not logged yet, for game ``g``."""
        app = self.app
        if self.boot_line and g.seq != self.boot_seq:
            self.boot_line = ""
        sel = [Text(self.boot_line, style="bold cyan")] if self.boot_line else []
        sel.append(Text(selected_line(g, app.pad.cursor), style="bold"))
        if app.mark != 255:
            sel.append(Text("marked: %s" % g.names[app.mark], style="magenta"))
        pick = app.pad.aim_pick
        if pick is not None and pick[0] == app.mark:  # the pad's aim, not logged yet
            sel.append(
                Text(
                    "aiming: %s %s (logged when it acts)"
                    % (possessive(g.names[pick[0]]), g.rules.aim_text(g, pick[1], pick[2])),
                    style="magenta",
                )
            )
        return sel

    def _pad_lines(self, g):
        """What the pad holds for game ``g``: its menu, the counts for the next action, a
        d20 being entered."""
        pad = self.app.pad
        out = []
        if pad.menu is not None:
            out.append(
                Text(
                    "menu: %s (sel+/sel- choose, enter loads, hold enter leaves)"
                    % pad.menu[pad.menu_i],
                    style="bold cyan",
                )
            )
        if pad.count or pad.count2:
            out.append(
                Text("counted on the pad for the next action: %d, %d" % (pad.count, pad.count2))
            )
        if pad.entry:
            out.append(
                Text(
                    "entering the %s d20: %d"
                    % (possessive(g.side_names[pad.entry - 1]), pad.entry_value),
                    style="bold",
                )
            )
        return out

    def render(self, width=None, height=None):
        app = self.app
        w = app.board["grid"]["w"]
        h = app.board["grid"]["h"]
        fb = self.display.frame or bytes(w * h * 3)
        size = self.console.size
        return compose(
            fb,
            w,
            h,
            "fleetref board (simulated)",
            self.sections(),
            width or size.width,
            height or size.height,
        )

    def _flush(self):
        self.reader.flush()

    def _on_key(self):
        try:
            data = os.read(sys.stdin.fileno(), 64)
        except OSError:
            return
        for idx, is_long in self.reader.feed(data):
            self.keys.push(idx, is_long)
        if self.reader.pending:  # a lone Esc, or the rest of a sequence is coming
            asyncio.get_running_loop().call_later(0.05, self._flush)

    async def run(self):
        loop = asyncio.get_running_loop()
        fd = sys.stdin.fileno()
        if os.isatty(fd):
            self.old = termios.tcgetattr(fd)
            tty.setcbreak(fd)
            loop.add_reader(fd, self._on_key)
        # drawn when the board drew a new frame (no refresh thread, no period); the note
        # line ("script done") is looked at once a second
        with Live(
            self.render(),
            console=self.console,
            auto_refresh=False,
            transient=False,
            vertical_overflow="crop",
        ) as live:
            while not self.stop.is_set():
                live.update(self.render(), refresh=True)
                self.changed.clear()
                try:
                    await asyncio.wait_for(self.changed.wait(), 1.0)
                except asyncio.TimeoutError:
                    pass

    def close(self):
        if self.old is not None:
            try:
                asyncio.get_event_loop().remove_reader(sys.stdin.fileno())
            except Exception:
                pass
            termios.tcsetattr(sys.stdin.fileno(), termios.TCSADRAIN, self.old)
            self.old = None
