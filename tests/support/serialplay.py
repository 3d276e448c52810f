"""Play a game through the referee's serial protocol (docs/protocol.md), as a host would.

``Board(scenario)`` loads a shipped scenario (or ``Board(roster=dict)`` a roster object);
``b.c("hit", ship=..., by=...)`` sends one command line and returns the ``err`` message it
drew (or None); ``b.snap()`` is the board's ``snap`` reply. Ships are named as in the roster.
"""

import json

# the first serial commands of a hoth game, each making one event: an initiative roll, a
# phase, a launch, a hit and a move (the link tests play them to a board a mirror follows)
HOTH_OPENING = [
    {"c": "roll", "values": [9, 4]},
    {"c": "phase"},
    {"c": "launch", "ship": 1},
    {"c": "hit", "ship": 1},
    {"c": "move", "ship": 0},
]


class Board:
    def __init__(self, scenario=None, roster=None, ruleset=None, seed=3):
        from support.game import bare_referee

        self.app, self.out = bare_referee(seed, {"name": "test"})
        msg = {"c": "load"}
        if roster is not None:
            msg["roster"] = roster
        if scenario is not None:
            msg["scenario"] = scenario
        if ruleset is not None:
            msg["ruleset"] = ruleset
        assert self.c(**msg) is None

    def line(self, obj):
        n = len(self.out)
        self.app.link.handle_line(json.dumps(obj))
        return [json.loads(l) for l in self.out[n:]]

    def c(self, c, **kw):
        """Send command ``c``; returns the err message or None."""
        kw["c"] = c
        for r in self.line(kw):
            if r.get("t") == "err":
                return r["msg"]
        return None

    def ok(self, c, **kw):
        r = self.c(c, **kw)
        assert r is None, r

    def refused(self, words, c, **kw):
        before = self.snap()
        r = self.c(c, **kw)
        assert r is not None and words in r, r
        after = self.snap()
        assert after["state_hash"] == before["state_hash"] and after["seq"] == before["seq"]
        return r

    def snap(self):
        return next(r for r in self.line({"c": "snap"}) if r.get("t") == "snap")

    def ship(self, name):
        return next(s for s in self.snap()["ships"] if s["name"] == name)

    def move_all(self):
        """smb: every ship still to move makes a standard move, the initiative side first
        (seed 004: every ship on the table moves before the movement phase ends)."""
        s = self.snap()
        first = s["initiative"]
        for side in (first, 1 - first):
            for x in s["ships"]:
                if x["side"] == side and x["launched"] and x["status"] != "destroyed":
                    self.c("move", ship=x["i"], mode=1)  # refused when it has moved

    def phases(self, n):
        for _ in range(n):
            self.ok("phase")
