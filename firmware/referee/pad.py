"""The button-pad UI of the referee: selection, pages, physical dice entry, the scenario
menu, and the pad actions. :class:`Pad` is the referee's ``pad`` (app.Referee builds it):
it holds the UI state, reads the game through ``referee`` and logs events with
``referee.submit``. Its actions are :data:`ACTIONS`, run by the handlers named in
:data:`HANDLERS`; a ruleset adds its own through the keys ``opt1``..``alt4`` and ``power``
(its ``pad`` and ``power`` names, built into events by its ``pad_event``)."""

from referee.events import EV_INIT, EV_HIT, EV_COUNTER, EV_PHASE, EV_UNDO, EV_LAUNCH, NONE
from referee import extensions

# Actions a key can trigger (board profiles map key positions to these names).
ACTIONS = (
    "sel-",
    "sel+",
    "page-",
    "page+",
    "side",
    "mark",
    "unmark",
    "dmg+",
    "dmg-",
    "power",
    "launch",
    "opt1",
    "opt2",
    "opt3",
    "opt4",
    "alt1",
    "alt2",
    "alt3",
    "alt4",
    "roll",
    "enter",
    "cancel",
    "phase",
    "undo",
    "menu",
    "reveal",
    "clock",
    "net",
)
# the Pad method that runs each action, at the same index as in ACTIONS (constant names:
# kept in flash; a key is looked up only once it is known to be in ACTIONS). Each handler
# takes (game, action) and returns None or the reason the action was refused.
HANDLERS = (
    "_sel",
    "_sel",
    "_page",
    "_page",
    "_side",
    "_mark",
    "_mark",
    "_damage",
    "_damage",
    "_power",
    "_launch",
    "_ruleset_key",
    "_ruleset_key",
    "_ruleset_key",
    "_ruleset_key",
    "_ruleset_key",
    "_ruleset_key",
    "_ruleset_key",
    "_ruleset_key",
    "_roll",
    "_enter",
    "_cancel",
    "_step",
    "_step",
    "_menu_key",
    "_extension",
    "_extension",
    "_extension",
)

# the keys that set a physical d20 being entered, and what each adds to it
ENTRY_KEYS = ("dmg+", "dmg-", "sel+", "sel-")
ENTRY_STEPS = (1, -1, 5, -5)


