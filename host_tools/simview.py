"""The simulator's terminal view: the LED grid, the selected ship, the key legend; the
keyboard is the button pad (1234 / qwer / asdf / zxcv; shifted = long press)."""

import asyncio
import os
import sys
import termios
import tty

from rich.console import Console, Group
from rich.live import Live
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from host_tools import view
from host_tools.sim import PAD_KEYS, PAD_SHIFT


class SimView:
    def __init__(self, app, runner, display, keys, ser, stop, changed=None):
        self.app = app
        self.runner = runner
        self.display = display
        self.keys = keys
        self.ser = ser
        self.stop = stop
        self.changed = changed or asyncio.Event()   # set by the simulator's loop on a new frame
        self.note = ""
        self.console = Console()
        self.old = None

    def legend(self):
        km = self.runner.keymap
        if not hasattr(km, "find"):      # the keypad's mode-based UI: keys change with mode
            return Text("keypad, %s mode: keys 1234/qwer/asdf/zxcv, shifted = held. "
                        "See firmware/referee/keypad_ui.py" % ("ships", "actions")[km.mode])
        tab = Table(show_header=False, show_edge=False, padding=(0, 1))
        for r in range(4):
            row = []
            for c in range(4):
                i = r * 4 + c
                g = self.app.game
                s = view.pad_label(g, km.action(i, False))
                lg = view.pad_label(g, km.action(i, True))
                row.append("%s %s%s" % (PAD_KEYS[i], s, "" if lg == s else " (%s %s)" % (PAD_SHIFT[i], lg)))
            tab.add_row(*row)
        return tab

    def render(self):
        app = self.app
        g = app.game
        w = app.board["grid"]["w"]
        h = app.board["grid"]["h"]
        fb = self.display.frame or bytes(w * h * 3)
        info = Text()
        info.append_text(view.header_text(g, app.scenario))
        i = app.cursor
        d = g.ship_dict(i)
        info.append("selected: %s (%s, class %d) damage %d/%d pending %d, counters %d, %s\n"
                    % (d["name"], g.side_names[d["side"]], d["class"], d["damage"],
                       sum(d["hp"]), d["pending"], d["counters"], d["status"]))
        if app.mark != 255:
            info.append("marked: %s\n" % g.names[app.mark], style="yellow")
        if app.menu is not None:
            info.append("menu: %s  (sel+/sel- choose, enter loads, hold enter leaves)\n"
                        % app.menu[app.menu_i], style="bold yellow")
        if app.count or app.count2:
            info.append("counted on the pad for the next action: %d, %d\n"
                        % (app.count, app.count2))
        if app.entry:
            info.append("entering %s's d20: %d\n" % (g.side_names[app.entry - 1], app.entry_value),
                        style="bold")
        if app.showing_error() or app.error_text:
            info.append("last refusal: %s\n" % app.error_text, style="red")
        info.append("serial: %s   seq %d   hash %s  %s\n" % (self.ser.path, g.seq, g.state_hash(),
                                                         self.note))
        info.append_text(view.chart_text(g))
        return Group(Panel(view.grid_text(fb, w, h), title="fleetref board (simulated)",
                           expand=False), info, self.legend(),
                     Text("Ctrl-C quits", style="dim"))

    def _on_key(self):
        try:
            data = os.read(sys.stdin.fileno(), 64).decode("utf-8", "ignore")
        except OSError:
            return
        for ch in data:
            if ch in PAD_KEYS:
                self.keys.push(PAD_KEYS.index(ch), False)
            elif ch in PAD_SHIFT:
                self.keys.push(PAD_SHIFT.index(ch), True)

    async def run(self):
        loop = asyncio.get_running_loop()
        fd = sys.stdin.fileno()
        if os.isatty(fd):
            self.old = termios.tcgetattr(fd)
            tty.setcbreak(fd)
            loop.add_reader(fd, self._on_key)
        # drawn when the board drew a new frame (no refresh thread, no period); the note
        # line ("script done") is looked at once a second
        with Live(self.render(), console=self.console, auto_refresh=False,
                  transient=False) as live:
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
