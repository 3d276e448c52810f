"""A referee with time banks whose millisecond clock is the test's (docs/clock.md)."""

import copy
import json
import os

from referee.clock import clock_of
from support import ROOT
from support.game import make_referee


def roster(name, **settings):
    r = json.load(open(os.path.join(ROOT, "firmware", "rosters", name + ".json")))
    r = copy.deepcopy(r)
    r.setdefault("settings", {}).update(settings)
    return r


class Table:
    def __init__(self, name, **settings):
        self.app, self.out = make_referee(name)
        self.T = [1000]
        self.send({"c": "load", "roster": roster(name, **settings)})
        ck = clock_of(self.app)
        ck.now = lambda: self.T[0]

    def send(self, obj):
        self.app.link.handle_line(json.dumps(obj))

    def wait(self, s):
        """``s`` seconds pass, the board's clock task polling every 250 ms."""
        for _ in range(int(s * 4)):
            self.T[0] += 250
            clock_of(self.app).poll(self.app)

    @property
    def clock(self):
        return self.app.game.snapshot()["clock"]

    def events(self):
        return [json.loads(x)["ev"] for x in self.out if x.startswith('{"t":"ev"')]
