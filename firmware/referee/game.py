"""The referee's game: state derived from an append-only event log.

Core events are in events.py; a ruleset (referee/rules/) declares its own kinds and the core
hands them to it. Dice values live in the events, so replaying a log needs no random source:
the board and the host mirror apply the same events with this same code and compare
:meth:`Game.state_hash`. A rejected action returns a reason (str) and changes nothing; it
never enters the log. The RAM window of events (undo reaches back as far as it) is
window.EventWindow; the fleet's state is fleet.Fleet; the JSON views are views.py.
"""

from referee.events import (EV_INIT, EV_HIT, EV_COUNTER, EV_PHASE, EV_UNDO, EV_LAUNCH, NONE,
                            CORE_NAMES, valid)
from referee.fleet import (Fleet, F_LAUNCHED, F_FIRED, F_LAUNCHED_ONE,  # noqa: F401
                           ROUND_FLAGS, OK, DAMAGED, DESTROYED, STATUS_NAMES)  # (re-exported)
from referee.rules.base import TIE_KEEP, EFFECT_AVOID
from referee.window import EventWindow, CKPT_EVERY

EV_CLOCK = 40     # time banks (referee/clock.py, imported only by games with clocks)


class Rejected(Exception):
    """Raised by :meth:`Game.replay` when a log holds an event the rules refuse."""


