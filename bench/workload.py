"""The benchmarks' workload: real games.

- :func:`scripted_games`: the five key scripts of docs/scripts/ played by the real simulator
  (``fleetref sim --headless --script``), one per ruleset: their events are real games.
- :func:`long_game`: a game of any length on the 2x24-ship swsb bench roster with the event
  mix of the scripted swsb game (docs/scripts/swsb-3-rounds.txt), phase by phase: in each
  phase the kinds of event (initiative, phase advance, hits with their attackers, fleet command
  counters, ships finishing their fire, launches, undos) come in the proportions that game
  had in that phase. Every event is one the rules accept (checked by the real Game). So that
  100,000 events never end the game, the ships have 99/99 hit points and three of four hits
  marked in the attack phases are taken back with a -1 (pending damage removed) before the
  damage phase; fleet command counters run out as the rules say (a few rounds in).
"""

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
sys.path.insert(0, ROOT)

from host_tools import paths  # noqa: E402
from referee import rules, scenarios  # noqa: E402
from referee.dice import XorShift32  # noqa: E402
from referee.events import (  # noqa: E402
    EV_INIT,
    EV_HIT,
    EV_COUNTER,
    EV_PHASE,
    EV_UNDO,
    EV_LAUNCH,
    NONE,
)
from referee.game import Game  # noqa: E402

SCRIPTS = [
    ("hoth-3-rounds", "hoth"),
    ("swsb-3-rounds", "swsb-example"),
    ("swsb-addon-demo", "swsb-addon-example"),
    ("squadrons-d6-demo", "squadrons-d6-example"),
    ("xwing-overlap-demo", "xwing-overlap-example"),
]
EV_DONE = 15  # swsb's "done" (firmware/referee/rules/swsb.py)


def roster_2x24(hp=None):
    """The bench roster: swsb, 24 ships a side of classes 1-4 (``hp``: every ship's [X, Y],
    else varied small values)."""
    ships = [
        {
            "name": "Ship %d" % k,
            "class": 1 + k % 4,
            "hp": list(hp) if hp else [2 + k % 5, k % 3],
            "cc": k % 3,
        }
        for k in range(24)
    ]
    return {
        "name": "bench",
        "ruleset": "swsb",
        "sides": [{"name": "A", "ships": ships}, {"name": "B", "ships": ships}],
    }


def new_game(roster):
    norm = scenarios.load_text(json.dumps(roster))[0]
    return Game(rules.get(norm["ruleset"]), norm)


_CACHE = {}


def scripted_games():
    """[(script name, scenario, events)] from the real simulator playing each script."""
    if "games" not in _CACHE:
        out = []
        for name, scenario in SCRIPTS:
            r = subprocess.run(
                paths.headless_sim_argv(
                    scenario, 1, "--script", os.path.join(ROOT, "docs", "scripts", name + ".txt")
                ),
                capture_output=True,
                text=True,
                cwd=ROOT,
                timeout=300,
                check=False,
            )
            if r.returncode:
                raise SystemExit("sim failed on %s: %s" % (name, r.stderr[-2000:]))
            snap = json.loads(r.stdout.splitlines()[-1])
            out.append((name, scenario, [tuple(e) for e in snap["events"]]))
        _CACHE["games"] = out
    return _CACHE["games"]


def swsb_mix():
    """{phase: [(kind, share)]}: what the scripted swsb game did in each phase (phase
    advances included), from replaying its events through the real rules."""
    roster = json.loads(scenarios.read("swsb-example", os.path.join(ROOT, "firmware", "rosters")))
    g = new_game(roster)
    per = {}
    for name, _, evs in scripted_games():
        if name != "swsb-3-rounds":
            continue
        for e in evs:
            d = per.setdefault(g.phase, {})
            d[e[0]] = d.get(e[0], 0) + 1
            g.submit(e)
    return {ph: sorted((k, v / sum(d.values())) for k, v in d.items()) for ph, d in per.items()}


def _candidates(g, kind, rng):
    n = g.n
    if kind == EV_PHASE:
        return [(EV_PHASE, 0, 0, 0)]
    if kind == EV_INIT:
        return [(EV_INIT, rng.below(20) + 1, rng.below(20) + 1, 0)]
    if kind == EV_UNDO:
        return [(EV_UNDO, 0, 0, 0)]
    if kind == EV_LAUNCH:
        return [(EV_LAUNCH, rng.below(n), 0, 0) for _ in range(4)]
    if kind == EV_COUNTER:
        out = []
        half = n // 2  # the bench rosters: n/2 ships a side
        for _ in range(6):
            a = rng.below(n)
            out.append((EV_COUNTER, a, rng.below(4), (a // half) * half + rng.below(half)))
        return out
    if kind == EV_DONE:
        return (
            [(EV_DONE, g.active, 0, 0)]
            if g.active != NONE
            else [(EV_DONE, rng.below(n), 0, 0) for _ in range(4)]
        )
    if kind == EV_HIT:
        out = []
        pend = [i for i in range(n) if g.pending[i]]
        if pend and rng.below(4) < 3:  # three of four marked hits are taken back
            out.append((EV_HIT, pend[rng.below(len(pend))], -1, NONE))
        half = n // 2
        for _ in range(6):
            t = rng.below(n)
            by = (
                g.active
                if g.active != NONE and g.side[g.active] != g.side[t]
                else (1 - t // half) * half + rng.below(half)
            )
            out.append((EV_HIT, t, 1, by))
        return out
    return []


def long_game(n, seed=7, roster=None):
    """(roster, [event tuple] * n): a game of ``n`` accepted events with the scripted swsb
    game's mix (see the module's docstring)."""
    roster = roster or roster_2x24((99, 99))
    key = (n, seed, json.dumps(roster))
    if key not in _CACHE:
        _CACHE[key] = (roster, _play(n, seed, roster))
    return _CACHE[key]


def _play(n, seed, roster):
    g = new_game(roster)
    rng = XorShift32(seed)
    tables = {}
    for ph, mix in swsb_mix().items():
        t = []
        for k, share in mix:
            t += [k] * max(1, round(share * 100))
        tables[ph] = t
    out = []
    while len(out) < n:
        table = tables.get(g.phase) or [EV_PHASE]
        for _ in range(8):
            kind = table[rng.below(len(table))]
            ev = None
            for c in _candidates(g, kind, rng):
                if g.check(c) is None:
                    ev = c
                    break
            if ev is not None:
                break
        if ev is None and g.winner() is not None:
            raise ValueError("the bench game ended at event %d" % g.seq)
        if ev is None:
            ev = (
                (EV_PHASE, 0, 0, 0)
                if g.check((EV_PHASE, 0, 0, 0)) is None
                else (EV_INIT, 1 + rng.below(20), 1 + rng.below(20), 0)
            )
        if g.submit(ev) is None:
            out.append(ev)
    return out
