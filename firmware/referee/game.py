"""The referee's game: state derived from an append-only event log.

Core events are in events.py; a ruleset (referee/rules/) declares its own kinds and the core
hands them to it. Dice values live in the events, so replaying a log needs no random source:
the board and the host mirror apply the same events with this same code and compare
:meth:`Game.state_hash`. A rejected action returns a reason (str) and changes nothing; it
never enters the log. The RAM window of events (undo reaches back as far as it) is
window.EventWindow; the fleet's state is fleet.Fleet; the JSON views are views.py.
"""

from referee.events import (
    EV_INIT,
    EV_HIT,
    EV_COUNTER,
    EV_PHASE,
    EV_UNDO,  # noqa: F401
    EV_LAUNCH,
    NONE,
    CORE_NAMES,
)  # (re-exported)
from referee.fleet import (
    F_LAUNCHED,
    F_FIRED,
    F_LAUNCHED_ONE,  # noqa: F401 (re-exported)
    ROUND_FLAGS,
    OK,
    DAMAGED,
    DESTROYED,
    STATUS_NAMES,
)
from referee.core_rules import CoreRules
from referee.window import EventWindow


# A checkpoint (:meth:`Game.checkpoint`, taken back by :meth:`Game.back_to`) is a tuple of
# these fields, in this order; a tuple, not an instance of a class, because one is taken for
# every event and on MicroPython an instance with nine attributes costs about twice the RAM
# (measured on its WebAssembly port: about 100 bytes against 50 for the tuple; the instance
# has an attribute table besides the object); unpacked by name where it is read.
#   many        False: it takes back the one next event; True: any number (no fold between)
#   state       the state bytes before the event
#   events_len  len(event_window.events), hashes_len len(event_window.hashes),
#   base_seq    event_window.base_seq
#   tops        (event_window.newest_kept, event_window.older_kept)
#   stack       one event: the undo stack's depth (int); many: a copy of the stack (list)
#   stack_top   one event: the stack's top (window index, or -1); many: None
#   ckpt        one event: the newest window checkpoint (or None); many: a copy of the list
CK_STATE = 1  # the index of ``state`` (submit keeps it as the undo's start)


class Rejected(Exception):
    """Raised by :meth:`Game.replay` when a log holds an event the rules refuse."""


