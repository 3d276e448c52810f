"""The rules under stress: random key presses and host commands, with the
invariants checked after every step."""

import json
import os

from hypothesis import settings, strategies as st, HealthCheck
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from support import ROOT
from support.game import new_game
from referee import game as G
from referee.app import Referee, ACTIONS
from referee.dice import Dice, XorShift32

BOARD = json.load(open(os.path.join(ROOT, "boards", "pico-ws2812-16x16.json")))
COMMAND_NAMES = ["hit", "counter", "power", "launch", "phase", "undo", "roll"]


class RefereeMachine(RuleBasedStateMachine):
    @initialize(
        scenario=st.sampled_from(["swsb-example", "hoth", "deathstar"]),
        seed=st.integers(0, 2**32 - 1),
        window=st.sampled_from([8, 16, 256]),
    )
    def start(self, scenario, seed, window):
        self.out = []
        self.app = Referee(
            BOARD,
            os.path.join(ROOT, "firmware", "rosters"),
            self.out.append,
            Dice(XorShift32(seed)),
            12,
        )
        self.app.load_scenario(scenario)
        self.app.game.window_size = window
        self.scenario = scenario
        g = self.app.game
        self.cc0 = bytes(g.counters)
        self.history = []  # hash before each event in effect (None: not seen), as a stack
        self.effective = []  # (event, round it was played in) in effect
        self.all_events = []

    def _after(self, before_seq, before_hash, before):
        g = self.app.game
        if g.seq == before_seq:
            assert g.state_hash() == before_hash  # a refused action changes nothing
            return
        # a key or a command logs one event, or several for one action (an smb aim whose
        # response the rules log with it): each is checked; the hash before a later one of
        # them is not seen from here (None), so an undo back to it checks the event alone
        assert g.seq > before_seq
        for seq in range(before_seq + 1, g.seq + 1):
            self._one(g.event(seq), before if seq == before_seq + 1 else None, before_hash)
            before_hash = None

    def _one(self, ev, before, before_hash):
        g = self.app.game
        rnd = g.round if before is None else before["round"]
        self.all_events.append(ev)
        k, a, b, c = ev
        if k == G.EV_UNDO:
            # undo returns exactly the previous state_hash (when it was seen)
            want = self.history.pop()
            assert want is None or g.state_hash() == want
            self.effective.pop()
            return
        self.history.append(before_hash)
        self.effective.append((ev, rnd))
        if before is None:
            return
        dead = before["dead"]
        # destroyed ships take no action
        if k == G.EV_HIT and c != 255 and b > 0:
            assert not dead[c]
        if k == G.EV_COUNTER:
            assert not dead[a] and not dead[c]
        if k in (6, G.EV_LAUNCH):  # 6: full-power (smb)
            assert not dead[a]
        if k == G.EV_HIT and b > 0:
            assert not dead[a]

    def _snap(self):
        g = self.app.game
        return {"dead": [g.destroyed(i) for i in range(g.n)], "round": g.round}

    @rule(action=st.sampled_from([a for a in ACTIONS if a != "menu"]))  # menu: a new game
    def key(self, action):
        g = self.app.game
        s, h, before = g.seq, g.state_hash(), self._snap()
        self.app.pad.key(action)
        self._after(s, h, before)

    @rule(
        name=st.sampled_from(COMMAND_NAMES),
        ship=st.integers(0, 30),
        n=st.integers(-3, 3),
        by=st.one_of(st.none(), st.integers(0, 30)),
        option=st.integers(0, 4),
        values=st.one_of(st.none(), st.tuples(st.integers(1, 20), st.integers(1, 20))),
    )
    def command(self, name, ship, n, by, option, values):
        g = self.app.game
        msg = {"c": name, "ship": ship % g.n, "n": n, "option": option}
        if by is not None:
            msg["by"] = by % g.n
        if values is not None:
            msg["values"] = list(values)
        if name == "counter":
            msg["for"] = (ship * 7) % g.n
        s, h, before = g.seq, g.state_hash(), self._snap()
        self.app.link.handle_line(json.dumps(msg))
        self._after(s, h, before)

    @invariant()
    def damage_within_bounds(self):
        g = self.app.game
        for i in range(g.n):
            t = g.hp1[i] + g.hp2[i]
            assert 0 <= g.dmg[i] <= t and 0 <= g.pending[i] and g.dmg[i] + g.pending[i] <= t

    @invariant()
    def counters_never_negative_or_refilled(self):
        g = self.app.game
        for i in range(g.n):
            assert g.counters[i] <= self.cc0[i]  # a bytearray wraps to 255 if it went below 0
        spent = sum(self.cc0[i] - g.counters[i] for i in range(g.n))
        on_chart = sum(1 for v in g.chart if v != 255)
        assert on_chart <= spent

    @invariant()
    def one_counter_per_option_per_round(self):
        seen = set()
        for ev, rnd in self.effective:
            if ev[0] == G.EV_COUNTER:
                key = (rnd, self.app.game.side[ev[1]], ev[2])
                assert key not in seen, key
                seen.add(key)

    @invariant()
    def replaying_the_log_reproduces_the_state(self):
        if len(self.all_events) % 7:
            return
        g = self.app.game
        h = new_game(self.scenario)
        h.window_size = 100000
        h.replay(self.all_events)
        assert h.state_hash() == g.state_hash()

    @invariant()
    def every_state_reached_passes_the_saved_state_checks(self):
        # what the base command and a journal's snapshot accept (fleet.check_state) must
        # hold every state play can reach, or a saved game could not be restored
        g = self.app.game
        assert g.check_state(g.state_bytes()) is None, g.check_state(g.state_bytes())

    @invariant()
    def chart_holds_at_most_one_counter_per_option(self):
        g = self.app.game
        # each chart cell names one source ship or is empty, and that ship is on that side
        for s in range(2):
            for k in range(g.option_count):
                v = g.chart[s * g.option_count + k]
                assert v == 255 or g.side[v] == s


TestReferee = RefereeMachine.TestCase
TestReferee.settings = settings(
    max_examples=120,
    stateful_step_count=60,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
