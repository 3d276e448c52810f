"""Undo's replay is bounded and mostly skipped (no single event over 20 ms): an undo
right after an event loads the state before it and applies nothing; in a run of undos every
second one applies nothing; none applies CKPT_EVERY events or more. Each undo's state is the
one before the event it takes back (a game that never folds, replayed from its first event)."""

import itertools
import random

from support.game import new_game, scenario_text
from support.gen import play
from referee.events import EV_UNDO
from referee.window import CKPT_EVERY
from support.game import counting

UNDO = (EV_UNDO, 0, 0, 0)


def test_an_undo_right_after_an_event_applies_nothing():
    g = new_game("swsb-example")
    play(g, 100, 3)  # deep enough for checkpoints below the top
    n = counting(g)
    for seed in range(20):
        while True:  # the next event the rules accept, not an undo
            before = g.state_hash()
            play(g, g.seq + 1, seed)
            if g.event(g.seq)[0] != EV_UNDO:
                break
        n[0] = 0
        assert g.submit(UNDO) is None
        assert n[0] == 0 and g.state_hash() == before


def test_a_run_of_undos_replays_every_second_one_at_most():
    """Of two undos in a row (neither folding the window), at least one applies nothing; an
    undo near the top of the undo stack applies fewer than CKPT_EVERY events, and fewer than
    3 * CKPT_EVERY when it folds the window first (the fold's new base replayed from a
    checkpoint near the window's start, where they are 2 * CKPT_EVERY apart: window.thin)."""
    folds = 0
    for window, seed in ((256, 1), (256, 2), (16, 3), (40, 4), (256, 5)):
        g = new_game("swsb-example")
        g.window_size = window
        rng = random.Random(seed)
        n = counting(g)
        runs = 0
        for _ in range(60):
            play(g, g.seq + rng.randint(5, 60), rng.randint(0, 10**6))
            applied = []
            for _ in range(rng.randint(2, 12)):  # a run of undos
                n[0] = 0
                base = g.base_seq
                if g.submit(UNDO) is not None:  # nothing left within the window
                    break
                folded = g.base_seq != base
                folds += folded
                applied.append((n[0], folded))
                limit = 3 * CKPT_EVERY if folded else CKPT_EVERY
                assert n[0] < limit, (window, applied)
            runs += len(applied) > 1
            for (a, fa), (b, fb) in itertools.pairwise(applied):
                assert fa or fb or a == 0 or b == 0, applied
        assert runs > 20
    assert folds > 10


def test_undone_states_match_a_game_replayed_from_the_start():
    """Undo after undo, with events between, through folds: the state after each undo is the
    one the same log gives replayed whole by a game whose window never folds."""
    g = new_game("swsb-example")
    g.window_size = 24
    whole = []
    rng = random.Random(9)
    for _ in range(40):
        play(
            g,
            g.seq + rng.randint(1, 20),
            rng.randint(0, 10**6),
            on_event=lambda seq, ev: whole.append(ev),
        )
        for _ in range(rng.randint(1, 6)):
            if g.submit(UNDO) is not None:
                break
            whole.append(g.event(g.seq))
            ref = new_game("swsb-example")
            ref.window_size = 100000
            ref.replay(whole)
            assert ref.state_hash() == g.state_hash()


def kept_states_are_right(g):
    """Every kept state of ``g``'s window (checkpoints, top, top2 and the next fold's base) is
    the state after its depth of the undo stack, replayed from the base."""
    w = g.event_window
    now = g.state_bytes()
    kept = list(w.ckpt) + [t for t in (w.newest_kept, w.older_kept, w.next_base) if t]
    for d, st in kept:
        assert 0 <= d <= len(w.effective)
        if w.base is None:
            g.reset()
        else:
            g.load_state(w.base)
        for k in range(d):
            g._apply(w.at(w.effective[k]))
        assert g.state_bytes() == st, d
    g.load_state(now)


