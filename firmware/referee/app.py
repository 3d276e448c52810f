"""The referee application: one game, the button-pad UI and the serial protocol.

The same object runs on the Pico (``main.py`` with real drivers) and in the laptop simulator
(virtual drivers). It never touches hardware: keys arrive as action names, serial lines as
strings, and output leaves through ``send`` (a callable taking one str line, no newline).
"""

from referee import FW_VERSION, PROTO_VERSION, profiles, scenarios
from referee import protocol
from referee.game import (Game, NONE, EV_INIT, EV_HIT, EV_COUNTER, EV_PHASE, EV_UNDO, EV_POWER,
                          EV_LAUNCH, EV_NAMES, EV_AIM, EV_ATTACK, EV_TRANSFER, EV_MOVE,
                          EV_RESPONSE, EV_OVERLAP, EV_CHOOSE, EV_DONE, EV_EXIT, EV_ION)

# Actions a key can trigger (board profiles map key positions to these names).
ACTIONS = ("sel-", "sel+", "page-", "page+", "side", "mark", "unmark", "dmg+", "dmg-", "power",
           "launch", "opt1", "opt2", "opt3", "opt4", "alt1", "alt2", "alt3", "alt4", "roll",
           "enter", "cancel", "phase", "undo", "menu")

ERROR_MS = 1200


def _hex(data):
    return "".join(["%02x" % x for x in data])


