"""Deterministic random games for the journal, soak and fuzz tests: the random events of
``devtools.faults`` (``candidates``), submitted until enough were accepted."""

import random

from devtools.faults import candidates
from referee import game as G


def play(g, count, seed, on_event=None):
    """Submit random events to ``g`` until ``count`` were accepted; returns the hashes after
    each accepted event (index 0 = before any)."""
    rng = random.Random(seed)
    hashes = [g.state_hash()]
    while g.seq < count:
        ev = rng.choice(candidates(g, rng))
        if ev[0] == G.EV_UNDO and rng.random() < 0.7:
            continue
        if g.submit(ev) is None:
            hashes.append(g.state_hash())
            if on_event:
                on_event(g.seq, g.event(g.seq))
    return hashes


def long_game(scenario="swsb-example", count=400, seed=21):
    """A game of ``scenario`` whose window keeps every event, after ``play`` (``count``
    events, ``seed``); returns (the game, its events as lists, as `append` takes them)."""
    from support.game import new_game

    g = new_game(scenario)
    g.window_size = 1 << 30
    play(g, count, seed)
    return g, [list(e) for e in g.log]
