"""Undo's replay is bounded and mostly skipped (issue 11: no single event over 20 ms): an undo
right after an event loads the state before it and applies nothing; in a run of undos every
second one applies nothing; none applies CKPT_EVERY events or more. Each undo's state is the
one before the event it takes back (a game that never folds, replayed from its first event)."""

import random

from conftest import new_game
from gen import play
from referee.events import EV_UNDO
from referee.window import CKPT_EVERY

UNDO = (EV_UNDO, 0, 0, 0)


def counting(g):
    """Count the events ``g`` applies (its rules' one way in): a list holding the count."""
    n = [0]
    apply = g._apply

    def counted(ev):
        n[0] += 1
        return apply(ev)
    g._apply = counted
    return n


def test_an_undo_right_after_an_event_applies_nothing():
    g = new_game("swsb-example")
    play(g, 100, 3)                            # deep enough for checkpoints below the top
    n = counting(g)
    for seed in range(20):
        while True:                            # the next event the rules accept, not an undo
            before = g.state_hash()
            play(g, g.seq + 1, seed)
            if g.event(g.seq)[0] != EV_UNDO:
                break
        n[0] = 0
        assert g.submit(UNDO) is None
        assert n[0] == 0 and g.state_hash() == before


def test_a_run_of_undos_replays_every_second_one_at_most():
    """Of two undos in a row (neither folding the window), at least one applies nothing; an
    undo applies fewer than CKPT_EVERY events, plus fewer than CKPT_EVERY more when it folds
    the window first (none when a kept state's entries all lie in the quarter it folds)."""
    folds = 0
    for window, seed in ((256, 1), (256, 2), (16, 3), (40, 4), (256, 5)):
        g = new_game("swsb-example")
        g.window = window
        rng = random.Random(seed)
        n = counting(g)
        runs = 0
        for _ in range(60):
            play(g, g.seq + rng.randint(5, 60), rng.randint(0, 10 ** 6))
            applied = []
            for _ in range(rng.randint(2, 12)):    # a run of undos
                n[0] = 0
                base = g.base_seq
                if g.submit(UNDO) is not None:      # nothing left within the window
                    break
                folded = g.base_seq != base
                folds += folded
                applied.append((n[0], folded))
                limit = 2 * CKPT_EVERY if folded else CKPT_EVERY
                assert n[0] < limit, (window, applied)
            runs += len(applied) > 1
            for (a, fa), (b, fb) in zip(applied, applied[1:]):
                assert fa or fb or a == 0 or b == 0, applied
        assert runs > 20
    assert folds > 10


def test_undone_states_match_a_game_replayed_from_the_start():
    """Undo after undo, with events between, through folds: the state after each undo is the
    one the same log gives replayed whole by a game whose window never folds."""
    g = new_game("swsb-example")
    g.window = 24
    whole = []
    rng = random.Random(9)
    for _ in range(40):
        play(g, g.seq + rng.randint(1, 20), rng.randint(0, 10 ** 6),
             on_event=lambda seq, ev: whole.append(ev))
        for _ in range(rng.randint(1, 6)):
            if g.submit(UNDO) is not None:
                break
            whole.append(g.event(g.seq))
            ref = new_game("swsb-example")
            ref.window = 100000
            ref.replay(whole)
            assert ref.state_hash() == g.state_hash()


def test_a_fold_whose_quarter_holds_a_checkpoint_applies_nothing_more():
    """A window of 128 folds its oldest 32 events: with a checkpoint among them (no undos in
    this game, so one every CKPT_EVERY events) the new base is that state as it is, and the
    event that made the window fold is the only one applied."""
    from gen import candidates
    g = new_game("swsb-example")
    g.window = 128
    rng = random.Random(5)
    n = counting(g)
    folds = []
    while len(folds) < 8:
        ev = rng.choice(candidates(g, rng))
        if ev[0] == EV_UNDO:
            continue
        base, n[0] = g.base_seq, 0
        if g.submit(ev) is None and g.base_seq != base:
            folds.append(n[0])
    assert folds == [1] * 8