class Referee:
    """Game + UI state + protocol.

    ``board``: board profile dict (``name``, ``grid`` {``w``, ``h``}, ``keys``).
    ``scenario_dir``: directory of scenario JSON files (str). ``send``: callable(str).
    ``dice``: a dice.Dice. ``rows_per_page``: ships shown per side per page.
    UI state: ``cursor`` (selected ship), ``mark`` (ship marked as attacker / counter source, or
    NONE), ``page``, ``entry`` (0, or 1/2 while entering side 0/1's physical d20 roll),
    ``entry_value``. ``version`` increases on every visible change (the render task watches it).
    """

    def __init__(self, board, scenario_dir, send, dice, rows_per_page):
        self.board = board
        self.scenario_dir = scenario_dir
        self.send = send
        self.dice = dice
        self.rows_per_page = rows_per_page
        self.game = None
        self.raw_text = ""
        self.scenario = ""
        self.gid = ""
        self.cursor = 0
        self.mark = NONE
        self.page = 0
        self.entry = 0
        self.entry_value = 10
        self.entry_first = 0
        self.side_start = (0, 0)
        self.side_count = (0, 0)
        self.version = 0
        self.menu = None        # list of scenario names while the menu is open
        self.menu_i = 0
        self.turns = 0          # squadrons-d6: turns to record with the next move
        self.error_text = ""
        self.error_until = 0
        self.now_ms = 0
        self.on_event = None   # optional callable(seq, ev), e.g. the simulator's full record
        self.journal = None    # optional journal.Journal: every event goes to flash
        self.boot_note = ""    # what a damaged journal lost at boot (said after every hello)

    # ---- set-up ------------------------------------------------------------------------
    def load_text(self, text, ruleset=None, scenario=""):
        """Start a new game from roster JSON ``text``. Raises ValueError (RosterError) when bad,
        leaving the current game as it was."""
        norm, raw = scenarios.load_text(text, ruleset)
        game = Game(profiles.get(norm["ruleset"]), norm)
        self.game = game
        self.raw_text = protocol.encode(raw)
        self.scenario = scenario or norm["name"]
        self.gid = "%08x" % self.dice.source.next32()
        n0 = len(norm["sides"][0]["ships"])
        self._ui_reset(n0)
        if self.journal is not None:
            self.journal.new_game(self.game_line(), game)
        self.send_game()
        return game

    def _ui_reset(self, n0):
        g = self._g()
        self.side_start = (0, n0)
        self.side_count = (n0, g.n - n0)
        self.cursor = 0
        self.mark = NONE
        self.page = 0
        self.entry = 0
        self.version += 1

    def restore(self):
        """Restore the journal's game after a reset or power cut: the longest prefix that
        checks (journal.py). Returns the events recovered. A damaged journal is repaired (its
        files kept aside) and ``boot_note`` says what was kept and lost. Raises ValueError
        (journal.JournalError) / OSError when there is no usable journal."""
        import json
        j = self.journal
        if j is None:
            raise ValueError("no journal")
        line = j.setup()
        if not line:
            raise ValueError("no saved game")
        msg = json.loads(line)
        norm, raw = scenarios.load_text(protocol.encode(msg["roster"]))
        game = Game(profiles.get(norm["ruleset"]), norm)
        n = j.restore(game)
        if j.problems:
            j.repair(game)
            self.boot_note = j.report(n)
        self.game = game
        self.raw_text = protocol.encode(raw)
        self.scenario = msg.get("scenario") or norm["name"]
        self.gid = msg["gid"]
        self._ui_reset(len(norm["sides"][0]["ships"]))
        return n

    def boot(self, scenario):
        """At power-up: restore the journal's game, or load ``scenario`` when the journal holds
        none. A journal whose set-up is unreadable is set aside (never overwritten) and said so;
        only then is ``scenario`` loaded. Raises OSError / ValueError for a bad ``scenario``."""
        j = self.journal
        if j is not None:
            try:
                if j.setup() is not None:
                    self.restore()
                    if self.boot_note:
                        self.journal_error()
                    return
            except (ValueError, KeyError, TypeError, IndexError, OSError) as e:
                try:
                    where = j.set_aside()
                except OSError:
                    where = "place (set-aside failed)"
                self.boot_note = ("journal damaged: no game restored (%s); damaged files kept in "
                                  "%s; new game %s started" % (e, where, scenario))
        self.load_scenario(scenario)
        if self.boot_note:
            self.journal_error()

    def journal_error(self):
        """Say ``boot_note`` over serial (an ``err`` line, code "journal") and on the grid."""
        self.error_text = self.boot_note
        self.error_until = self.now_ms + 5 * ERROR_MS
        self.version += 1
        self.send(self.journal_line())

    def journal_line(self):
        return protocol.encode({"t": "err", "src": "boot", "code": "journal",
                                "msg": self.boot_note})

    def load_scenario(self, name, ruleset=None):
        """Load scenario file ``name`` (e.g. "hoth"). Raises OSError / ValueError."""
        return self.load_text(scenarios.read(name, self.scenario_dir), ruleset, name)

    def set_journal(self, journal):
        """Send every event to ``journal`` (a journal.Journal) from now on."""
        self.journal = journal

    def _g(self):
        # type: () -> Game
        """The current game; raises ValueError("no game loaded") before one is loaded."""
        g = self.game
        if g is None:
            raise ValueError("no game loaded")
        return g

    # ---- output ------------------------------------------------------------------------
    def _out(self, obj):
        self.send(protocol.encode(obj))

    def hello(self):
        g = self.game
        self._out({"t": "hello", "proto": PROTO_VERSION, "fw": FW_VERSION,
                   "board": self.board.get("name", "?"),
                   "ruleset": g.profile.name if g else None, "scenario": self.scenario,
                   "gid": self.gid, "seq": g.seq if g else 0})
        if self.boot_note:
            self.send(self.journal_line())

    def game_line(self):
        """The ``game`` message as one line (raw_text is already printable JSON)."""
        g = self._g()
        return ('{"t": "game", "gid": "%s", "scenario": %s, "seq": %d, "hash": "%s", "roster": %s}'
                % (self.gid, protocol.encode(self.scenario), g.seq, g.state_hash(),
                   self.raw_text))

    def send_game(self):
        self.send(self.game_line())

    def send_state(self):
        """The ``state`` message: base state, RAM window with its hashes and the undo stack
        (hex), for a host that fell behind further than the events still held."""
        g = self._g()
        base = g._base
        hexs = "null" if base is None else '"%s"' % _hex(base)
        self.send('{"t": "state", "gid": "%s", "base_seq": %d, "base": %s, "window": "%s", '
                  '"hashes": "%s", "eff": [%s], "seq": %d, "hash": "%s"}'
                  % (self.gid, g.base_seq, hexs, _hex(g._w), _hex(g.hlog),
                     ", ".join([str(i) for i in g.eff]), g.seq, g.state_hash()))

    def send_event(self, seq):
        g = self._g()
        ev = g.event(seq)
        self.send('{"t": "ev", "gid": "%s", "seq": %d, "ev": [%d, %d, %d, %d], "hash": "%s"}'
                  % (self.gid, seq, ev[0], ev[1], ev[2], ev[3], g.event_hash(seq)))

    def error(self, msg, origin, cmd=None):
        """Report a refused action: an ``err`` line and the error row on the grid."""
        self.error_text = msg
        self.error_until = self.now_ms + ERROR_MS
        self.version += 1
        obj = {"t": "err", "src": origin, "msg": msg}
        if cmd is not None:
            obj["c"] = cmd
        self._out(obj)
        return msg

    def showing_error(self):
        return self.error_until > self.now_ms

    # ---- events ------------------------------------------------------------------------
    def submit(self, ev, origin="key", cmd=None):
        """Submit event tuple ``ev``; broadcasts it (or an error). Returns None or the reason."""
        g = self.game
        if g is None:
            return self.error("no game loaded", origin, cmd)
        r = g.submit(ev)
        if r:
            return self.error(r, origin, cmd)
        if ev[0] == EV_PHASE:
            self.mark = NONE
        self.version += 1
        ev = g.event(g.seq)
        if self.journal is not None:
            try:
                self.journal.append(g, g.seq, ev)
            except OSError as e:
                self.error("journal: %s (the game goes on; flash not updated)" % e, "task")
        if self.on_event is not None:
            self.on_event(g.seq, ev)
        self.send_event(g.seq)
        return None

    def roll_initiative(self, origin="key", cmd=None):
        """Roll a d20 per side with the board's dice (seed 000 "initiative check")."""
        return self.submit((EV_INIT, self.dice.d20(), self.dice.d20(), 0), origin, cmd)

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
    def key(self, action):
        """Perform a button-pad ``action`` (a name in ACTIONS). Returns None or a reason."""
        g = self.game
        if g is None:
            return self.error("no game loaded", "key")
        self.version += 1
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
        elif action == "unmark":
            self.mark = NONE
        elif action == "dmg+" or action == "dmg-":
            dph = g.settings["damage_per_hit"]
            by = self.mark if (self.mark != NONE and g.side[self.mark] != g.side[self.cursor]) \
                else NONE
            return self.submit((EV_HIT, self.cursor, dph if action == "dmg+" else -dph, by))
        elif action == "power":
            if g.profile.capital_phase >= 0:
                return self.submit((EV_POWER, self.cursor, 0, 0))
            return self.submit((EV_MOVE, self.cursor, 1, 0))   # an activation's move
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
            if g.phase != 0 or g.init != NONE:
                return self.error("physical dice are entered for the initiative roll", "key")
            self.entry = 1
            self.entry_value = 10
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
            return self.submit((EV_PHASE, 0, 0, 0))
        elif action == "undo":
            return self.submit((EV_UNDO, 0, 0, 0))
        else:
            return self.error("unknown key action %r" % action, "key")
        return None

    def special(self, what):
        """A profile's own pad action (profiles.Profile.pad) on the selected and marked ships."""
        g = self._g()
        i = self.cursor
        m = self.mark
        if not what:
            return self.error("that key does nothing in %s" % g.profile.name, "key")
        if what in ("attack", "aim", "transfer", "rapid", "counter", "overlap") and m == NONE:
            return self.error("mark the acting ship first (mark), then select the target", "key")
        if what == "attack":
            return self.submit((EV_ATTACK, m, self.dice.d20(), i))
        if what == "aim":
            w, arg = g.profile.next_aim(g, m)
            return self.submit((EV_AIM, m, w, arg))
        if what == "transfer":
            return self.submit((EV_TRANSFER, m, g.settings["damage_per_hit"], i))
        if what == "move":
            return self.submit((EV_MOVE, i, 1, 0))
        if what in ("attack-speed", "full-throttle", "stop"):
            mode = ("attack-speed", "full-throttle", "stop").index(what) + 1
            turns = self.turns
            self.turns = 0      # counted afresh for every move (unused turns are lost)
            return self.submit((EV_MOVE, i, mode, turns))
        if what == "turn+":
            self.turns = (self.turns + 1) % 10
            return None
        if what == "rapid":
            return self.submit((EV_RESPONSE, m, 2, i))
        if what == "counter":
            return self.submit((EV_RESPONSE, m, 1, i))
        if what == "exit":
            return self.submit((EV_EXIT, i, 1, 0))
        if what == "port":
            return self.submit((EV_EXIT, i, 2, 0))
        if what == "ion":
            return self.submit((EV_ION, i, self.dice.d20(), 0))
        if what == "done":
            return self.submit((EV_DONE, g.active if g.active != NONE else i, 0, 0))
        if what == "choose":
            return self.submit((EV_CHOOSE, g.side[i], 0, 0))
        if what == "overlap":
            from referee.rules_xwing import overlap_dice
            n = overlap_dice(g.size[m], g.size[i])
            hits = crits = 0
            for _ in range(n):
                f = self.dice.roll(8)
                if f <= 3:
                    hits += 1
                elif f == 4:
                    crits += 1
            return self.submit((EV_OVERLAP, m, hits | (crits << 4), i))
        return self.error("unknown pad action %r" % what, "key")

    def _menu_key(self, action):
        """The ruleset and scenario menu (long press of phase): sel+/sel- choose, enter loads,
        cancel or undo leaves."""
        if self.menu is None:
            self.menu = scenarios.list_names(self.scenario_dir)
            self.menu_i = 0
            return None
        if action in ("sel+", "dmg+"):
            self.menu_i = (self.menu_i + 1) % len(self.menu)
        elif action in ("sel-", "dmg-"):
            self.menu_i = (self.menu_i - 1) % len(self.menu)
        elif action in ("cancel", "undo", "menu"):
            self.menu = None
        elif action == "enter":
            name = self.menu[self.menu_i]
            self.menu = None
            try:
                self.load_scenario(name)
            except (ValueError, OSError) as e:
                return self.error("cannot load %s: %s" % (name, e), "key")
        else:
            return self.error("menu: sel+/sel- choose a scenario, enter loads it, hold enter "
                              "to leave", "key")
        return None

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

    # ---- serial commands ---------------------------------------------------------------
    def handle_line(self, line):
        """Handle one host line (str). Never raises: bad input gets an ``err`` line back and
        changes nothing."""
        try:
            msg = protocol.decode(line)
        except protocol.ProtocolError as e:
            self.error(str(e), "serial")
            return
        c = msg["c"]
        try:
            self._command(c, msg)
        except (ValueError, TypeError, KeyError, IndexError, OSError) as e:
            self.error("%s: %s" % (type(e).__name__, e), "serial", c)

    def _ship_arg(self, msg, key="ship"):
        v = msg.get(key)
        g = self._g()
        if isinstance(v, str):
            for i in range(g.n):
                if g.names[i] == v:
                    return i
            raise ValueError("no ship named %r" % v)
        if not isinstance(v, int) or isinstance(v, bool) or v < 0 or v >= g.n:
            raise ValueError("%r must be a ship index 0..%d or name" % (key, g.n - 1))
        return v

    def _int_arg(self, msg, key, default, lo, hi):
        v = msg.get(key, default)
        if not isinstance(v, int) or isinstance(v, bool) or v < lo or v > hi:
            raise ValueError("%r must be an integer %d..%d" % (key, lo, hi))
        return v

    def _ext_event(self, c, msg):
        """The event of a profile command (docs/protocol.md). Raises ValueError."""
        g = self._g()
        ia = self._int_arg
        if c == "aim":
            return (EV_AIM, self._ship_arg(msg), ia(msg, "weapon", 0, 0, 7), ia(msg, "arg", 0, 0, 254))
        if c == "attack":
            roll = msg.get("roll")
            roll = self.dice.d20() if roll is None else ia(msg, "roll", 0, 1, 20)
            return (EV_ATTACK, self._ship_arg(msg), roll, self._ship_arg(msg, "target"))
        if c == "transfer":
            return (EV_TRANSFER, self._ship_arg(msg), ia(msg, "n", g.settings["damage_per_hit"],
                                                         1, 99), self._ship_arg(msg, "to"))
        if c == "move":
            return (EV_MOVE, self._ship_arg(msg), ia(msg, "mode", 1, 1, 3), ia(msg, "turns", 0, 0, 9))
        if c == "respond":
            kind = ia(msg, "kind", 2, 1, 2) | (4 if msg.get("behind") else 0)
            return (EV_RESPONSE, self._ship_arg(msg), kind, self._ship_arg(msg, "mover"))
        if c == "overlap":
            return (EV_OVERLAP, self._ship_arg(msg), _faces(msg, 2), self._ship_arg(msg, "other"))
        if c == "choose":
            return (EV_CHOOSE, ia(msg, "side", 0, 0, 1), 0, 0)
        if c == "done":
            return (EV_DONE, self._ship_arg(msg), 0, 0)
        if c == "exit":
            return (EV_EXIT, self._ship_arg(msg), ia(msg, "kind", 1, 1, 2), 0)
        roll = msg.get("roll")
        roll = self.dice.d20() if roll is None else ia(msg, "roll", 0, 1, 20)
        return (EV_ION, self._ship_arg(msg), roll, ia(msg, "facing", 0, 0, 2))

    def _command(self, c, msg):
        g = self.game
        if c == "hello":
            hp = msg.get("proto", PROTO_VERSION)
            if hp != PROTO_VERSION:
                self._out({"t": "err", "src": "serial", "c": c, "code": "proto",
                           "msg": "host speaks protocol %r, this board speaks %d: update the %s"
                                  % (hp, PROTO_VERSION, "firmware (fleetref flash)"
                                     if isinstance(hp, int) and hp > PROTO_VERSION
                                     else "host tools")})
            return self.hello()
        if c == "load":
            rs = msg.get("ruleset")
            if rs is not None and not isinstance(rs, str):
                raise ValueError("ruleset must be a name")
            if "roster" in msg:
                r = msg["roster"]
                if not isinstance(r, dict):
                    raise ValueError("roster must be an object")
                self.load_text(protocol.encode(r), rs, msg.get("scenario") or "")
            elif "scenario" in msg:
                name = msg["scenario"]
                if not isinstance(name, str):
                    raise ValueError("scenario must be a name")
                self.load_scenario(name, rs)
            elif rs is not None:
                self.load_scenario(profiles.get(rs).example)
            else:
                raise ValueError("load needs scenario, roster or ruleset")
            return
        if c == "scenarios":
            return self._out({"t": "scenarios", "names": scenarios.list_names(self.scenario_dir)})
        if g is None:
            raise ValueError("no game loaded")
        if c == "game":
            return self.send_game()
        if c == "snap":
            snap = g.snapshot()
            snap["t"] = "snap"
            snap["gid"] = self.gid
            return self._out(snap)
        if c == "events":
            since = self._int_arg(msg, "since", 0, 0, 1 << 30)
            if since > g.seq:
                raise ValueError("since %d is past the newest event %d" % (since, g.seq))
            if since < g.base_seq:
                first = True
                if self.journal is not None:
                    for seq, ev in self.journal.events(since):   # streamed from flash
                        if first and seq != since + 1:
                            break
                        first = False
                        if seq > g.base_seq:
                            break
                        self.send('{"t": "ev", "gid": "%s", "seq": %d, "ev": [%d, %d, %d, %d],'
                                  ' "hash": ""}' % ((self.gid, seq) + tuple(ev)))
                if first:
                    self._out({"t": "err", "src": "serial", "c": c, "code": "gone",
                               "msg": "events %d..%d are no longer held: ask for state"
                                      % (since + 1, g.base_seq)})
                    return
                since = g.base_seq
            for s in range(since + 1, g.seq + 1):
                self.send_event(s)
            return self._out({"t": "events-end", "gid": self.gid, "seq": g.seq})
        if c == "state":
            return self.send_state()
        if c == "base":
            # restoring a saved game: its state at base_seq, right after its roster was loaded
            if g.seq != 0:
                raise ValueError("base is set only on a freshly loaded game (seq 0)")
            import binascii
            seq = self._int_arg(msg, "base_seq", 0, 0, 1 << 30)
            base = msg.get("base")
            if not isinstance(base, str):
                raise ValueError("base must be hex text")
            g.set_window(seq, binascii.unhexlify(base), b"", b"", [])
            if self.journal is not None:
                self.journal.snapshot(g)
            self.version += 1
            return self._out({"t": "ok", "c": c, "seq": g.seq, "hash": g.state_hash()})
        if c == "append":
            evs = msg.get("events")
            if not isinstance(evs, list) or len(evs) > 200:
                raise ValueError("events must be a list of at most 200 events")
            for ev in evs:
                if not isinstance(ev, list) or len(ev) != 4:
                    raise ValueError("an event is [kind, a, b, c]")
                if self.submit(tuple(ev), "serial", c):
                    return
            return self._out({"t": "ok", "c": c, "seq": g.seq, "hash": g.state_hash()})
        if c == "roll":
            vals = msg.get("values")
            if vals is None:
                return self.roll_initiative("serial", c)
            if not isinstance(vals, list) or len(vals) != 2:
                raise ValueError("values must be [side 0 roll, side 1 roll]")
            return self.submit((EV_INIT, self._int_arg({"v": vals[0]}, "v", 0, 1, 20),
                                self._int_arg({"v": vals[1]}, "v", 0, 1, 20), 1), "serial", c)
        if c == "hit":
            ship = self._ship_arg(msg)
            n = self._int_arg(msg, "n", g.settings["damage_per_hit"], -99, 99)
            by = self._ship_arg(msg, "by") if msg.get("by") is not None else NONE
            return self.submit((EV_HIT, ship, n, by), "serial", c)
        if c == "counter":
            ship = self._ship_arg(msg)
            opt = msg.get("option")
            if isinstance(opt, str):
                names = [o.name for o in g.profile.options]
                if opt not in names:
                    raise ValueError("no option %r (options: %s)" % (opt, ", ".join(names)))
                opt = names.index(opt)
            opt = self._int_arg({"o": opt}, "o", 0, 0, 254)
            for_ = self._ship_arg(msg, "for") if msg.get("for") is not None else ship
            return self.submit((EV_COUNTER, ship, opt, for_), "serial", c)
        if c == "power":
            return self.submit((EV_POWER, self._ship_arg(msg), 0, 0), "serial", c)
        if c == "launch":
            return self.submit((EV_LAUNCH, self._ship_arg(msg), 0, 0), "serial", c)
        if c == "phase":
            return self.submit((EV_PHASE, 0, 0, 0), "serial", c)
        if c == "undo":
            return self.submit((EV_UNDO, 0, 0, 0), "serial", c)
        if c in EXT_COMMANDS:
            return self.submit(self._ext_event(c, msg), "serial", c)
        if c == "key":
            k = msg.get("key")
            if k not in ACTIONS and not (isinstance(k, str) and k[:4] == "sel:"
                                         and k[4:].isdigit()):
                raise ValueError("unknown key action %r" % (k,))
            self.key(k)
            return
        raise ValueError("unknown command %r" % c)