def test_deep_checkpoints_are_thinned_and_every_kept_state_is_right():
    """Deep in the undo stack (more than window.DENSE below its top) only every second
    checkpoint is kept; events taken back (Game.back_to, as a failed journal write does) and
    folds leave every kept state right; a run of undos down the whole stack applies fewer
    than 2 * CKPT_EVERY events each while it does not fold."""
    from support.gen import candidates
    from referee.window import DENSE

    g = new_game("swsb-example")
    rng = random.Random(11)
    steps = 0
    while g.seq < 900:
        ev = rng.choice(candidates(g, rng))
        if ev[0] == EV_UNDO and rng.random() < 0.8:
            continue
        saved = g.checkpoint()
        if g.submit(ev, saved) is None:
            steps += 1
            if rng.random() < 0.3:  # the board idles: the next fold's base ahead
                g.prepare_fold()
            if rng.random() < 0.1:  # taken back, as when the journal write fails
                g.back_to(saved)
            if steps % 97 == 0:
                kept_states_are_right(g)
    n = len(g.effective)
    deep = [d for d, _ in g.event_window.ckpt if d <= n - DENSE - CKPT_EVERY]
    assert deep and all((g.event_window.folded + d) % (2 * CKPT_EVERY) == 0 for d in deep)
    kept_states_are_right(g)
    applied = counting(g)
    while True:
        applied[0] = 0
        base = g.base_seq
        if g.submit(UNDO) is not None:
            break
        if g.base_seq == base:
            assert applied[0] < 2 * CKPT_EVERY
    assert len(g.effective) == 0 or g.base_seq > 0


def test_two_undos_after_two_events_apply_nothing():
    """The window keeps the states before the two newest events (top and top2): taking both
    back replays nothing, and each undo gives the hash from before its event."""
    g = new_game("swsb-example")
    play(g, 120, 4)
    n = counting(g)
    seed = 0
    for _ in range(15):
        hashes = []
        while len(hashes) < 2:  # two events the rules accept, not undos
            before = g.state_hash()
            seed += 1
            play(g, g.seq + 1, seed)
            if g.event(g.seq)[0] != EV_UNDO:
                hashes.append(before)
            else:
                hashes = []
        n[0] = 0
        assert g.submit(UNDO) is None and g.state_hash() == hashes[1]
        assert g.submit(UNDO) is None and g.state_hash() == hashes[0]
        assert n[0] == 0


def test_what_undo_reaches_follows_from_the_log_alone():
    """The window (its base and undo stack) after each event is the same on a board that
    restarted from its saved window, took events back and was refused commands as on a
    fresh game given only the accepted events: otherwise a mirror (a fresh replica) would
    refuse an undo the board accepted (found by an independent check: a fold that stopped
    at a kept state depended on which states the board happened to keep)."""
    from support.gen import candidates

    board = new_game("swsb-example")
    fresh = new_game("swsb-example")
    rng = random.Random(21)
    while board.seq < 1500:
        ev = rng.choice(candidates(board, rng))
        if ev[0] == EV_UNDO and rng.random() < 0.5:
            continue
        saved = board.checkpoint()
        if board.submit(ev, saved) is not None:
            continue  # refused: nothing in the log
        if rng.random() < 0.3:  # the board idles: the next fold's base ahead
            board.prepare_fold()
        if rng.random() < 0.3:  # ... and the next undo's state
            board.prepare_undo()
        if rng.random() < 0.05:  # taken back (a failed journal write)
            board.back_to(saved)
            continue
        if rng.random() < 0.02:  # a restart: the window as the journal saved it
            w = board.get_window()
            board = new_game("swsb-example")
            board.set_window(*w)
        assert fresh.submit(board.event(board.seq)) is None
        assert (fresh.base_seq, fresh.effective, fresh.state_hash()) == (
            board.base_seq,
            board.effective,
            board.state_hash(),
        )


def test_a_fold_prepared_while_idle_applies_nothing():
    """Game.prepare_fold (the board's idle loop) replays the next fold's base ahead: the
    event that folds the window then applies only itself, or for an undo its own replay (fewer
    than CKPT_EVERY), and the game is the same as one that folds unprepared."""
    from support.gen import candidates

    g = new_game("swsb-example")
    plain = new_game("swsb-example")
    rng = random.Random(5)
    n = counting(g)
    folds = undo_folds = 0
    while folds < 12:
        ev = rng.choice(candidates(g, rng))
        before = g.base_seq
        if g.event_window.full():
            assert (
                g.event_window.next_base is not None
                or g.event_window.fold_depth() == 0
                or g.event_window.start(g.event_window.fold_depth())[1]
                == g.event_window.fold_depth()
            )
        n[0] = 0
        if g.submit(ev) is not None:
            continue
        assert plain.submit(ev) is None
        if g.base_seq != before:
            folds += 1
            if ev[0] == EV_UNDO:
                undo_folds += 1
                assert n[0] < CKPT_EVERY, n[0]
            else:
                assert n[0] == 1, n[0]
        assert (g.base_seq, g.effective, g.state_hash()) == (
            plain.base_seq,
            plain.effective,
            plain.state_hash(),
        )
        g.prepare_fold()
        if g.seq % 50 == 0:
            kept_states_are_right(g)
    assert undo_folds > 0


