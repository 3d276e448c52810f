"""Mode-based UI for boards whose lit keys are both the pad and the grid (Pimoroni Pico RGB
Keypad Base: 4x4 keys, one RGB LED under each).

Ships mode (the default): keys 0-11 are ships (12 per page, side 0 then side 1); the key shows
the ship's state (side colour; dim when damaged; red when destroyed; grey while aboard; white
when selected; cyan when marked). Short press selects it, long press marks it. Key 12 goes to
actions mode (long: the scenario menu), 13 next phase (long: roll initiative), 14 undo,
15 next page (long: numbers mode).

Numbers mode (hold key 15 in any mode; any key but 12-14 leaves it): round, phase and dice
without a laptop. Keys 0-3: the phases, the current one purple (more than 4 phases: the
first 4). Keys 4-7: the round in binary (8 4 2 1, white; amber on key 4 when the round is
16 or more: round mod 16 is shown). Keys 8-11 side 0's last d20 and 12-15 side 1's, in binary
(8 4 2 1) in the side's colour, bright for the initiative holder; all four white-tinted keys
add 16 (a roll of 16-20). While a physical die is being entered, its value takes the row of
that side, in white.

Actions mode: 0 dmg+, 1 dmg-, 2 full power, 3 launch, 4-7 fleet command options 1-4 (lit
while that option is free this round for the selected ship's side; long: the profile's own
actions alt1-4), 8 roll (long: reveal the dice secret, docs/dice.md), 9 enter physical
dice (long: cancel), 10 other side (long: pause or resume the clocks), 11 mark; 12 back to
ships, 13 phase, 14 undo, 15 next ship.

The scenario menu (hold key 12 in any mode; referee/menu.py) takes all 16 keys while it is
open: keys 0-11 are its entries (12 a page: the page of the chosen entry), yellow, the
chosen one white; a short press chooses one. Key 13 loads the chosen scenario; over a game
in play the first press only arms it (the entry and key 13 turn red) and a second press of
key 13 loads it, keeping the game it replaces (the menu's last entry, "previous game",
brings it back); any other key disarms. Key 14 (like undo) or key 12 leaves the menu with
the game in play as it was. Key 15 chooses the next entry (onto the next page after the
12th).

The object is both the key map (``action``) and the renderer (``render``, ``fb``) that
referee.loop.Runner takes.
"""

from referee.events import NONE
from referee.fleet import F_LAUNCHED
from referee.palette import SIDE_RGB, SIDE_DIM, RED, DIM_RED, GREY, WHITE, DIM_WHITE, YELLOW
from referee.palette import AMBER, BLUE, OFF, PURPLE, DIM_PURPLE, OPTION_RGB
from referee.palette import CYAN as MARKED, MODE_BLUE as MODE_RGB  # key 12, the mode key

SHIPS = 0
ACTIONS_MODE = 1
NUMBERS_MODE = 2
PER_PAGE = 12
# the scenario menu's keys 12-15: leave, load (twice over a game in play), leave, next entry
MENU_ACTIONS = ("menu", "enter", "undo", "sel+")
# the keys as menu.py's texts name them: (choose an entry, load it, leave the menu, open it)
MENU_WORDS = ("keys 0-11 choose a scenario (15: the next)", "key 13", "key 14", "hold key 12")
# the actions mode's keys 0-11, a line per keypad row (held, keys 4-7 are alt1-alt4 and
# keys 8-10 reveal, cancel and clock)
# fmt: off
ACTION_KEYS = (
    "dmg+", "dmg-", "power", "launch",
    "opt1", "opt2", "opt3", "opt4",
    "roll", "enter", "side", "mark",
)
# fmt: on


