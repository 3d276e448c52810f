"""Deterministic random games for the journal, soak and fuzz tests."""

import random

from referee import game as G


def candidates(g, rng):
    n = g.n
    return [
        (G.EV_PHASE, 0, 0, 0),
        (G.EV_INIT, rng.randint(1, 20), rng.randint(1, 20), 0),
        (
            G.EV_HIT,
            rng.randrange(n),
            rng.choice((1, 1, 2, -1)),
            rng.choice((255, rng.randrange(n))),
        ),
        (G.EV_UNDO, 0, 0, 0),
        (G.EV_COUNTER, rng.randrange(n), rng.randrange(4), rng.randrange(n)),
        (G.EV_LAUNCH, rng.randrange(n), 0, 0),
        (6, rng.randrange(n), 0, 0),
    ]  # 6: full-power (smb)


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