EXT_COMMANDS = ("aim", "attack", "transfer", "move", "respond", "overlap", "choose", "done",
                "exit", "ion")


def _faces(msg, n):
    v = msg.get("dice", [])
    if not isinstance(v, list) or len(v) > 2:
        raise ValueError("dice: a list of attack die faces 1..8")
    hits = crits = 0
    for f in v:
        if not isinstance(f, int) or not 1 <= f <= 8:
            raise ValueError("an attack die face is 1..8")
        if f <= 3:
            hits += 1
        elif f == 4:
            crits += 1
    return hits | (crits << 4)


def event_text(game, ev):
    """A human-readable line for event ``ev`` of ``game`` (for the mirror and logs)."""
    k, a, b, c = ev
    nm = game.names
    if k == EV_INIT:
        return "initiative rolls %d / %d%s" % (a, b, " (physical dice)" if c else "")
    if k == EV_HIT:
        who = (" by %s" % nm[c]) if c != NONE else ""
        return "%s %+d damage%s" % (nm[a], b, who)
    if k == EV_COUNTER:
        return "counter from %s on %s for %s" % (nm[a], game.profile.options[b].name, nm[c])
    if k == EV_POWER:
        return "%s full-power move" % nm[a]
    if k == EV_LAUNCH:
        return "%s launched" % nm[a]
    if k == EV_ATTACK:
        return "%s attacks %s: d20 %d" % (nm[a], nm[c], b)
    if k == EV_AIM:
        return "%s aims weapon %d (%d)" % (nm[a], b, c)
    if k == EV_TRANSFER:
        return "Emperor's Will: %d damage from %s to %s" % (b, nm[a], nm[c])
    if k == EV_MOVE:
        return "%s moves (mode %d, %d turns)" % (nm[a], b, c)
    if k == EV_RESPONSE:
        return "%s responds to %s with %s" % (nm[a], nm[c], "a countermove" if b & 3 == 1
                                              else "rapid fire")
    if k == EV_OVERLAP:
        return "%s overlaps %s (%d hits, %d crits)" % (nm[a], nm[c], b & 15, b >> 4)
    if k == EV_CHOOSE:
        return "%s moves first" % game.side_names[a]
    if k == EV_DONE:
        return "%s has fired" % nm[a]
    if k == EV_EXIT:
        return "%s %s" % (nm[a], "left by the far edge" if b == 1 else "hit the target port")
    if k == EV_ION:
        return "Ion Cannon at %s: d20 %d" % (nm[a], b)
    return EV_NAMES[k] if 0 < k < len(EV_NAMES) else "event %d" % k
