"""The referee application: one game's lifecycle (load, restore, boot, errors, sending), with
the button-pad UI (``pad``: pad.Pad), the serial link (``link``: link.SerialLink) and the
group commit (``group``: commit.GroupCommit) as its parts.

The same object runs on the Pico (``main.py`` with real drivers) and in the laptop simulator
(virtual drivers). It never touches hardware: keys arrive as action names, serial lines as
strings, and output leaves through ``send`` (a callable taking one str line, no newline).
"""

from referee import protocol, rules, runtime
from referee.runtime import flash_error
from referee.ticks import ticks_add, ticks_diff
from referee.events import EV_INIT, EV_PHASE, NONE
from referee.game import Game
from referee.commit import GroupCommit
from referee.extensions import modules
from referee.link import SerialLink
from referee.pad import Pad, ACTIONS  # noqa: F401  (ACTIONS: main.py and the host import it here)

from referee.compat import TYPE_CHECKING

if TYPE_CHECKING:  # (MicroPython has no typing module)
    from typing import Callable  # noqa: F401  (for a type comment)

ERROR_MS = 1200


def _checked(how, data, more, settings):
    """``scenarios.<how>`` on ``data``, imported here: no caller keeps it (release_loaders)."""
    from referee import scenarios

    if how == "read":
        return scenarios.read(data, more)
    return getattr(scenarios, how)(data, more, settings)


