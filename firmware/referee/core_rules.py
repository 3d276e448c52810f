"""The core rules every ruleset shares: which events are allowed now (:meth:`CoreRules.check`)
and what each does to the state (:meth:`CoreRules._apply`):
initiative (rules digest 1.1), hits and pending damage (2.2), Fleet Command counters (3.4),
phases and the round's end (1.2), launches (4). A ruleset's own kinds go to its
``check_ext`` / ``apply_ext``, an extension's (time banks) to its hooks (referee/extensions.py). The event log, undo and the RAM window are game.Game's (it
checks an undo itself); the state's bytes are fleet.Fleet's. CoreRules reads and writes only
what fleet.Fleet holds and calls only its own and Fleet's methods.
"""

from referee.events import (
    EV_INIT,
    EV_HIT,
    EV_COUNTER,
    EV_PHASE,
    EV_UNDO,
    EV_LAUNCH,
    NONE,
    CORE_NAMES,
    valid,
)
from referee import extensions
from referee.fleet import Fleet, and_each, F_LAUNCHED, F_FIRED, F_LAUNCHED_ONE, ROUND_FLAGS
from referee.rules.base import TIE_KEEP, EFFECT_AVOID, HIT_AVOIDED


class CoreRules(Fleet):
    """A fleet's state (fleet.Fleet, and its constructor) with the core rules' check and
    apply; game.Game adds the event log and undo."""

    def winner(self):
        """Side that has won by the roster's victory conditions (as the ruleset reads them),
        or None."""
        w = self.rules.winner(self)
        for x in self.extensions:  # a clock that ran out (referee/extensions.py)
            if w is None:
                w = x.winner(self)
        return w

    def check(self, ev):  # noqa: PLR0911 (a refusal each)
        """Return None if event ``ev`` is allowed now, else the reason (str). Changes nothing.
        An undo of the right form passes here: game.Game checks it against its undo stack."""
        r = valid(ev)
        if r:
            return r
        kind, a, b, c = ev
        if ((kind == EV_UNDO or kind == EV_PHASE) and (a or b or c)) or (
            kind == EV_LAUNCH and (b or c)
        ):  # docs/protocol.md: those fields are 0
            return "%s: the unused fields are 0" % CORE_NAMES[kind]
        if kind == EV_UNDO:
            return None
        p = self.rules
        win = self.winner()  # the ruleset's, or an extension's (a clock that ran out)
        if win is not None:
            from referee.texts import says  # (a refusal: the texts load only now)

            return "%s: play has stopped (undo to go back)" % says(self.side_names[win], "has won")
        r = extensions.by_kind(self, ev, "check")  # an extension's kind (time banks: EV_CLOCK)
        if r is not False:
            return r
        if kind == EV_INIT:
            return self._check_init(a, b, c)
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
            if self.flags[a] & F_LAUNCHED:
                return "%s is already launched" % self.names[a]
            k = self.carrier[a]
            if k != NONE:
                if self.destroyed(k):
                    return "its carrier %s is destroyed" % self.names[k]
                if self.flags[k] & F_LAUNCHED_ONE:
                    return "%s has already launched a fighter this round" % self.names[k]
            return None
        if kind in p.EVENTS:
            return p.check_ext(self, kind, a, b, c)
        return "%s does not use event kind %d" % (p.name, kind)

    def _check_init(self, a, b, c):  # noqa: PLR0911 (a refusal each)
        p = self.rules
        if p.phases[0] != "initiative":
            return "%s has no initiative roll" % p.name
        if self.phase != 0:
            return "initiative is rolled in the initiative phase (now %s)" % p.phases[self.phase]
        if self.init != NONE:
            return "initiative is already decided this round"
        if not (1 <= a <= 20 and 1 <= b <= 20):
            return "a d20 shows 1..20"
        if c not in (0, 1):
            return "roll source is 0 (board) or 1 (physical dice)"
        return None

    def _check_hit(self, a, b, c):  # noqa: PLR0911 (a refusal each)
        p = self.rules
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
        if not self.flags[a] & F_LAUNCHED:
            return "%s has not launched" % nm
        total = self.hp1[a] + self.hp2[a]
        if b > 0:
            if self.dmg[a] >= total:
                return "%s is destroyed" % nm
            if self.dmg[a] + self.pending[a] >= total:
                return "%s already has lethal damage marked" % nm
        elif self.phase not in p.pending_phases or self.pending[a] == 0:
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
            if not self.flags[c] & F_LAUNCHED:
                return "%s has not launched" % an
            if (
                b > 0
                and self.phase == p.one_ship_at_a_time
                and self.flags[c] & F_FIRED
                and self.active != c
            ):
                return "%s has already fired this round" % an
        return p.check_hit(self, a, b, c)

    def _check_counter(self, a, b, c):
        p = self.rules
        if not self.option_count:
            return "%s has no fleet command chart" % p.name
        r = self.ship(a) or self.ship(c)
        if r:
            return r
        if not 0 <= b < self.option_count:
            return "no fleet command option %d" % b
        if self.phase not in p.counter_phases:
            return "fleet command counters are not played in the %s phase" % p.phases[self.phase]
        opt = p.options[b]
        s = self.side[a]
        if self.side[c] != s:
            return "a counter is played for a ship of its own side"
        if self.destroyed(a):
            return "%s is destroyed: its counters are lost" % self.names[a]
        if self.counters[a] == 0:
            return "%s has no command counters left" % self.names[a]
        if self.chart[s * self.option_count + b] != NONE:
            return "%s already holds a counter this round" % opt.name
        if self.destroyed(c):
            return "%s is destroyed" % self.names[c]
        if opt.classes and self.cls[c] not in opt.classes:
            return "%s is for class %s ships only" % (
                opt.name,
                "/".join([str(x) for x in opt.classes]),
            )
        if opt.effect == EFFECT_AVOID:
            if self.pending[c] == 0:
                return "%s: no hit on %s to avoid" % (opt.name, self.names[c])
            if self.ship_state[c * p.SHIP_BYTES + p.HIT_BYTE] & HIT_AVOIDED:
                return "%s: the newest hit on %s is avoided already" % (opt.name, self.names[c])
        return p.check_counter(self, a, b, c)

    def _apply(self, ev):
        kind, a, b, c = ev
        p = self.rules
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
                self.init = p.tie_without_holder(self)  # NONE: roll again
        elif kind == EV_HIT:
            if b > 0:
                self.mark(a, b, c)
            else:
                self.pending[a] = max(self.pending[a] + b, 0)
        elif kind == EV_COUNTER:
            s = self.side[a]
            self.counters[a] -= 1
            self.chart[s * self.option_count + b] = a
            if p.options[b].effect == EFFECT_AVOID:  # the newest hit, all its points
                k = c * p.SHIP_BYTES + p.HIT_BYTE
                self.pending[c] = max(self.pending[c] - self.ship_state[k], 0)
                self.ship_state[k] |= HIT_AVOIDED
        elif kind == EV_PHASE:
            if self.phase == p.flush_phase:
                self.flush()
            if self.phase == p.one_ship_at_a_time:
                self.active = NONE
            if self.phase + 1 >= len(p.phases):
                # end of round: clear the chart (counters are spent), per-round flags
                ch = self.chart
                ch[:] = bytes((NONE,)) * len(ch)
                and_each(self.flags, ~ROUND_FLAGS & 255)
                p.end_round(self)
                for x in self.extensions:  # (time banks: the round's increment)
                    x.end_round(self)
                self.round += 1
                self.phase = 0
                self.prev_init = self.init
                self.init = NONE
                self.active = NONE
            else:
                self.phase += 1
            p.start_phase(self)
        elif kind == EV_LAUNCH:
            self.flags[a] |= F_LAUNCHED
            k = self.carrier[a]
            if k != NONE:
                self.flags[k] |= F_LAUNCHED_ONE
        elif not self.extensions or extensions.by_kind(self, ev, "apply") is False:
            p.apply_ext(self, kind, a, b, c)

    def mark(self, target, points, attacker):
        """Mark ``points`` of damage on ``target`` as EV_HIT does (pending in the ruleset's
        pending phases, else at once); ``attacker`` (or NONE) becomes the ship firing now.
        A pending hit's points (as many as the ship had left to take) go to the ruleset's
        HIT_BYTE: the hit an EFFECT_AVOID option takes back whole (seed 000 FAQ, Fly Casual
        "avoid a hit"; digest 2.2: a hit may be worth more than 1 point)."""
        p = self.rules
        if points > 0:
            if self.phase in p.pending_phases:
                total = self.hp1[target] + self.hp2[target]
                was = self.pending[target]
                self.pending[target] = min(was + points, total - self.dmg[target])
                if p.HIT_BYTE >= 0:  # the newest hit: what an avoid takes off (Fly Casual)
                    self.ship_state[target * p.SHIP_BYTES + p.HIT_BYTE] = min(
                        max(self.pending[target] - was, 0), HIT_AVOIDED - 1
                    )
            else:
                self.add_damage(target, points)
        if attacker != NONE and self.phase == p.one_ship_at_a_time:
            if self.active != NONE and self.active != attacker:
                self.flags[self.active] |= F_FIRED
            self.active = attacker
        if attacker != NONE:
            p.on_fire(self, attacker, target)

    def flush(self):
        """Apply all pending damage now (the Damage phase; digest 1.2)."""
        pend = self.pending
        if not any(pend):  # (in C: most Damage phases of a replay find none)
            return
        for i in range(self.n):
            pts = pend[i]
            if pts:
                pend[i] = 0
                self.add_damage(i, pts)