class Game(CoreRules):
    """A game of ``rules`` (a rules.base.Ruleset) between the two sides of ``roster`` (a dict
    already normalised by roster.validate); ``settings`` (dict) override the roster's;
    ``window``: events held in RAM (undo reaches that far).

    State attributes are fleet.Fleet's, the rules core.CoreRules's; ``event_window`` is the RAM
    window (window.EventWindow): ``log`` (its events) and ``effective`` (window indices of the
    events in effect) come from it.
    """

    def __init__(self, rules, roster, settings=None, window=256):
        given = dict(roster.get("settings") or {})
        if settings:
            given.update(settings)
        self.event_window = EventWindow(window)
        CoreRules.__init__(self, rules, roster, rules.settings(given))

    def check_state(self, data):
        """None when ``data`` (bytes) is a state this game can be in, else the reason: length
        and ship count, round >= 1, phase of the ruleset, initiative holder, d20 rolls, the
        ship firing, each ship's damage (at most X+Y), pending damage, command counters (at
        most the roster's), flags, every chart entry (a ship of that side), and the
        ruleset's flags and bytes. Changes nothing."""
        from referee.state_check import check

        return check(self, data)

    # ---- the window (public API for the journal, the serial link and save/load) --------
    @property
    def window_size(self):
        """How many events the RAM window holds (int, at least 8; undo reaches that far)."""
        return self.event_window.size

    @window_size.setter
    def window_size(self, v):
        self.event_window.size = max(8, v)

    @property
    def seq(self):
        """Sequence number of the newest event (0 before the first)."""
        return self.event_window.seq

    @property
    def base_seq(self):
        return self.event_window.base_seq

    @property
    def effective(self):
        return self.event_window.effective

    @property
    def log(self):
        """The events in the RAM window, oldest first (a new list of tuples)."""
        return self.event_window.events_list()

    def event(self, seq):
        """Event ``seq`` (1-based) as a tuple; IndexError when it is older than the window."""
        return self.event_window.event(seq)

    def event_hash(self, seq):
        """The state hash (8 hex digits) right after event ``seq``; IndexError outside RAM."""
        return self.event_window.event_hash(seq)

    def get_window(self):
        """``(base_seq, base state bytes or None, event bytes, hash bytes, undo stack)``."""
        return self.event_window.export()

    def set_window(self, base_seq, base, events, hashes, eff):
        """Take a saved RAM window (as :meth:`get_window` gives; journal.py, the ``state``
        message, save files). The undo stack is taken as it was, so an undo saved in the
        window never reverts the wrong event. Raises ValueError when they do not fit."""
        if base is not None:
            r = self.check_state(base)
            if r:
                raise ValueError(r)
        old = self.event_window.export()
        self.event_window.set(base_seq, base, events, hashes, eff)
        try:
            self._rebuild()
        except Exception as e:  # all or nothing: the window as it was
            self.event_window.set(*old)
            self._rebuild()
            raise ValueError("the window does not replay: %s" % e)

    def _replay_to(self, depth, keep=False):
        """Set the state to the one after the first ``depth`` events of the undo stack: from
        the newest checkpoint at or below it (window.EventWindow.start), so fewer than
        window.CKPT_EVERY events are replayed once the checkpoints are in place. ``keep``
        (an undo): the state one below ``depth`` passed on the way becomes the window's
        ``top`` (EventWindow.keep), for the next undo."""
        w = self.event_window
        st, d = w.start(depth)
        if st is None:
            self.reset()
        else:
            self.load_state(st)
        eff = w.effective
        last = depth - 1
        d0 = d
        while d < depth:
            if keep and d == last and d > d0:
                w.keep(d, self.state_bytes())
            self._apply(w.at(eff[d]))
            d += 1

    def _rebuild(self):
        """The state from the base and the whole undo stack, keeping checkpoints on the way
        (after set_window)."""
        w = self.event_window
        w.ckpt = []
        w.newest_kept = w.older_kept = w.next_base = None
        if w.base is None:
            self.reset()
        else:
            self.load_state(w.base)
        eff = w.effective
        for d in range(len(eff)):
            self._apply(w.at(eff[d]))
            if w.on_grid(d + 1, len(eff)):
                w.ckpt.append((d + 1, self.state_bytes()))

    def _fold(self):
        """Fold the oldest quarter of the window into the base state (bounded RAM). The state
        in play does not change; the new base is replayed from the newest kept state at or
        below it (_replay_to: none when one sits right there). Always a quarter: where the
        window folds, and so what undo reaches, follows from the log alone, as on a mirror's
        fresh replica (kept states differ: a restarted board has fewer)."""
        w = self.event_window
        k = w.size // 4
        m = w.fold_depth()
        if m == 0:
            base = w.base
        else:
            now = self.state_bytes()
            self._replay_to(m)
            base = self.state_bytes()
            self.load_state(now)
        w.drop_oldest(k, base)

    def prepare_fold(self, ahead=32):
        """When the window is within ``ahead`` events of folding, replay the fold's new base
        now and keep it (``win.next_base``), so the fold at the next full window replays nothing
        (the board calls this while idle: loop.Loop.step_maintain). The state in play does not
        change. Returns True when it replayed something (a few ms: at most 31 events)."""
        w = self.event_window
        if w.count() < w.size - ahead or w.next_base is not None:
            return False
        m = w.fold_depth()
        if m == 0 or w.start(m)[1] == m:
            return False
        now = self.state_bytes()
        self._replay_to(m)
        w.next_base = (m, self.state_bytes())
        self.load_state(now)
        return True

    def prepare_undo(self):
        """Replay the state an undo would go back to now (one below the undo stack's top) and
        keep it as the window's ``top`` when no kept state sits there, so the next undo
        replays nothing (the board calls this while idle, as prepare_fold). The state in play
        does not change. Returns True when it replayed something."""
        w = self.event_window
        m = len(w.effective) - 1
        t = w.newest_kept
        if m <= 0 or (t is not None and t[0] == m) or w.start(m)[1] == m:
            return False  # (the first test allocates nothing: the idle case)
        now = self.state_bytes()
        self._replay_to(m)
        w.keep(m, self.state_bytes())
        self.load_state(now)
        return True

    def check(self, ev):
        """Return None if event ``ev`` is allowed now, else the reason (str). Changes nothing.
        The core rules' check (core_rules.CoreRules.check), and an undo needs an event in
        effect on the undo stack."""
        r = CoreRules.check(self, ev)
        if r or ev[0] != EV_UNDO:
            return r
        w = self.event_window
        if w.effective:
            return None
        if w.base_seq:
            return (
                "nothing to undo within the last %d events (the board holds the newest "
                "%d to %d)" % (w.count(), w.size - w.size // 4, w.size)
            )
        return "nothing to undo"

    def submit(self, ev, saved=None):
        """Check event ``ev`` (tuple of 4 ints), append it to the log and apply it.

        Returns None on success or the reason it was refused (str); a refused event changes
        nothing. EV_UNDO reverts the newest event in effect and stays in the log itself.
        ``saved``: a :meth:`checkpoint` the caller took right before, to take the event back
        itself later (a failed journal write; ``checkpoint(True)`` to take back a run of
        events); None: one is taken after the check (a refused event costs no copy of the
        state) and dropped.
        """
        w = self.event_window
        if w.full():
            self._fold()  # before the check: an undo must see the undo stack that is left
        r = self.check(ev)
        if r:
            return r
        if saved is None:
            saved = self.checkpoint()
        try:
            i = w.append(ev)
            if ev[0] == EV_UNDO:
                w.pop_effect()
                w.trim()
                self._replay_to(len(w.effective), True)
            else:
                w.keep(len(w.effective), saved[CK_STATE])  # the state before it: its undo's start
                w.effective.append(i)
                self._apply(ev)
                if w.due():
                    w.ckpt.append((len(w.effective), self.state_bytes()))
                    w.thin()
            w.push_hash(self.state_hash_int())
        except Exception as e:  # all or nothing: a rule that raises changes nothing
            self.back_to(saved)
            return "refused: applying it failed (%s: %s)" % (type(e).__name__, e)
        return None

    def checkpoint(self, many=False):
        """What :meth:`back_to` needs to take back the next event (a few ints and the state
        bytes: no copy of the log or the undo stack): a tuple of the fields CK_STATE's
        comment lists. Folds a full window first, so the next event does not. ``many``: take
        back any number of events, so long as the window does not fold in between (copies of
        the undo stack and the window's checkpoints)."""
        w = self.event_window
        if w.full():
            self._fold()
        eff = w.effective
        ck = w.ckpt
        state = self.state_bytes()
        if many:
            return (
                True,
                state,
                len(w.events),
                len(w.hashes),
                w.base_seq,
                (w.newest_kept, w.older_kept),
                list(eff),
                None,
                list(ck),
            )
        return (
            False,
            state,
            len(w.events),
            len(w.hashes),
            w.base_seq,
            (w.newest_kept, w.older_kept),
            len(eff),
            eff[-1] if eff else -1,
            ck[-1] if ck else None,
        )

    def back_to(self, saved):
        """Take back the one event submitted since :meth:`checkpoint` gave ``saved`` (or
        every event, for ``checkpoint(True)``): the window, undo stack, checkpoints and state
        as they were. Raises ValueError when the window was folded since."""
        w = self.event_window
        w.next_base = None  # (its stack may differ from the one taken back to)
        many, state, events_len, hashes_len, base_seq, tops, stack, stack_top, ckpt = saved
        if w.base_seq != base_seq:
            raise ValueError("the window was folded since the checkpoint")
        w.truncate(events_len, hashes_len)
        w.newest_kept, w.older_kept = tops
        if many:
            w.set_effects(stack)
            w.ckpt = list(ckpt)
            self.load_state(state)
            return
        n_eff = stack
        while len(w.effective) > n_eff:  # the event pushed itself on the undo stack
            w.pop_effect()
        if len(w.effective) < n_eff:  # an undo popped the top
            w.effective.append(stack_top)
        ck = w.ckpt
        while ck and ck[-1][0] > n_eff:  # the event added a checkpoint (it may have let a
            ck.pop()  # deep one go: window.thin; that one stays gone)
        if ckpt is not None and (not ck or ck[-1][0] < ckpt[0]):
            ck.append(ckpt)  # an undo dropped the top one
        self.load_state(state)

    def replay(self, events):
        """Submit each event of ``events`` in order; raises Rejected(seq, reason) on a refusal."""
        for ev in events:
            r = self.submit(tuple(ev))
            if r:
                raise Rejected("event %d %r refused: %s" % (self.seq + 1, ev, r))

    # ---- derived -----------------------------------------------------------------------
    def moves_first(self):
        """Side that moves first this round, or NONE before it is decided."""
        return self.rules.moves_first(self)

    def phase_name(self):
        return self.rules.phases[self.phase]

    def snapshot(self, app=None):
        """The derived state as a JSON-ready dict (includes ``state_hash`` and ``seq``);
        with ``app`` (app.Referee), its extensions' views as that board has them now."""
        from referee.views import snapshot

        return snapshot(self, app)

    def ship_dict(self, i):
        from referee.views import ship_dict

        return ship_dict(self, i)
