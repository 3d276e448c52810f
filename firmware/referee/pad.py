"""The button-pad UI of the referee: selection, pages, marks, physical dice entry, the
scenario menu, and the pad actions (core ones here; a ruleset's own through its ``pad`` and
``pad_event``). A mixin of app.Referee: it reads ``game``, ``dice``, ``rows_per_page`` and
calls ``submit`` and ``error``."""

from referee.events import EV_INIT, EV_HIT, EV_COUNTER, EV_PHASE, EV_UNDO, EV_LAUNCH, NONE
from referee.appbase import AppBase
from referee.dice import fair_of, stir

# Actions a key can trigger (board profiles map key positions to these names).
ACTIONS = ("sel-", "sel+", "page-", "page+", "side", "mark", "unmark", "dmg+", "dmg-", "power",
           "launch", "opt1", "opt2", "opt3", "opt4", "alt1", "alt2", "alt3", "alt4", "roll",
           "enter", "cancel", "phase", "undo", "menu", "reveal", "clock")


class PadUI(AppBase):
    """UI state: ``cursor`` (selected ship), ``mark`` (ship marked as attacker / counter
    source, or NONE), ``page``, ``entry`` (0, or 1/2 while entering side 0/1's physical d20
    roll), ``entry_value``, ``menu`` (scenario names while the menu is open), ``count`` and
    ``count2`` (numbers counted on the pad for a ruleset's next action), ``die`` (a physical
    d20 entered with ``enter`` outside the initiative roll, held for the ruleset's next pad
    action that rolls one: :meth:`pad_d20`; 0 = none), ``aim_pick`` (the weapon the ``aim``
    key chose for the marked ship, not logged yet: (ship, weapon, arg) or None)."""

    def _pad_init(self):
        self.side_start = (0, 0)
        self.side_count = (0, 0)
        self.entry_value = 10
        self.entry_first = 0
        self.menu = None
        self.menu_i = 0
        self.menu_arm = None    # the menu entry a first press of enter chose (menu.py)
        self.kept = None        # the game the menu replaced, without a journal (menu.py)
        self.die_used = False
        self._pad_clear()

    def _pad_clear(self):
        # what a new game starts without: no cursor, mark, page, entry, counts, die or aim
        self.cursor = 0
        self.mark = NONE
        self.page = 0
        self.entry = 0
        self.count = 0
        self.count2 = 0
        self.die = 0
        self.entry_die = False
        self.aim_pick = None

    def _ui_reset(self, n0):
        g = self._g()
        self.side_start = (0, n0)
        self.side_count = (n0, g.n - n0)
        self._pad_clear()
        self.version += 1

    # ---- pages and cursor --------------------------------------------------------------
    def pages(self):
        m = max(self.side_count[0], self.side_count[1])
        return max(1, (m + self.rows_per_page - 1) // self.rows_per_page)

    def _side_of(self, i):
        return 0 if i < self.side_start[1] else 1

    def _set_cursor(self, i):
        self.cursor = i
        s = self._side_of(i)
        self.page = (i - self.side_start[s]) // self.rows_per_page

    def _page_to(self, p):
        pages = self.pages()
        self.page = p % pages
        s = self._side_of(self.cursor)
        first = self.page * self.rows_per_page
        if first >= self.side_count[s]:
            s = 1 - s   # this side has no ships on that page: select on the other side
        self.cursor = self.side_start[s] + min(first, self.side_count[s] - 1)

    # ---- keys --------------------------------------------------------------------------
    def key(self, action):  # noqa: PLR0911 (dispatch)
        """Perform a button-pad ``action`` (a name in ACTIONS). Returns None or a reason."""
        g = self.game
        if g is None:
            return self.error("no game loaded", "key")
        self.version += 1
        stir(self)              # key timing feeds the dice entropy (dice.py)
        if self.entry:
            return self._entry_key(action)
        if self.menu is not None or action == "menu":
            return self._menu_key(action)
        n = g.n
        if action == "sel+":
            self._set_cursor((self.cursor + 1) % n)
        elif action == "sel-":
            self._set_cursor((self.cursor - 1) % n)
        elif action == "page+":
            self._page_to(self.page + 1)
        elif action == "page-":
            self._page_to(self.page - 1)
        elif action == "side":
            s = 1 - self._side_of(self.cursor)
            i = self.side_start[s] + self.page * self.rows_per_page
            self._set_cursor(min(i, self.side_start[s] + self.side_count[s] - 1))
        elif action == "mark":
            self.mark = NONE if self.mark == self.cursor else self.cursor
            self.aim_pick = None            # an aim chosen on the pad goes with its mark
        elif action == "unmark":
            self.mark = NONE
            self.aim_pick = None
        elif action == "dmg+" or action == "dmg-":
            dph = g.settings["damage_per_hit"]
            by = self.mark if (self.mark != NONE and g.side[self.mark] != g.side[self.cursor]) \
                else NONE
            r = self._log_aim() if by != NONE else None     # a hit by the marked ship
            return r or self.submit((EV_HIT, self.cursor, dph if action == "dmg+" else -dph, by))
        elif action == "power":
            return self.special(g.profile.power[1])
        elif action == "launch":
            return self.submit((EV_LAUNCH, self.cursor, 0, 0))
        elif action in ("opt1", "opt2", "opt3", "opt4"):
            k = int(action[3]) - 1
            if g.nopt:
                return self.submit((EV_COUNTER, self.counter_source(), k, self.cursor))
            return self.special(g.profile.pad[k])
        elif action in ("alt1", "alt2", "alt3", "alt4"):
            return self.special(g.profile.pad[4 + int(action[3]) - 1])
        elif action == "roll":
            return self.roll_initiative()
        elif action == "enter":
            return self._enter(g)
        elif action == "cancel":
            pass
        elif action.startswith("sel:") or action.startswith("markship:"):
            i = int(action.split(":")[1])
            if not 0 <= i < n:
                return self.error("no ship on that key", "key")
            self._set_cursor(i)
            if action[0] == "m":
                self.mark = NONE if self.mark == i else i
        elif action == "phase":
            self.aim_pick = None
            return self.submit((EV_PHASE, 0, 0, 0))
        elif action == "undo":
            self.aim_pick = None
            return self.submit((EV_UNDO, 0, 0, 0)) if g.seq else self._undo_loaded()
        elif action == "clock":             # pause / resume the time banks (clock.py)
            from referee.clock import pad_key
            return pad_key(self)
        elif action == "reveal":
            f = fair_of(self)
            if f is None:
                return self.error("these dice are not committed (seeded test dice)", "key")
            f.reveal(self)
        else:
            return self.error("unknown key action %r" % action, "key")
        return None

    def _enter(self, g):
        """Start entering physical dice: the initiative roll's two, or after it one d20 held
        for the ruleset's next pad action that rolls one (its ``PAD_D20``)."""
        die = g.phase != 0 or g.init != NONE
        if die and not g.profile.PAD_D20:
            return self.error("physical dice are entered for the initiative roll", "key")
        self.entry_die = die
        self.entry = 1 + (g.side[self.cursor] if die else 0)
        self.entry_value = 10
        return None

    def special(self, what):
        """A ruleset's own pad action (its ``pad`` and ``power``) on the selected and marked
        ships: the ruleset builds the event (or only counts on the pad)."""
        g = self._g()
        rules = g.profile
        if not what:
            return self.error("that key does nothing in %s" % rules.name, "key")
        if what in rules.PAD_MARKED and self.mark == NONE:
            return self.error("mark the acting ship first (mark), then select the target", "key")
        if what == "aim" and self.mark != NONE and hasattr(rules, "next_aim"):
            return self._pick_aim(g, rules)
        if what in rules.PAD_MARKED:        # the marked ship acts: its chosen aim first
            r = self._log_aim()             # (before its die is drawn: dice.py ties a board
            if r:                           # roll to the next event's number)
                return r
        self.die_used = False
        ev = rules.pad_event(self, what, self.cursor, self.mark)
        if ev is None:
            return None
        if isinstance(ev, str):
            return self.error(ev, "key")
        r = self.submit(ev)
        if r is None and self.die_used:
            self.die = 0                # the physical die is used once, when accepted
        return r

    def _pick_aim(self, g, rules):
        """The ``aim`` key: the marked ship's next weapon (and facing or range) in the
        ruleset's cycle, chosen on the pad; logged as one ``aim`` event when that ship next
        acts (:meth:`_log_aim`), however many presses it took to reach it."""
        m = self.mark
        p = self.aim_pick
        cur = rules.aim_value(g, p[1], p[2]) if p is not None and p[0] == m else None
        w, arg = rules.next_aim(g, m, cur)
        from referee.rules.d20 import EV_AIM
        r = g.check((EV_AIM, m, w, arg))    # a destroyed ship, a game won: said now
        if r:
            return self.error(r, "key")
        self.aim_pick = (m, w, arg)
        return None

    def _log_aim(self):
        """Log the aim the pad chose for the marked ship (one ``aim`` event) as it acts;
        nothing when none is chosen, another ship is marked now or it is the ship's aim
        already. Returns None or the reason it was refused."""
        p = self.aim_pick
        self.aim_pick = None
        if p is None or p[0] != self.mark:
            return None
        g = self._g()
        rules = g.profile
        if rules.aim(g, p[0]) == rules.aim_value(g, p[1], p[2]):
            return None
        from referee.rules.d20 import EV_AIM
        return self.submit((EV_AIM, p[0], p[1], p[2]))

    def pad_d20(self):
        """The d20 of a ruleset's pad action: the physical die entered with ``enter`` (kept
        until an action with it is accepted), else the board's."""
        if self.die:
            self.die_used = True
            f = fair_of(self)
            if f is not None:           # marked physical in its roll record (docs/dice.md)
                f.physical(20, self.die)
            return self.die
        return self.dice.d20()

    def _undo_loaded(self):
        """Undo with no event: after a load from the menu, say where the replaced game is."""
        from referee import menu
        if menu.has_kept(self):
            return self.error("nothing to undo: the game replaced from the menu is kept "
                              "(hold phase, choose %s)" % menu.PREV, "key")
        return self.submit((EV_UNDO, 0, 0, 0))

    def _menu_key(self, action):
        """The ruleset and scenario menu (long press of phase): referee/menu.py."""
        from referee import menu
        return menu.key(self, action)

    def counter_source(self):
        """The ship a fleet command counter comes from: the marked ship if it is on the selected
        ship's side, else the selected ship if it has counters, else the first ship of that side
        with counters that is not destroyed (seed 000: "remove it from the ship")."""
        g = self._g()
        s = g.side[self.cursor]
        if self.mark != NONE and g.side[self.mark] == s:
            return self.mark
        if g.cc[self.cursor] and not g.destroyed(self.cursor):
            return self.cursor
        for i in range(self.side_start[s], self.side_start[s] + self.side_count[s]):
            if g.cc[i] and not g.destroyed(i):
                return i
        return self.cursor

    def _entry_key(self, action):
        v = self.entry_value
        if action == "dmg+":
            v += 1
        elif action == "dmg-":
            v -= 1
        elif action == "sel+":
            v += 5
        elif action == "sel-":
            v -= 5
        elif action == "cancel" or action == "undo":
            self.entry = 0
            self.entry_die = False
            return None
        elif action == "enter" and self.entry_die:
            self.entry = 0                  # held for the next pad action that rolls a d20
            self.entry_die = False
            self.die = v
            return None
        elif action == "enter":
            if self.entry == 1:
                self.entry_first = v
                self.entry = 2
                self.entry_value = 10
                return None
            self.entry = 0
            return self.submit((EV_INIT, self.entry_first, v, 1))
        else:
            return self.error("entering a d20: dmg+/dmg- (or sel+/sel- by 5) set it, enter "
                              "confirms, hold enter cancels", "key")
        self.entry_value = (v - 1) % 20 + 1
        return None
