"""Committed dice for the tests: the roll recomputed from docs/dice.md alone, and a referee
with committed dice driven through its keys and serial lines."""

import hashlib
import json
import os
import random
import struct

from host_tools.files.verify import DiceLog, verify_game
from referee.app import ACTIONS, Referee
from referee.dice import Dice, Fair
from support import ROOT
from support.game import default_board


def spec_roll(secret, seq, ent, faces, n):
    """docs/dice.md: draw j = first 4 bytes (little-endian) of SHA-256("fleetref-roll-v1" |
    secret | seq | ent | j), each as 4 bytes little-endian; kept when below the largest
    multiple of faces under 2**32, then value = draw mod faces + 1."""
    out, j = [], 0
    limit = 2**32 - (2**32 % faces)
    while len(out) < n:
        d = hashlib.sha256(b"fleetref-roll-v1" + secret + struct.pack("<III", seq, ent, j))
        x = struct.unpack("<I", d.digest()[:4])[0]
        j += 1
        if x < limit:
            out.append(x % faces + 1)
    return out


class Board:
    """A Referee with committed dice, driven through its public keys and serial lines; keeps
    what a mirror keeps (the dice log and the events)."""

    def __init__(self, scenario):
        self.lines = []
        self.app = Referee(
            default_board(),
            os.path.join(ROOT, "firmware", "rosters"),
            self.lines.append,
            Dice(Fair(7)),
            12,
        )
        self.app.load_scenario(scenario)
        self.log = DiceLog()
        self.events = []
        self.game = None
        self.n = 0
        self.pump()

    def pump(self):
        for line in self.lines[self.n :]:
            msg = json.loads(line)
            t = msg.get("t")
            if t == "game":
                self.game = msg
                self.log.game(msg)
                self.events = []
            elif t == "ev":
                self.events.append((msg["seq"], msg["ev"]))
            elif t in ("roll", "reveal"):
                self.log.take(msg)
        self.n = len(self.lines)

    def key(self, k):
        self.app.pad.key(k)
        self.pump()

    def serial(self, obj):
        self.app.link.handle_line(json.dumps(obj))
        self.pump()

    def play(self, keys=500, seed=5):
        rnd = random.Random(seed)
        acts = [a for a in ACTIONS if a not in ("menu", "reveal")]
        for _ in range(keys):
            self.key(rnd.choice(acts + ["roll", "phase", "mark", "sel+"] * 3))
            if self.app.pad.entry and rnd.random() < 0.5:
                self.key("enter")

    def drive(self, rounds=3):
        """Serial commands that roll the board's dice: initiative, then in every phase each
        ruleset command that rolls (attack, ion, overlap) tried for each pair of ships."""
        g = self.app.game
        cmds = [c for c in ("attack", "ion", "overlap") if c in g.rules.COMMANDS]
        for i in range(g.n):
            self.serial({"c": "launch", "ship": i})
        for _ in range(rounds * len(g.rules.phases)):
            if g.winner() is not None:
                break
            for _ in range(4):
                self.serial({"c": "roll"})
            if "move" in g.rules.COMMANDS:
                for a in range(g.n):
                    self.serial({"c": "move", "ship": a})
            for c in cmds:
                for a in range(g.n):
                    for w in [None] + list(getattr(g.rules, "weapons", ())):
                        if w is not None:
                            self.serial({"c": "aim", "ship": a, "weapon": w, "arg": 0})
                        for t in range(g.n):
                            if a != t:
                                self.serial(
                                    {"c": c, "ship": a, "target": t, "other": t, "facing": 0}
                                )
            self.serial({"c": "phase"})

    def verify(self):
        return verify_game(self.game["roster"], self.events, self.log.as_dict())
