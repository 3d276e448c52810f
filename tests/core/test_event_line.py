"""Protocol 4's compact ``ev`` line (the serial speed goal): every event kind of every ruleset
goes from the board's own code (Referee.send_event) to the mirror's parser and back
unchanged, printable, and short; a corrupt or truncated line draws one clear warning and the
mirror catches up; a mirror catching up 100,000 events never recurses."""

import json
import sys

from hypothesis import given, settings, strategies as st

from support.game import make_referee
from support.registries import rulesets_missing_from
from referee import rules
from referee.events import CORE_NAMES, EV_HIT, EV_UNDO
from referee.protocol import ev_line

# a shipped scenario per ruleset: the board must have a game of that ruleset loaded
SCENARIO = {
    "smb": "hoth",
    "swsb": "swsb-example",
    "swsb-addon": "swsb-addon-example",
    "squadrons-d6": "squadrons-d6-example",
    "xwing-overlap": "xwing-overlap-example",
}


def test_every_ruleset_has_a_scenario_here():
    missing = rulesets_missing_from(SCENARIO)
    assert not missing, (
        "SCENARIO in tests/core/test_event_line.py has no entry for %s: add the ruleset's "
        "name with a shipped scenario of it, as its example (%s) (CONTRIBUTING.md, "
        "'A new ruleset', step 6)"
        % (missing, ", ".join("%s: %r" % (n, rules.get(n).example) for n in missing))
    )
    unknown = sorted(set(SCENARIO) - set(rules.RULESETS))
    assert not unknown, "SCENARIO names rulesets not in RULESETS: %s" % unknown


BOARDS = {}


def board(ruleset):
    if ruleset not in BOARDS:
        BOARDS[ruleset] = make_referee(SCENARIO[ruleset])
    return BOARDS[ruleset]


@st.composite
def events(draw):
    rs = draw(st.sampled_from(sorted(SCENARIO)))
    kinds = sorted(set(CORE_NAMES) | set(rules.get(rs).EVENTS))
    k = draw(st.sampled_from(kinds))
    # EV_HIT carries b signed in its byte (-127..127); every other kind 0..255 (events.py)
    b = draw(st.integers(-127, 127) if k == EV_HIT else st.integers(0, 255))
    ev = (k, draw(st.integers(0, 255)), b, draw(st.integers(0, 255)))
    return rs, ev, draw(st.integers(0, 0xFFFFFFFF))


@settings(max_examples=400, deadline=None)
@given(events())
def test_compact_line_round_trips_every_event_kind(case):
    from host_tools.link.mirror import Mirror

    rs, ev, h = case
    app, out = board(rs)
    g = app.game
    w = g.event_window
    saved = w.export()
    try:
        w.append(ev)  # the event as the window holds it (4 bytes)...
        w.push_hash(h)
        n = len(out)
        app.send_event(g.seq)  # ...sent by the board's own code
        line = out[n]
    finally:
        w.set(*saved)
    assert all(32 <= ord(ch) <= 126 for ch in line), line
    assert len(line) + 1 <= 64, line  # seq below 1,000: a typical game
    m = Mirror("unused", warn=lambda s: None)
    msg = m._parse(line.encode())
    assert msg == {"t": "ev", "seq": g.seq + 1, "ev": list(ev), "hash": "%08x" % h}, line
    assert m.corrupt == 0


def test_line_length_over_a_long_game():
    # the longest event a shipped ruleset can send (its highest kind, two arguments of 3
    # digits and a signed one), at seq 999,999, still fits a 64-byte line with its newline
    top = max(k for name in rules.RULESETS for k in rules.get(name).EVENTS)
    assert top < 100
    assert len(ev_line(999999, (top, 255, -99, 255), "ffffffff")) + 1 <= 64
    assert len(ev_line(999999, (top, 255, 255, 255), "ffffffff")) + 1 <= 64
    assert json.loads(ev_line(7, (4, 0, 0, 0), "")) == {"t": "ev", "seq": 7, "ev": [4, 0, 0, 0]}