class Game(Fleet):
    """A game of ``rules`` (a rules.base.Ruleset) between the two sides of ``roster`` (a dict
    already normalised by roster.validate); ``settings`` (dict) override the roster's;
    ``window``: events held in RAM (undo reaches that far).

    State attributes are fleet.Fleet's; ``log`` (the events in the RAM window) and ``eff``
    (window indices of the events in effect) come from the window.
    """

    def __init__(self, rules, roster, settings=None, window=256):
        given = dict(roster.get("settings") or {})
        if settings:
            given.update(settings)
        self.settings = rules.settings(given)
        self.win = EventWindow(window)
        Fleet.__init__(self, rules, roster)

    # ---- the window (public API for the journal, the serial link and save/load) --------
    @property
    def window(self):
        return self.win.size

    @window.setter
    def window(self, v):
        self.win.size = max(8, v)

    @property
    def seq(self):
        """Sequence number of the newest event (0 before the first)."""
        return self.win.seq

    @property
    def base_seq(self):
        return self.win.base_seq

    @property
    def eff(self):
        return self.win.eff

    @property
    def log(self):
        """The events in the RAM window, oldest first (a new list of tuples)."""
        return self.win.events_list()

    def event(self, seq):
        """Event ``seq`` (1-based) as a tuple; IndexError when it is older than the window."""
        return self.win.event(seq)

    def event_hash(self, seq):
        """The state hash (8 hex digits) right after event ``seq``; IndexError outside RAM."""
        return self.win.event_hash(seq)

    def get_window(self):
        """``(base_seq, base state bytes or None, event bytes, hash bytes, undo stack)``."""
        return self.win.export()

    def set_window(self, base_seq, base, events, hashes, eff):
        """Take a saved RAM window (as :meth:`get_window` gives; journal.py, the ``state``
        message, save files). The undo stack is taken as it was, so an undo saved in the
        window never reverts the wrong event. Raises ValueError when they do not fit."""
        if base is not None:
            r = self.check_state(base)
            if r:
                raise ValueError(r)
        old = self.win.export()
        self.win.set(base_seq, base, events, hashes, eff)
        try:
            self._rebuild()
        except Exception as e:          # all or nothing: the window as it was
            self.win.set(*old)
            self._rebuild()
            raise ValueError("the window does not replay: %s" % e)

    def _replay_to(self, depth):
        """Set the state to the one after the first ``depth`` events of the undo stack: from
        the newest checkpoint at or below it (window.EventWindow.start), so fewer than
        window.CKPT_EVERY events are replayed once the checkpoints are in place."""
        w = self.win
        st, d = w.start(depth)
        if st is None:
            self.reset()
        else:
            self.load_state(st)
        eff = w.eff
        while d < depth:
            self._apply(w.at(eff[d]))
            d += 1

    def _rebuild(self):
        """The state from the base and the whole undo stack, keeping checkpoints on the way
        (after set_window)."""
        w = self.win
        w.ckpt = []
        if w.base is None:
            self.reset()
        else:
            self.load_state(w.base)
        eff = w.eff
        for d in range(len(eff)):
            self._apply(w.at(eff[d]))
            if (d + 1) % CKPT_EVERY == 0:
                w.ckpt.append((d + 1, self.state_bytes()))

    def _fold(self):
        """Fold the oldest quarter of the window into the base state (bounded RAM). The state
        in play does not change; the new base comes from the newest checkpoint below it."""
        w = self.win
        k = w.size // 4
        m = 0
        for i in w.eff:
            if i >= k:
                break
            m += 1
        if m == 0:
            base = w.base
        else:
            now = self.state_bytes()
            self._replay_to(m)
            base = self.state_bytes()
            self.load_state(now)
        w.drop_oldest(k, base)

    def submit(self, ev):
        """Check event ``ev`` (tuple of 4 ints), append it to the log and apply it.

        Returns None on success or the reason it was refused (str); a refused event changes
        nothing. EV_UNDO reverts the newest event in effect and stays in the log itself.
        """
        w = self.win
        if w.full():
            self._fold()   # before the check: an undo must see the undo stack that is left
        r = self.check(ev)
        if r:
            return r
        saved = self.checkpoint()
        try:
            i = w.append(ev)
            if ev[0] == EV_UNDO:
                w.eff.pop()
                w.trim()
                self._replay_to(len(w.eff))
            else:
                w.eff.append(i)
                self._apply(ev)
                if w.due():
                    w.ckpt.append((len(w.eff), self.state_bytes()))
            w.push_hash(self.state_hash_int())
        except Exception as e:          # all or nothing: a rule that raises changes nothing
            self.back_to(saved)
            return "refused: applying it failed (%s: %s)" % (type(e).__name__, e)
        return None

    def checkpoint(self, many=False):
        """What :meth:`back_to` needs to take back the next event (a few ints and the state
        bytes: no copy of the log or the undo stack). Folds a full window first, so the next
        event does not. ``many``: take back any number of events, so long as the window
        does not fold in between (copies of the undo stack and the window's checkpoints)."""
        w = self.win
        if w.full():
            self._fold()
        eff = w.eff
        ck = w.ckpt
        if many:
            return (len(w.events), len(w.hashes), list(eff), w.base_seq, self.state_bytes(),
                    list(ck))
        return (len(w.events), len(w.hashes), len(eff), eff[-1] if eff else -1, w.base_seq,
                self.state_bytes(), len(ck), ck[-1] if ck else None)

    def back_to(self, saved):
        """Take back the one event submitted since :meth:`checkpoint` gave ``saved`` (or
        every event, for ``checkpoint(True)``): the window, undo stack, checkpoints and state
        as they were. Raises ValueError when the window was folded since."""
        w = self.win
        if len(saved) == 6:
            ne, nh, eff, base_seq, state, ck = saved
            if w.base_seq != base_seq:
                raise ValueError("the window was folded since the checkpoint")
            w.events = w.events[:ne]
            w.hashes = w.hashes[:nh]
            w.eff = list(eff)
            w.ckpt = list(ck)
            self.load_state(state)
            return
        ne, nh, n_eff, top, base_seq, state, n_ck, top_ck = saved
        if w.base_seq != base_seq:
            raise ValueError("the window was folded since the checkpoint")
        w.events = w.events[:ne]
        w.hashes = w.hashes[:nh]
        while len(w.eff) > n_eff:        # the event pushed itself on the undo stack
            w.eff.pop()
        if len(w.eff) < n_eff:           # an undo popped the top
            w.eff.append(top)
        ck = w.ckpt
        while len(ck) > n_ck:            # the event added a checkpoint
            ck.pop()
        if len(ck) < n_ck:               # an undo dropped the top one
            ck.append(top_ck)
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
        return self.profile.moves_first(self)

    def phase_name(self):
        return self.profile.phases[self.phase]

    def winner(self):
        """Side that has won by the roster's victory conditions (as the ruleset reads them),
        or None."""
        w = self.profile.winner(self)
        if w is None and self.clk:
            from referee.clock import winner
            return winner(self)
        return w

    def snapshot(self):
        """The derived state as a JSON-ready dict (includes ``state_hash`` and ``seq``)."""
        from referee.views import snapshot
        return snapshot(self)

    def ship_dict(self, i):
        from referee.views import ship_dict
        return ship_dict(self, i)

    # ---- core rules --------------------------------------------------------------------
    def check(self, ev):
        """Return None if event ``ev`` is allowed now, else the reason (str). Changes nothing."""
        r = valid(ev)
        if r:
            return r
        kind, a, b, c = ev
        if (kind == EV_UNDO or kind == EV_PHASE) and (a or b or c) or \
                kind == EV_LAUNCH and (b or c):      # docs/protocol.md: those fields are 0
            return "%s: the unused fields are 0" % CORE_NAMES[kind]
        if kind == EV_UNDO:
            if not self.win.eff:
                if self.win.base_seq:
                    return "nothing to undo within the last %d events" % self.win.size
                return "nothing to undo"
            return None
        p = self.profile
        win = self.winner()          # the ruleset's, or a clock that ran out (clock.py)
        if win is not None:
            return "%s has won: play has stopped (undo to go back)" % self.side_names[win]
        ph = p.phases[self.phase]
        if kind == EV_CLOCK:                    # time banks (referee/clock.py)
            if not self.clk:
                return "this game has no clocks (setting clock_s)"
            from referee.clock import check
            return check(self, a, b, c)
        if kind == EV_INIT:
            if p.phases[0] != "initiative":
                return "%s has no initiative roll" % p.name
            if self.phase != 0:
                return "initiative is rolled in the initiative phase (now %s)" % ph
            if self.init != NONE:
                return "initiative is already decided this round"
            if not (1 <= a <= 20 and 1 <= b <= 20):
                return "a d20 shows 1..20"
            if c not in (0, 1):
                return "roll source is 0 (board) or 1 (physical dice)"
            return None
        if kind == EV_HIT:
            return self._check_hit(a, b, c)
        if kind == EV_COUNTER:
            return self._check_counter(a, b, c)
        if kind == EV_PHASE:
            if self.phase == 0 and self.init == NONE and p.phases[0] == "initiative":
                if self.rolls[0] and self.rolls[0] == self.rolls[1]:
                    return "initiative is tied: roll again"
                return "roll initiative first"
            return p.check_phase(self)
        if kind == EV_LAUNCH:
            r = self.ship(a)
            if r:
                return r
            if self.phase == 0:
                return "fighters launch after initiative"
            if self.fl[a] & F_LAUNCHED:
                return "%s is already launched" % self.names[a]
            k = self.carrier[a]
            if k != NONE:
                if self.destroyed(k):
                    return "its carrier %s is destroyed" % self.names[k]
                if self.fl[k] & F_LAUNCHED_ONE:
                    return "%s has already launched a fighter this round" % self.names[k]
            return None
        if kind in p.EVENTS:
            return p.check_ext(self, kind, a, b, c)
        return "%s does not use event kind %d" % (p.name, kind)

    def _check_hit(self, a, b, c):
        p = self.profile
        r = self.ship(a)
        if r:
            return r
        nm = self.names[a]
        if b == 0:
            return "zero damage"
        if b > 99 or b < -99:
            return "damage is -99..99 points"
        if self.phase not in p.hit_phases:
            return "damage is not marked in the %s phase" % p.phases[self.phase]
        if not self.fl[a] & F_LAUNCHED:
            return "%s has not launched" % nm
        total = self.hp1[a] + self.hp2[a]
        if b > 0:
            if self.dmg[a] >= total:
                return "%s is destroyed" % nm
            if self.dmg[a] + self.pend[a] >= total:
                return "%s already has lethal damage marked" % nm
        elif self.phase not in p.pending_phases or self.pend[a] == 0:
            return "no pending damage on %s to remove (use undo)" % nm
        if c != NONE:
            r = self.ship(c)
            if r:
                return r
            an = self.names[c]
            if self.side[c] == self.side[a]:
                return "%s cannot attack its own side" % an
            if self.destroyed(c) and not p.destroyed_fire(self, c):
                return "%s is destroyed and cannot attack" % an
            if not self.fl[c] & F_LAUNCHED:
                return "%s has not launched" % an
            if b > 0 and self.phase == p.one_ship_at_a_time and self.fl[c] & F_FIRED \
                    and self.active != c:
                return "%s has already fired this round" % an
        return p.check_hit(self, a, b, c)

    def _check_counter(self, a, b, c):
        p = self.profile
        if not self.nopt:
            return "%s has no fleet command chart" % p.name
        r = self.ship(a) or self.ship(c)
        if r:
            return r
        if not 0 <= b < self.nopt:
            return "no fleet command option %d" % b
        if self.phase not in p.counter_phases:
            return "fleet command counters are not played in the %s phase" % \
                p.phases[self.phase]
        opt = p.options[b]
        s = self.side[a]
        if self.side[c] != s:
            return "a counter is played for a ship of its own side"
        if self.destroyed(a):
            return "%s is destroyed: its counters are lost" % self.names[a]
        if self.cc[a] == 0:
            return "%s has no command counters left" % self.names[a]
        if self.chart[s * self.nopt + b] != NONE:
            return "%s already holds a counter this round" % opt.name
        if self.destroyed(c):
            return "%s is destroyed" % self.names[c]
        if opt.classes and self.cls[c] not in opt.classes:
            return "%s is for class %s ships only" % (
                opt.name, "/".join([str(x) for x in opt.classes]))
        if opt.effect == EFFECT_AVOID and self.pend[c] == 0:
            return "%s: no hit on %s to avoid" % (opt.name, self.names[c])
        return None

    def _apply(self, ev):
        kind, a, b, c = ev
        p = self.profile
        if kind == EV_INIT:
            self.rolls = (a, b)
            self.roll_src = c
            if a > b:
                self.init = 0
            elif b > a:
                self.init = 1
            elif p.tie == TIE_KEEP and self.prev_init != NONE:
                self.init = self.prev_init
            else:
                self.init = p.tie_without_holder(self)   # NONE: roll again
        elif kind == EV_HIT:
            if b > 0:
                self.mark(a, b, c)
            else:
                self.pend[a] = max(self.pend[a] + b, 0)
        elif kind == EV_COUNTER:
            s = self.side[a]
            self.cc[a] -= 1
            self.chart[s * self.nopt + b] = a
            if p.options[b].effect == EFFECT_AVOID:
                self.pend[c] = max(self.pend[c] - self.settings["damage_per_hit"], 0)
        elif kind == EV_PHASE:
            if self.phase == p.flush_phase:
                self.flush()
            if self.phase == p.one_ship_at_a_time:
                self.active = NONE
            if self.phase + 1 >= len(p.phases):
                # end of round: clear the chart (counters are spent), per-round flags
                for i in range(len(self.chart)):
                    self.chart[i] = NONE
                for i in range(self.n):
                    self.fl[i] &= ~ROUND_FLAGS & 255
                p.end_round(self)
                if self.clk:
                    from referee.clock import end_round
                    end_round(self)
                self.round += 1
                self.phase = 0
                self.prev_init = self.init
                self.init = NONE
                self.active = NONE
            else:
                self.phase += 1
            p.start_phase(self)
        elif kind == EV_CLOCK:
            from referee.clock import apply
            apply(self, a, b, c)
        elif kind == EV_LAUNCH:
            self.fl[a] |= F_LAUNCHED
            k = self.carrier[a]
            if k != NONE:
                self.fl[k] |= F_LAUNCHED_ONE
        else:
            p.apply_ext(self, kind, a, b, c)

    def mark(self, target, points, attacker):
        """Mark ``points`` of damage on ``target`` as EV_HIT does (pending in the ruleset's
        pending phases, else at once); ``attacker`` (or NONE) becomes the ship firing now."""
        p = self.profile
        if points > 0:
            if self.phase in p.pending_phases:
                total = self.hp1[target] + self.hp2[target]
                self.pend[target] = min(self.pend[target] + points, total - self.dmg[target])
            else:
                self.add_damage(target, points)
        if attacker != NONE and self.phase == p.one_ship_at_a_time:
            if self.active != NONE and self.active != attacker:
                self.fl[self.active] |= F_FIRED
            self.active = attacker
        if attacker != NONE:
            p.on_fire(self, attacker, target)

    def flush(self):
        """Apply all pending damage now (the Damage phase; digest 1.2)."""
        for i in range(self.n):
            if self.pend[i]:
                pts = self.pend[i]
                self.pend[i] = 0
                self.add_damage(i, pts)