def test_an_undo_prepared_while_idle_applies_nothing():
    """Game.prepare_undo (the board's idle loop) replays the state the next undo goes back to
    and keeps it: that undo then applies nothing, runs of undos included, and the game is the
    same as one never prepared. Events taken back after it (a held batch whose journal write
    failed: Game.back_to) leave every kept state right."""
    from support.gen import candidates

    g = new_game("swsb-example")
    plain = new_game("swsb-example")
    rng = random.Random(8)
    n = counting(g)
    ready = False  # prepare_undo ran since the last change
    helped = 0  # prepare_undo calls that replayed (kept a state not kept before)
    while g.seq < 900:
        ev = rng.choice(candidates(g, rng))
        if ev[0] != EV_UNDO and rng.random() < 0.5:
            ev = UNDO  # runs of undos, where a replay is needed
        many = rng.random() < 0.2
        folds = g.event_window.full()
        n[0] = 0
        saved = g.checkpoint(many)
        if g.submit(ev, saved) is not None:
            continue
        if ev[0] == EV_UNDO and not folds and ready:
            assert n[0] == 0, n[0]
        if (
            many
            and not folds
            and rng.random() < 0.3
            and g.event_window.count() < g.event_window.size - 8
        ):
            # a held batch (no fold in it): more events, prepared between, then all taken
            # back as a failed journal write does
            g.prepare_undo()
            for _ in range(rng.randint(1, 5)):
                e = UNDO if rng.random() < 0.5 else rng.choice(candidates(g, rng))
                if g.submit(e) is None:
                    g.prepare_undo()
            g.back_to(saved)
            kept_states_are_right(g)
            # (the window may have folded earlier than plain's: a refused event folds a full
            # window too; the game is the same)
            assert (g.seq, g.state_hash()) == (plain.seq, plain.state_hash())
            ready = False
            continue
        assert plain.submit(ev) is None
        assert (g.base_seq, g.effective, g.state_hash()) == (
            plain.base_seq,
            plain.effective,
            plain.state_hash(),
        )
        g.prepare_fold()
        helped += g.prepare_undo()
        ready = True
        if g.seq % 40 == 0:
            kept_states_are_right(g)
    assert helped > 0


def test_the_window_keeps_its_buffers_through_folds_undos_and_a_taken_back_event():
    """The window's event and hash buffers and its undo stack are made once at their largest
    and changed in place (on the Pico they then never move on the heap): the same objects
    after many folds, a run of undos and an event taken back, and the game still agrees
    with one that never folds, given the same events."""
    from referee import rules, scenarios
    from referee.game import Game

    g = new_game("swsb-example")
    w = g.event_window
    held = (w.events, w.hashes, w.effective)
    log = []
    submit = g.submit

    def logged(ev, saved=None):
        r = submit(ev, saved)
        if r is None:
            log.append(tuple(ev))
        return r

    g.submit = logged
    play(g, 4 * w.size, 5)  # the window folds many times
    for _ in range(20):
        assert g.submit(UNDO) is None
    saved = g.checkpoint()
    play(g, g.seq + 1, 6)
    g.back_to(saved)
    del log[-1]
    assert all(a is b for a, b in zip((w.events, w.hashes, w.effective), held))
    assert w.base_seq > 0 and len(w.events) == len(w.hashes) == 4 * w.count()
    norm, _raw = scenarios.load_text(scenario_text("swsb-example"))
    whole = Game(rules.get(norm["ruleset"]), norm, window=1 << 20)
    whole.replay(log)
    assert whole.seq == g.seq and whole.state_hash() == g.state_hash()
    assert whole.event_window.events[-4 * w.count() :] == w.events
    assert whole.event_window.hashes[-4 * w.count() :] == w.hashes
