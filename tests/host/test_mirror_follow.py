"""The mirror follows a real simulator over its pseudo-terminal through a
10,000-event game and undos at depth, and neither an idle simulator nor an idle mirror wakes
up on a period (the mechanism is tested: what they block on, not how long they take)."""

import asyncio
import json
import os
import selectors
import time

from host_tools.link.mirror import Mirror


def journal_of(tmp_path, n):
    """A flash directory whose journal holds an ``n``-event swsb game played by the board's
    code; returns (dir, board app)."""
    from support.game import played_referee

    d = str(tmp_path / "flash")
    os.makedirs(d)
    app, _ = played_referee(d, n)
    return d, app


def pump_until(m, cond, seconds=60):
    end = time.monotonic() + seconds
    while not cond() and time.monotonic() < end:
        m.pump(0.2)
    return cond()


def test_mirror_follows_10000_events_and_undo_at_depth(sim_factory, tmp_path):
    d, board = journal_of(tmp_path, 10000)
    sim = sim_factory("--headless", "--flash", d)
    m = Mirror(sim.port, warn=lambda s: None)
    m.open()
    m.sync()
    assert m.rep.game.seq == 10000 and len(m.rep.rows) == 10000 and not m.rep.mismatches
    snap = m.board_snapshot()
    assert snap["state_hash"] == m.rep.game.state_hash() == board.game.state_hash()
    checked = m.rep.checked
    # undo as far back as the board's RAM window lets it (each undo is itself an event in
    # the window, so folds take the oldest events out of reach: refused past that)
    for _ in range(300):
        m.send({"c": "undo"})
    assert pump_until(m, lambda: len(m.rep.errors) > 0)
    m.pump(1.0)
    undone = m.rep.game.seq - 10000
    assert undone > 100 and "nothing to undo" in m.rep.errors[-1]
    assert m.rep.checked - checked == undone and not m.rep.mismatches  # every hash compared
    snap = m.board_snapshot()
    assert snap["seq"] == m.rep.game.seq and snap["state_hash"] == m.rep.game.state_hash()
    m.close()


class CountingSelector(selectors.DefaultSelector):
    def __init__(self):
        super().__init__()
        self.calls = []

    def select(self, timeout=None):
        self.calls.append(timeout)
        return super().select(timeout)


def test_idle_simulator_sleeps_in_the_selector_without_a_timeout(tmp_path):
    """The simulator's loop (IdleLoop) run in this process on an event loop whose selector
    counts its calls: idle, it waits with no timeout; a key press and a host line wake it."""
    from host_tools import paths
    from host_tools.sim.idleloop import IdleLoop
    from support.simboard import sim_board

    built = sim_board("hoth", board=paths.DEFAULT_BOARD, history_kb=256)
    app, runner, ser, keys, _display, keymap = built
    sel = CountingSelector()
    loop = asyncio.SelectorEventLoop(sel)
    idle = IdleLoop(runner, ser, keys)

    async def scenario():
        task = asyncio.create_task(idle.run())
        await asyncio.sleep(0.2)  # start-up: the first frame
        n, turns, frames = len(sel.calls), idle.turns, runner.frames
        t0 = time.monotonic()
        await asyncio.sleep(0.6)  # idle (this sleep is the test's own timer)
        idle_calls = sel.calls[n:]
        idle_turns = idle.turns - turns
        v = app.version
        keys.push(keymap.find("sel+")[0], False)  # a key wakes it at once
        await asyncio.sleep(0.05)
        woke_for_key = app.version != v and runner.frames > frames
        host = os.open(ser.path, os.O_RDWR | os.O_NOCTTY)
        os.write(host, b'{"c": "hello"}\n')  # so does a host's line
        got = b""
        end = time.monotonic() + 5
        while b'"hello"' not in got and time.monotonic() < end:
            await asyncio.sleep(0.02)
            try:
                os.set_blocking(host, False)
                got += os.read(host, 4096)
            except BlockingIOError:
                pass
        os.close(host)
        idle.stop()
        await task
        return idle_calls, idle_turns, woke_for_key, got, time.monotonic() - t0

    try:
        idle_calls, idle_turns, woke_for_key, got, _ = loop.run_until_complete(scenario())
    finally:
        loop.close()
        ser.close()
    # while idle: no turn of the referee's loop at all, and the selector is called a few
    # times for the test's own sleep (its timeout, then 0 to run what became ready) and
    # otherwise waits with None (until something happens): no short period (a 2 ms key
    # scan would call it some 300 times with 0.002)
    assert idle_turns == 0
    assert len(idle_calls) <= 4 and all(t is None or t == 0 or t >= 0.5 for t in idle_calls), (
        idle_calls
    )
    assert woke_for_key
    assert b'"t": "hello"' in got


def test_idle_mirror_blocks_in_select_for_a_second(sim_factory, monkeypatch):
    """follow(): with nothing arriving, each turn blocks in select() on the port for
    IDLE_WAIT (1 s) and the view is not redrawn (it is drawn when something changed)."""
    from host_tools.link import mirror

    sim = sim_factory("--headless", "--scenario", "hoth", "--seed", "1")
    waits = []
    real = mirror.select.select

    def select(r, w, x, timeout=None):
        waits.append(timeout)
        return real(r, w, x, timeout)

    monkeypatch.setattr(mirror.select, "select", select)
    m = Mirror(sim.port, warn=lambda s: None)
    draws = []

    def idle_waits():
        return [t for t in waits if t is not None and 0.5 < t <= mirror.IDLE_WAIT]

    m.follow(lambda mm: draws.append(mm.rep.game.seq), stop=lambda: len(idle_waits()) >= 3)
    m.close()
    first = waits.index(idle_waits()[0])
    assert waits[first:] == idle_waits(), waits  # after the sync: only 1 s waits
    assert mirror.IDLE_WAIT >= 1.0
    assert len(draws) <= 3, draws  # drawn after the sync, not on every wake-up
    # and a change is drawn: an event from the board
    draws.clear()
    waits.clear()
    m = Mirror(sim.port, warn=lambda s: None)
    m.open()
    m.sync()
    m.send({"c": "roll", "values": [9, 4]})
    m.follow(lambda mm: draws.append(mm.rep.game.seq), stop=lambda: bool(draws) or len(waits) > 20)
    m.close()
    assert draws and draws[-1] == 1
    assert json.loads(json.dumps(m.rep.rows[-1][1])) == [1, 9, 4, 1]