class Pad:
    """The pad's UI state for ``referee`` (an app.Referee): ``cursor`` (selected ship),
    ``page``, ``entry`` (0, or 1/2 while entering side 0/1's physical d20 roll),
    ``entry_value``, ``menu`` (scenario names while the menu is open), ``count`` and
    ``count2`` (numbers counted on the pad for a ruleset's next action), ``die`` (a physical
    d20 entered with ``enter`` outside the initiative roll, held for the ruleset's next pad
    action that rolls one: :meth:`pad_d20`; 0 = none), ``aim_pick`` (the weapon the ``aim``
    key chose for the marked ship, not logged yet: (ship, weapon, arg) or None). The marked
    ship (attacker / counter source, or NONE) is ``referee.mark``: submit takes it back with
    the event when the journal refuses one."""

    def __init__(self, referee):
        self.referee = referee
        self.side_start = (0, 0)
        self.side_count = (0, 0)
        self.entry_value = 10
        self.entry_first = 0
        self.menu = None
        self.menu_i = 0
        self.menu_arm = None  # the menu entry a first press of enter chose (menu.py)
        self.die_used = False
        self._clear()

    def _clear(self):
        # what a new game starts without: no cursor, mark, page, entry, counts, die or aim
        self.cursor = 0
        self.referee.mark = NONE
        self.page = 0
        self.entry = 0
        self.count = 0
        self.count2 = 0
        self.die = 0
        self.entry_die = False
        self.aim_pick = None

    def reset(self, n0):
        """A new game is in play, ``n0`` of its ships on side 0: the pad starts afresh."""
        ref = self.referee
        g = ref._g()
        self.side_start = (0, n0)
        self.side_count = (n0, g.n - n0)
        self._clear()
        ref.version += 1

    # ---- pages and cursor --------------------------------------------------------------
    def pages(self):
        m = max(self.side_count[0], self.side_count[1])
        return max(1, (m + self.referee.rows_per_page - 1) // self.referee.rows_per_page)

    def _side_of(self, i):
        return 0 if i < self.side_start[1] else 1

    def _set_cursor(self, i):
        self.cursor = i
        s = self._side_of(i)
        self.page = (i - self.side_start[s]) // self.referee.rows_per_page

    def _page_to(self, p):
        pages = self.pages()
        self.page = p % pages
        s = self._side_of(self.cursor)
        first = self.page * self.referee.rows_per_page
        if first >= self.side_count[s]:
            s = 1 - s  # this side has no ships on that page: select on the other side
        self.cursor = self.side_start[s] + min(first, self.side_count[s] - 1)

    # ---- keys --------------------------------------------------------------------------
    def key(self, action):
        """Perform a button-pad ``action`` (a name in ACTIONS, or ``sel:<n>`` /
        ``markship:<n>``). Returns None or the reason it was refused (said as an error)."""
        ref = self.referee
        g = ref.game
        if g is None:
            return ref.error("no game loaded", "key")
        ref.version += 1
        for x in ref.board_extensions:  # key timing feeds the dice entropy (dice.py)
            x.stir(ref)
        if self.entry:
            return self._entry_key(action)
        if self.menu is not None or action == "menu":
            return self._menu_key(g, action)
        if action in ACTIONS:
            return getattr(self, HANDLERS[ACTIONS.index(action)])(g, action)
        if action.startswith("sel:") or action.startswith("markship:"):
            return self._ship_key(g, action)
        return ref.error("unknown key action %r" % action, "key")

    def _sel(self, g, action):
        self._set_cursor((self.cursor + (1 if action == "sel+" else -1)) % g.n)

    def _page(self, g, action):
        self._page_to(self.page + (1 if action == "page+" else -1))

    def _side(self, g, action):
        s = 1 - self._side_of(self.cursor)
        i = self.side_start[s] + self.page * self.referee.rows_per_page
        self._set_cursor(min(i, self.side_start[s] + self.side_count[s] - 1))

    def _mark(self, g, action):  # ``mark`` (again: still marked) and ``unmark``
        ref = self.referee
        ref.mark = NONE if action == "unmark" else self.cursor
        self.aim_pick = None  # an aim chosen on the pad goes with its mark

    def _damage(self, g, action):
        dph = g.settings["damage_per_hit"]
        m = self.referee.mark
        by = m if (m != NONE and g.side[m] != g.side[self.cursor]) else NONE
        ev = (EV_HIT, self.cursor, dph if action == "dmg+" else -dph, by)
        return self._act(ev) if by != NONE else self.referee.submit(ev)  # (marked ship: aim)

    def _power(self, g, action):
        return self.special(g.rules.power[1])

    def _launch(self, g, action):
        return self.referee.submit((EV_LAUNCH, self.cursor, 0, 0))

    def _ruleset_key(self, g, action):
        # opt1..opt4: a fleet command counter (the ruleset's chart), else the ruleset's own
        # action there (its ``pad``); alt1..alt4: the ruleset's own actions (``pad`` 4..7)
        k = int(action[3]) - 1
        if action[0] == "a":
            return self.special(g.rules.pad[4 + k])
        if g.option_count:
            return self.referee.submit((EV_COUNTER, self.counter_source(), k, self.cursor))
        return self.special(g.rules.pad[k])

    def _roll(self, g, action):
        return self.referee.roll_initiative()

    def _cancel(self, g, action):
        self.count2 = 0  # a turn (or behind) count being entered starts afresh

    def _ship_key(self, g, action):
        # sel:<n> selects ship n; markship:<n> selects it and marks it (or unmarks it)
        i = int(action.split(":")[1])
        if not 0 <= i < g.n:
            return self.referee.error("no ship on that key", "key")
        self._set_cursor(i)
        if action[0] == "m":
            ref = self.referee
            ref.mark = NONE if ref.mark == i else i
        return None

    def _step(self, g, action):  # ``phase`` and ``undo``
        self.aim_pick = None  # (an aim chosen on the pad and not logged goes)
        if action == "phase" or g.seq:
            return self.referee.submit((EV_PHASE if action == "phase" else EV_UNDO, 0, 0, 0))
        from referee.menu import undo_loaded  # undo right after a load from the menu

        return undo_loaded(self.referee)

    def _extension(self, g, action):  # ``reveal``, ``clock``: an extension's (extensions.py)
        ref = self.referee
        if action == "net":  # the board's address on the grid (referee/net; shares a handler)
            net = getattr(ref, "network", None)
            return ref.error("no network on this board", "key") if net is None else net.show(ref)
        try:
            x = extensions.find(ref, action)
        except ValueError as e:  # this game or board is without it: said so
            return ref.error(str(e), "key")
        return x.command(ref, g, action, None) if x is not None else None

    def _enter(self, g, action):
        """Start entering physical dice: the initiative roll's two, or after it one d20 held
        for the ruleset's next pad action that rolls one (its ``PAD_D20``)."""
        die = g.phase != 0 or g.init != NONE
        if die and not g.rules.PAD_D20:
            return self.referee.error("physical dice are entered for the initiative roll", "key")
        self.entry_die = die
        self.entry = 1 + (g.side[self.cursor] if die else 0)
        self.entry_value = 10
        return None

    def special(self, what):
        """A ruleset's own pad action (its ``pad`` and ``power``) on the selected and marked
        ships: the ruleset builds the event (or only counts on the pad)."""
        ref = self.referee
        g = ref._g()
        rules = g.rules
        mark = ref.mark
        if not what:
            return ref.error("that key does nothing in %s" % rules.name, "key")
        if what in rules.PAD_MARKED and mark == NONE:
            return ref.error("mark the acting ship first (mark), then select the target", "key")
        if what == "aim" and mark != NONE and hasattr(rules, "next_aim"):
            return self._pick_aim(g, rules)
        self.die_used = False
        r = self._act(what) if what in rules.PAD_MARKED else self._submit(self._build(what))
        if r is None and self.die_used:
            self.die = 0  # the physical die is used once, when accepted
        return r

    def _submit(self, ev):
        # a built pad event: None (only counted on the pad), a refusal text or the event
        if isinstance(ev, str):
            return self.referee.error(ev, "key")
        return self.referee.submit(ev) if ev else None

    def _build(self, what):
        # the event of ``what``: an event tuple as it is, else the ruleset's pad action's
        if isinstance(what, tuple):
            return what
        return self.referee.game.rules.pad_event(self, what, self.cursor, self.referee.mark)

    def _act(self, what):
        """The marked ship acts: ``what`` (an event, or a ruleset's pad action built by its
        ``pad_event``) after the aim the pad chose for it, both or neither: the act is built
        (its die drawn after the aim: dice.py ties a roll to the next event's number) and
        checked with the aim applied in RAM, then taken back (Game.back_to), so an act the
        rules refuse logs no ``aim`` event."""
        ref = self.referee
        g = ref._g()
        aim = self._aim_event()
        if aim is None:
            return self._submit(self._build(what))
        saved = g.checkpoint()
        r = g.submit(aim, saved)
        if r is None:
            try:
                ev = self._build(what)
                r = ev if isinstance(ev, str) else (g.check(ev) if ev else None)
            finally:
                g.back_to(saved)
        if r:
            return ref.error(r, "key")
        self.aim_pick = None
        return (ref.submit(aim) or ref.submit(ev)) if ev else None

    def _pick_aim(self, g, rules):
        """The ``aim`` key: the marked ship's next weapon (and facing or range) in the
        ruleset's cycle, chosen on the pad; logged as one ``aim`` event when that ship next
        acts (:meth:`_act`), however many presses it took to reach it."""
        m = self.referee.mark
        p = self.aim_pick
        cur = rules.aim_value(g, p[1], p[2]) if p is not None and p[0] == m else None
        w, arg = rules.next_aim(g, m, cur)
        from referee.rules.d20 import EV_AIM

        r = g.check((EV_AIM, m, w, arg))  # a destroyed ship, a game won: said now
        if r:
            return self.referee.error(r, "key")
        self.aim_pick = (m, w, arg)
        return None

    def _aim_event(self):
        """The ``aim`` event to log as the marked ship acts (the aim the pad chose for it),
        or None (then the choice goes): none chosen, another ship marked, its aim already."""
        p = self.aim_pick
        g = self.referee._g()
        if p is not None and p[0] == self.referee.mark:
            if g.rules.aim(g, p[0]) != g.rules.aim_value(g, p[1], p[2]):
                from referee.rules.d20 import EV_AIM

                return (EV_AIM, p[0], p[1], p[2])
        self.aim_pick = None
        return None

    def pad_d20(self):
        """The d20 of a ruleset's pad action: the physical die entered with ``enter`` (kept
        until an action with it is accepted), else the board's."""
        ref = self.referee
        if self.die:
            self.die_used = True
            for x in ref.board_extensions:  # marked physical in its roll record (dice.py)
                x.physical(ref, 20, self.die)
            return self.die
        return ref.dice.d20()

    def _menu_key(self, g, action):
        """The ruleset and scenario menu (long press of phase): referee/menu.py."""
        from referee import menu

        return menu.key(self.referee, action)

    def counter_source(self):
        """The ship a fleet command counter comes from: the marked ship if it is on the selected
        ship's side, else the selected ship if it has counters, else the first ship of that side
        with counters that is not destroyed (seed 000: "remove it from the ship")."""
        ref = self.referee
        g = ref._g()
        s = g.side[self.cursor]
        if ref.mark != NONE and g.side[ref.mark] == s:
            return ref.mark
        if g.counters[self.cursor] and not g.destroyed(self.cursor):
            return self.cursor
        for i in range(self.side_start[s], self.side_start[s] + self.side_count[s]):
            if g.counters[i] and not g.destroyed(i):
                return i
        return self.cursor

    def _entry_key(self, action):
        v = self.entry_value
        if action in ENTRY_KEYS:
            v += ENTRY_STEPS[ENTRY_KEYS.index(action)]
        elif action == "cancel" or action == "undo":
            self.entry = 0
            self.entry_die = False
            return None
        elif action == "enter" and self.entry_die:
            self.entry = 0  # held for the next pad action that rolls a d20
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
            return self.referee.submit((EV_INIT, self.entry_first, v, 1))
        else:
            return self.referee.error(
                "entering a d20: dmg+/dmg- (or sel+/sel- by 5) set it, "
                "enter confirms, hold enter cancels",
                "key",
            )
        self.entry_value = (v - 1) % 20 + 1
        return None