class KeypadUI:
    def __init__(self, app):
        self.app = app
        self.mode = SHIPS
        self.kpage = 0
        self.fb = bytearray(16 * 3)
        self.rows_per_page = PER_PAGE

    # ---- key map -----------------------------------------------------------------------
    def action(self, k, is_long):
        """Action name for key ``k``, or None when the key only changed the UI mode."""
        app = self.app
        if app.pad.menu is not None:  # the scenario menu takes every key (docstring)
            return self._menu_action(k)
        if k == 12 and is_long:
            return "menu"
        if k == 15 and is_long:
            self.mode = SHIPS if self.mode == NUMBERS_MODE else NUMBERS_MODE
            app.version += 1
            return None
        if k == 12:
            self.mode = ACTIONS_MODE if self.mode == SHIPS else SHIPS
            app.version += 1
            return None
        if k == 13:
            return "roll" if is_long else "phase"
        if k == 14:
            return "undo"
        if self.mode == NUMBERS_MODE:
            self.mode = SHIPS
            app.version += 1
            return None
        if self.mode == SHIPS:
            if k == 15:
                n = app.game.n if app.game else 0
                pages = max(1, (n + PER_PAGE - 1) // PER_PAGE)
                self.kpage = (self.kpage + 1) % pages
                app.version += 1
                return None
            i = self.kpage * PER_PAGE + k
            return ("markship:%d" if is_long else "sel:%d") % i
        if k == 15:
            return "sel+"
        if is_long and 8 <= k <= 10:  # roll, enter, side held
            return ("reveal", "cancel", "clock")[k - 8]
        if 4 <= k <= 7 and is_long:
            return "alt%d" % (k - 3)
        return ACTION_KEYS[k]

    def _menu_action(self, k):
        """The menu's action for key ``k``: ``sel:<entry>`` for keys 0-11 (the entry on that
        key, on the chosen entry's page), else MENU_ACTIONS."""
        if k < PER_PAGE:
            return "sel:%d" % (self.app.pad.menu_i // PER_PAGE * PER_PAGE + k)
        return MENU_ACTIONS[k - PER_PAGE]

    # ---- renderer ----------------------------------------------------------------------
    def _px(self, k, c):
        o = k * 3
        self.fb[o] = c[0]
        self.fb[o + 1] = c[1]
        self.fb[o + 2] = c[2]

    def render(self, app, error=False):
        g = app.game
        for k in range(16):
            self._px(k, OFF)
        if g is None:
            return self.fb
        if app.pad.menu is not None:
            self._menu(app.pad, error)
            return self.fb
        if self.mode == NUMBERS_MODE:
            self._numbers(app, g, error)
            return self.fb
        if self.mode == SHIPS:
            for k in range(PER_PAGE):
                i = self.kpage * PER_PAGE + k
                if i >= g.n:
                    break
                s = g.side[i]
                st = g.status(i)
                if i == app.pad.cursor:
                    c = WHITE
                elif i == app.mark:
                    c = MARKED
                elif st == 2:
                    c = RED
                elif not g.flags[i] & F_LAUNCHED:
                    c = GREY
                elif st == 1 or g.pending[i]:
                    c = SIDE_DIM[s]
                else:
                    c = SIDE_RGB[s]
                self._px(k, c)
            self._px(15, DIM_WHITE)
        else:
            self._px(0, RED)
            self._px(1, AMBER)
            self._px(2, BLUE)
            self._px(3, GREY)
            cur = app.pad.cursor
            s = g.side[cur] if cur != NONE else 0
            for k in range(min(g.option_count, 4)):
                if g.chart[s * g.option_count + k] == NONE:
                    self._px(4 + k, OPTION_RGB[k])
            self._px(8, WHITE)
            self._px(9, DIM_WHITE)
            self._px(10, SIDE_RGB[1 - s])
            self._px(11, YELLOW)
            self._px(15, WHITE)
        self._px(12, MODE_RGB)
        self._px(13, RED if error else (SIDE_RGB[g.init] if g.init != NONE else YELLOW))
        self._px(14, DIM_RED)
        return self.fb

    def _binary(self, k0, v, c, hi):
        """``v`` & 15 in binary on keys k0..k0+3 (8 4 2 1) in colour ``c``; keys that are off
        show ``hi`` (the 16s) when v >= 16."""
        for b in range(4):
            on = v & (8 >> b)
            if on:
                self._px(k0 + b, c)
            elif v >= 16:
                self._px(k0 + b, hi)

    def _numbers(self, app, g, error):
        nph = len(g.rules.phases)
        for k in range(min(nph, 4)):
            self._px(k, PURPLE if k == g.phase else DIM_PURPLE)
        r = g.round
        self._binary(4, r & 15, WHITE, OFF)
        if r >= 16:
            self._px(4, AMBER)
        for s in range(2):
            k0 = 8 + 4 * s
            if app.pad.entry == s + 1:
                self._binary(k0, app.pad.entry_value, WHITE, DIM_WHITE)
            elif g.rolls[s]:
                c = SIDE_RGB[s] if g.init == s else SIDE_DIM[s]
                self._binary(k0, g.rolls[s], c, DIM_WHITE)
        if error:
            self._px(0, RED)

    def _menu(self, pad, error):
        """The scenario menu on the keys (module docstring): the chosen entry's page of
        entries on keys 0-11, red when armed (key 13 again loads); the menu's keys 12-15."""
        first = pad.menu_i // PER_PAGE * PER_PAGE
        for k in range(min(len(pad.menu) - first, PER_PAGE)):
            i = first + k
            self._px(k, YELLOW if i != pad.menu_i else RED if pad.menu_arm == i else WHITE)
        self._px(12, MODE_RGB)
        self._px(13, RED if error or pad.menu_arm is not None else AMBER)
        self._px(14, DIM_RED)
        self._px(15, DIM_WHITE)