class Referee:
    """One game and its lifecycle; keys go to ``pad`` (pad.Pad: ``pad.key(action)``), host
    lines to ``link`` (link.SerialLink: ``link.handle_line(line)``). An event goes through
    one pipeline: :meth:`submit` applies it in RAM, then writes and announces it at once, or,
    while ``group`` holds (the loop's key press, an ``append`` line), keeps its record for
    :meth:`flush`, which writes the held records in one journal commit and then announces
    them (loop.py says when the board flushes a key's events).

    ``board``: board profile dict (``name``, ``grid`` {``w``, ``h``}, ``keys``).
    ``scenario_dir``: directory of scenario JSON files (str). ``send``: callable(str).
    ``dice``: a dice.Dice. ``rows_per_page``: ships shown per side per page.
    ``version`` increases on every visible change (the render task watches it). ``mark``:
    the ship marked on the pad (NONE: none), taken back with an event the journal refuses;
    ``kept``: the game the menu replaced, without a journal (menu.py)."""

    def __init__(self, board, scenario_dir, send, dice, rows_per_page):
        self.board = board
        self.scenario_dir = scenario_dir
        self.send = send
        # optional callable(tuple of str): one line sent in parts
        self.send_parts = None  # type: Callable[[tuple], None] | None
        self.dice = dice
        # the board's extensions (extensions.py: the verifiable dice, when ``dice`` is Fair)
        self.board_extensions = modules(None)
        self.rows_per_page = rows_per_page
        self.game = None
        self.raw_parts = ()  # the roster as loaded: printable JSON in parts (encode_parts)
        self.release_rulesets = False  # True: a load lets unused rulesets go (rules.release)
        self.scenario = ""
        self.gid = ""
        self.version = 0
        self.mark = NONE
        self.kept = None
        self.pad = Pad(self)
        self.link = SerialLink(self)
        self.error_text = ""
        self.error_until = 0
        self.error_on = False  # error_until is meaningful (ticks wrap: compare with ticks_diff)
        self.now_ms = 0
        self.on_event = None  # optional callable(seq, ev), e.g. the simulator's full record
        self.journal = None  # optional journal.Journal: every event goes to flash
        self.boot_note = ""  # what a damaged journal lost at boot (said after every hello)
        # (micropython version, code location, source hash) for hello; None: asked of the
        # running MicroPython (referee/runtime.py); the simulator sets its own
        self.build_info = None
        # the events held for one journal commit, announced once it is done (flush)
        self.group = GroupCommit()

    # ---- set-up ------------------------------------------------------------------------
    def load_text(self, text, ruleset=None, scenario="", settings=None):
        """Start a new game from roster JSON ``text`` (``settings``: a dict over its own).
        Raises ValueError (RosterError) when bad, leaving the current game as it was."""
        return self._start(*_checked("load_text", text, ruleset, settings), scenario=scenario)

    def load_raw(self, raw, ruleset=None, scenario="", settings=None):
        """As :meth:`load_text` for a roster already parsed (a dict from a ``load`` command)."""
        return self._start(*_checked("load_raw", raw, ruleset, settings), scenario=scenario)

    def _start(self, norm, raw, scenario=""):
        self.flush()  # the game in play's held events: on flash and announced first
        if self.release_rulesets:
            runtime.release_loaders()  # (their work is done: the game's build gets their RAM)
        import gc

        gc.collect()  # the roster check's garbage goes before the new game is built
        game = Game(rules.get(norm["ruleset"]), norm)
        old = (self.game, self.raw_parts, self.scenario, self.gid)
        try:
            self.game = game
            self.raw_parts = protocol.encode_parts(raw)  # (no block of a few KB)
            self.scenario = scenario or norm["name"]
            self.gid = "%08x" % self.dice.source.next32()
            gc.collect()  # the game's building garbage goes before its long line is made
            line = self.game_parts()  # never joined on the board: no block of a few KB
            if self.journal is not None:
                self.journal.new_game(line, game)
        except (OSError, MemoryError):  # all or nothing: the game in play stays
            self.game, self.raw_parts, self.scenario, self.gid = old
            raise
        self.pad.reset(len(norm["sides"][0]["ships"]))
        if self.release_rulesets:  # (the menu's kept game keeps its ruleset)
            rules.release([g.rules.name for g in (game, self.kept and self.kept[0]) if g])
        self._send_parts(line)
        from referee.roster_hints import send

        send(self, game.rules, norm)  # ability texts nothing enforces: err lines
        return game

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
        norm, raw = _checked("load_raw", msg["roster"], None, None)
        if self.release_rulesets:
            runtime.release_loaders()  # (their work is done: the game's build gets their RAM)
        game = Game(rules.get(norm["ruleset"]), norm)
        n = j.restore(game)
        if j.problems:
            try:
                j.repair(game)
                self.boot_note = j.report(n)
            except OSError as e:  # no room for the repaired journal: the damaged one
                self.boot_note = (
                    j.report(n) + "; not repaired (%s): the files stay as they "
                    "were and are repaired before the next event is written" % flash_error(e)
                )
        self.game = game
        self.raw_parts = protocol.encode_parts(raw)
        self.scenario = msg.get("scenario") or norm["name"]
        self.gid = msg["gid"]
        self.pad.reset(len(norm["sides"][0]["ships"]))
        return n

    def boot(self, scenario):
        """At power-up: restore the journal's game, or load ``scenario`` when the journal holds
        none. A journal whose set-up is unreadable is set aside (never overwritten) and said so;
        only then is ``scenario`` loaded. Raises OSError / ValueError for a bad ``scenario``."""
        j = self.journal
        where = None
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
                    pass
                self.boot_note = (
                    "journal damaged: no game restored (%s); damaged files kept in "
                    "%s; new game %s started" % (e, where or "place (set-aside failed)", scenario)
                )
        try:
            self.load_scenario(scenario)
        except OSError:  # no room for the new game: the set-aside files go back, so
            if where and j is not None:  # the next boot says all this again (never
                j.put_back(where)  # silent)
            raise
        if self.boot_note:
            self.journal_error()

    def journal_error(self):
        """Say ``boot_note`` over serial (an ``err`` line, code "journal") and on the grid."""
        self.error_text = self.boot_note
        self.error_until = ticks_add(self.now_ms, 5 * ERROR_MS)
        self.error_on = True
        self.version += 1
        self.send(self.journal_line())

    def journal_line(self):
        return protocol.encode(
            {"t": "err", "src": "boot", "code": "journal", "msg": self.boot_note}
        )

    def load_scenario(self, name, ruleset=None, settings=None):
        """Load scenario file ``name`` (e.g. "hoth"). Raises OSError / ValueError."""
        text = _checked("read", name, self.scenario_dir, None)
        return self.load_text(text, ruleset, name, settings)

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

    def game_parts(self):
        """The ``game`` message as one line in parts (head, the roster's raw_parts, end: str
        each, printable JSON): joined, they are :meth:`game_line`."""
        g = self._g()
        more = ""  # the board's extensions' fields: the dice commitment (docs/dice.md)
        for x in self.board_extensions:
            more += x.game_fields(self)
        head = (
            '{"t": "game", "gid": "%s", "scenario": %s, "seq": %d, "hash": "%s"%s, '
            '"roster": '
            % (
                self.gid,
                protocol.encode(self.scenario),
                g.seq,
                g.state_hash(),
                more,
            )
        )
        return (head,) + self.raw_parts + ("}",)

    @property
    def raw_text(self):
        """The roster as loaded: one line of printable JSON (the host's; the board has parts)."""
        return "".join(self.raw_parts)

    def game_line(self):
        """The ``game`` message as one line (str)."""
        return "".join(self.game_parts())

    def _send_parts(self, parts):
        # a long line: in parts where the serial driver takes them (``send_parts``, the
        # board: a roster of a few KB needs no block that size), else joined
        if self.send_parts is not None:
            self.send_parts(parts)
        else:
            self.send("".join(parts))

    def send_game(self):
        self._send_parts(self.game_parts())

    def send_event(self, seq):
        """The compact ``ev`` line of event ``seq`` (held in RAM) with its state hash."""
        g = self._g()
        self.send(protocol.ev_line(seq, g.event(seq), g.event_hash(seq)))
        for x in self.board_extensions:  # its roll record, if a roll went into it (dice.py)
            x.after_event(self, seq)

    def error(self, msg, origin, cmd=None):
        """Report a refused action: an ``err`` line and the error row on the grid."""
        self.error_text = msg
        self.error_until = ticks_add(self.now_ms, ERROR_MS)
        self.error_on = True
        self.version += 1
        obj = {"t": "err", "src": origin, "msg": msg}
        if cmd is not None:
            obj["c"] = cmd
        self._out(obj)
        return msg

    def showing_error(self):
        if self.error_on and ticks_diff(self.error_until, self.now_ms) > 0:
            return True
        self.error_on = False
        return False

    # ---- events ------------------------------------------------------------------------
    def submit(self, ev, origin="key", cmd=None):
        """Submit event tuple ``ev``: applied in RAM, then written to the journal and
        announced (its ``ev`` line) at once, or, while ``group`` holds (commit.GroupCommit:
        a pressed key's action, an ``append`` line), its record kept for :meth:`flush`.
        Returns None or the reason it was refused (said with an ``err`` line)."""
        g = self.game
        if g is None:
            return self.error("no game loaded", origin, cmd)
        if getattr(self, "on_submit", None) is not None:  # (set by referee/net/mqtt_words.py)
            self.on_submit()  # pyright: ignore[reportAttributeAccessIssue]
        j = self.journal
        group = self.group
        if j is not None and j.unrepaired and not group.count:
            r = self._repair(j, g)  # a damaged journal the boot could not repair
            if r:
                return self.error(r, origin, cmd)
        hold = group.holding and j is not None
        self._settle(hold, origin, cmd)
        for x in g.extensions:  # (time banks: the running side charged first, clock.py)
            x.before_submit(self, ev)
            self._settle(hold, origin, cmd)
        # the state before it, taken back if the journal fails (a held batch's first: with
        # the undo stack, so the whole batch can be taken back)
        saved = g.checkpoint(hold and not group.count)
        r = g.submit(ev, saved)
        if r:
            if hold and origin != "key":
                self.flush(origin, cmd)  # a line's earlier events: announced before this
            return self.error(r, origin, cmd)  # (a key's stay held: its frame says it)
        mark = self.mark
        ev = g.event(g.seq)
        if ev[0] == EV_PHASE:  # a new phase starts with no ship marked
            self.mark = NONE
        self.version += 1
        if j is not None:
            try:
                j.writer.append(g, g.seq, ev, hold)
            except (OSError, MemoryError) as e:  # all or nothing: not on flash, not in play
                g.back_to(saved)
                self.mark = mark
                r = "journal: %s (flash not written; event not applied)" % flash_error(e)
                return self.error(r, origin, cmd)
        if getattr(self, "on_applied", None) is not None:  # (set by referee/net/mqtt_words.py)
            self.on_applied(g.seq, ev)  # pyright: ignore[reportAttributeAccessIssue]
        for x in g.extensions:  # (time banks: the side whose clock runs now)
            x.after_submit(self)
            self.version += 1
        if hold:
            group.add(g.seq, self.now_ms, saved, mark)
        else:
            self.announce(g.seq)
        return None

    def _repair(self, j, g):
        # the reason no event can be written (str), or None once ``j`` is repaired
        try:
            j.repair(g)
        except OSError as e:
            return (
                "journal: damaged and not repaired (%s; flash not written; event not applied)"
                % flash_error(e)
            )
        return None

    def _settle(self, hold, origin="key", cmd=None):
        # held events go out before one that is not held (the lines stay in order), and
        # before the window folds (flush() explains)
        g = self.game
        if self.group.count and g is not None and (not hold or g.event_window.full()):
            self.flush(origin, cmd)

    def announce(self, seq):
        g = self.game
        if self.on_event is not None and g is not None:
            self.on_event(seq, g.event(seq))
        self.send_event(seq)

    def flush(self, origin="key", cmd=None):
        """Write the held events' records (``group``) in one journal commit, then send their
        ``ev`` lines (an event is announced only once it is on flash). When the write fails,
        every held event is taken back (all or nothing: state, seq, window, undo stack) and
        an error says so. The window never folds while events are held (submit flushes
        first), so the checkpoint taken before the first of them still applies. Returns how
        many were announced."""
        group = self.group
        n = group.count
        g, j = self.game, self.journal
        batch = group.saved  # (game checkpoint, mark) before the first held event
        if not n or g is None or j is None or batch is None:
            return 0
        try:
            j.writer.commit(g, origin != "key")  # a key's: no second write while a press waits
        except OSError as e:
            j.writer.drop_held()
            group.clear()
            g.back_to(batch[0])
            self.mark = batch[1]  # (batch: the checkpoint and the mark before the first)
            self.version += 1
            r = "journal: %s (flash not written; %d event(s) taken back)" % (flash_error(e), n)
            self.error(r, origin, cmd)
            return 0
        seq = group.first_seq
        group.clear()
        for seq in range(seq, seq + n):
            self.announce(seq)
        return n

    def roll_initiative(self, origin="key", cmd=None):
        """Roll a d20 per side with the board's dice (seed 000 "initiative check")."""
        return self.submit((EV_INIT, self.dice.d20(), self.dice.d20(), 0), origin, cmd)