class FakeSerial:
    """A serial port whose other end is a board made of the board's own code (a Referee),
    answering each command line; ``mangle(lines)`` may change what the board sends."""

    def __init__(self, app, out, mangle=None):
        self.app = app
        self.out = out
        self.mangle = mangle or (lambda lines: lines)
        self.rx = bytearray()

    @property
    def in_waiting(self):
        return len(self.rx)

    def read(self, n):
        d = bytes(self.rx[:n])
        del self.rx[:n]
        return d

    def reset_input_buffer(self):
        self.rx.clear()

    def write(self, data):
        for line in data.decode().splitlines():
            k = len(self.out)
            self.app.link.handle_line(line)
            for l in self.mangle(self.out[k:]):
                self.rx += l.encode() + b"\n"

    def fileno(self):
        raise AttributeError("no descriptor")

    def close(self):
        pass


def played_board(n):
    """A board (Referee, swsb) that has played ``n`` events; its RAM window holds the newest."""
    from support.game import accepted_events

    app, out = make_referee("swsb-example")
    g = app.game
    for ev in accepted_events(g, n):
        if g.seq >= n:
            break
        assert app.submit(ev) is None, ev
    return app, out


def test_corrupt_and_truncated_lines_warn_once_and_resync():
    from host_tools.link.mirror import Mirror

    app, out = played_board(40)
    cut = {"n": 0}

    def mangle(lines):
        res = []
        for l in lines:
            if l.startswith('{"t":"ev"') and '"seq":30,' in l and cut["n"] == 0:
                cut["n"] += 1
                res.append(l[: len(l) // 2])  # truncated mid-line
            elif l.startswith('{"t":"ev"') and '"seq":35,' in l and cut["n"] == 1:
                cut["n"] += 1
                res.append(l.replace('"ev":[', '"ev":[9999,'))  # corrupted
            else:
                res.append(l)
        return res

    warnings = []
    m = Mirror("fake", warn=warnings.append)
    m.ser = FakeSerial(app, out, mangle)
    m.connected = True
    m.sync()
    m.pump(0.05)
    assert cut["n"] == 2
    assert len(warnings) == 2 and all("corrupt event line" in w for w in warnings), warnings
    assert m.corrupt == 2
    assert m.rep.game.seq == 40 and not m.rep.mismatches
    assert m.rep.game.state_hash() == app.game.state_hash()
    assert [r[0] for r in m.rep.rows] == list(range(app.game.base_seq + 1, 41)) or [
        r[0] for r in m.rep.rows
    ] == list(range(1, 41))


def test_catch_up_of_100000_events_does_not_recurse(tmp_path):
    """The board streams 100,000 events from its journal in batches, and the link loses a line
    now and then (gaps): the mirror asks again from where it is, in a loop, with a recursion
    limit a few dozen frames above where it starts."""
    import inspect
    from host_tools.link.mirror import Mirror
    from support.game import played_referee

    n = 100000
    app, out = played_referee(tmp_path, n, history_budget=1 << 20)
    g = app.game
    del out[:]
    lost = {"n": 0}

    def mangle(lines):
        res = []
        for l in lines:
            if (
                l.startswith('{"t":"ev"')
                and json.loads(l)["seq"] % 9973 == 0
                and lost["n"] < 10
                and json.loads(l)["seq"] // 9973 > lost["n"]
            ):
                lost["n"] += 1  # dropped on the way: the next one is a gap
                continue
            res.append(l)
        return res

    m = Mirror("fake", warn=lambda s: None)
    m.ser = FakeSerial(app, out, mangle)
    m.connected = True
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack()) + 60)
    try:
        m.sync()
    finally:
        sys.setrecursionlimit(old)
    assert lost["n"] == 10
    assert m.rep.game.seq == n and len(m.rep.rows) == n and not m.rep.mismatches
    assert m.rep.game.state_hash() == g.state_hash()
    assert (
        m.rep.game.event_window.count() <= m.rep.game.window_size
    )  # the replica folds its window
    assert sum(1 for c in m.sent if c.get("c") == "events") >= n // 1000
    assert any(ev[0] == EV_UNDO for _, ev, _ in m.rep.rows)
