"""Group commit's own object (referee/commit.py: GroupCommit) and the key pipeline it serves:
when the held events are due, what holding means for the referee's submit and flush, and the
order a key's frame, journal write and ``ev`` line go out in (loop.Runner.step_keys)."""

import json

import pytest

from support.game import make_referee
from referee.commit import GroupCommit
from referee.journal import Journal, OSFS
from referee.keymap import KeyMap
from referee.app import ACTIONS
from referee.loop import Runner
from referee.render import Renderer
from referee.ticks import PERIOD, ticks_add
from test_render_loop import BOARD, FakeDisplay, FakeSerial, IdleKeys

DMG_KEY = KeyMap(BOARD, ACTIONS).find("dmg+")  # (key index, long press) on the board


def held_group(hold_ms, first_ms, n=1):
    group = GroupCommit(hold_ms)
    for k in range(n):
        group.add(10 + k, first_ms, "state", 3)
    return group


def test_nothing_held_is_never_due():
    group = GroupCommit(1000)
    assert not group.holding and group.count == 0 and group.saved is None
    assert not group.due(10**6, True, True)
    group.hold()
    assert group.holding
    group.stop()
    assert not group.holding


def test_add_keeps_the_first_events_seq_time_and_state_and_the_newests_time():
    group = GroupCommit(1000)
    group.add(41, 5000, "before 41", 7)
    group.add(42, 5300, "before 42", 9)
    assert (group.first_seq, group.count, group.first_ms, group.last_ms) == (41, 2, 5000, 5300)
    assert group.saved == ("before 41", 7)  # the batch's first: what a failure goes back to
    group.clear()
    assert group.count == 0 and group.saved is None and not group.due(10**6, True, True)
    group.add(50, 9000, "before 50", 1)
    assert (group.first_seq, group.first_ms, group.saved) == (50, 9000, ("before 50", 1))


def test_due_after_hold_ms_idle_since_the_newest_at_its_edge():
    group = held_group(1000, 5000)
    assert not group.due(5999, True, False)
    assert group.due(6000, True, False)
    assert not group.due(6000, False, False)  # a key is down: it waits
    group.last_ms = 5500
    assert not group.due(6499, True, False) and group.due(6500, True, False)


def test_due_four_hold_ms_after_the_first_even_with_a_key_down():
    group = held_group(1000, 5000)
    group.last_ms = 8900
    assert not group.due(8999, False, False)
    assert group.due(9000, False, False)


def test_due_at_once_with_eight_held_not_seven():
    assert not held_group(1000, 5000, 7).due(5000, False, False)
    assert held_group(1000, 5000, 8).due(5000, False, False)


def test_due_at_once_when_the_window_is_full_but_only_while_idle():
    group = held_group(1000, 5000)
    assert group.due(5001, True, True)
    assert not group.due(5001, False, True)  # not between a press and its frame


def test_due_across_the_ticks_wrap():
    first = PERIOD - 300
    group = held_group(1000, first)
    assert not group.due(ticks_add(first, 999), True, False)
    assert group.due(ticks_add(first, 1000), True, False)  # (a small number after the wrap)


def test_hold_ms_zero_is_due_at_once():
    assert held_group(0, 5000).due(5000, False, False)


def journal_referee(tmp, hold_ms):
    """A referee with a journal in ``tmp`` (swsb-example in its attack phase, where every
    ``dmg+`` is an event) and its group's ``hold_ms``; returns (app, out)."""
    app, out = make_referee("swsb-example")
    app.set_journal(Journal(OSFS(str(tmp)), "/game"))
    app.load_scenario("swsb-example")
    app.link.handle_line('{"c": "roll", "values": [12, 5]}')
    for _ in range(3):
        app.link.handle_line('{"c": "phase"}')
    app.group.hold_ms = hold_ms
    return app, out


def ev_seqs(out, n=0):
    return [json.loads(x)["seq"] for x in out[n:] if json.loads(x)["t"] == "ev"]


def test_submit_without_hold_writes_and_announces_at_once(tmp_path):
    app, out = journal_referee(tmp_path, 1000)
    g = app.game
    n = len(out)
    written = app.journal.files.bytes_written
    assert app.pad.key("dmg+") is None  # (a test's, the simulator's, the serial key's call)
    assert app.group.count == 0 and ev_seqs(out, n) == [g.seq]
    assert app.journal.files.bytes_written > written


def test_held_events_wait_for_flush_and_one_not_held_flushes_them_first(tmp_path):
    app, out = journal_referee(tmp_path, 1000)
    g = app.game
    seq0 = g.seq
    written = app.journal.files.bytes_written
    n = len(out)
    app.group.hold()
    app.pad.key("dmg+")
    app.pad.key("dmg+")
    app.group.stop()
    assert g.seq == seq0 + 2 and app.group.count == 2 and app.group.first_seq == seq0 + 1
    assert ev_seqs(out, n) == [] and app.journal.files.bytes_written == written
    app.pad.key("dmg+")  # not held: the held ones go out before it, in order
    assert ev_seqs(out, n) == [seq0 + 1, seq0 + 2, seq0 + 3] and app.group.count == 0
    assert app.flush() == 0  # nothing left


def test_a_failed_flush_takes_the_whole_batch_back(tmp_path, monkeypatch):
    app, out = journal_referee(tmp_path, 1000)
    g = app.game
    before = (g.seq, g.state_hash(), g.get_window(), app.mark)
    app.group.hold()
    for _ in range(3):
        app.pad.key("dmg+")
    app.group.stop()
    assert g.seq == before[0] + 3
    n = len(out)

    def flash_full(*a):
        raise OSError(28, "no space left on device")

    monkeypatch.setattr(app.journal.files, "append", flash_full)
    assert app.flush() == 0
    assert (g.seq, g.state_hash(), g.get_window(), app.mark) == before
    assert app.group.count == 0 and app.group.saved is None and app.journal.writer.held == 0
    got = [json.loads(x) for x in out[n:]]
    assert [m["t"] for m in got] == ["err"] and "3 event(s) taken back" in got[0]["msg"]
    monkeypatch.undo()
    app.pad.key("dmg+")  # the board goes on from there
    assert ev_seqs(out, n) == [before[0] + 1]


def traced_runner(tmp, hold_ms):
    """A Runner over fake drivers whose frames, journal writes and ``ev`` lines go to one
    list, in the order they happen; returns (runner, keys, trace)."""
    trace = []
    app, _out = journal_referee(tmp, hold_ms)
    send = app.send

    def send_traced(line):
        if json.loads(line)["t"] == "ev":
            trace.append("ev")
        send(line)

    app.send = send_traced
    append = app.journal.files.append

    def append_traced(name, data):
        trace.append("write " + name)
        return append(name, data)

    app.journal.files.append = append_traced
    display = FakeDisplay()
    show = display.show
    display.show = lambda fb: (trace.append("frame"), show(fb))[1]
    keys = IdleKeys()
    runner = Runner(app, KeyMap(BOARD, ACTIONS), keys, display, FakeSerial([]), Renderer(16, 16))
    return runner, keys, trace


def test_a_key_with_hold_ms_zero_goes_frame_then_journal_write_then_ev_line(tmp_path):
    runner, keys, trace = traced_runner(tmp_path, 0)
    seq = runner.app.game.seq
    keys.presses.append(DMG_KEY)
    runner.step_keys()
    assert runner.app.game.seq == seq + 1
    assert trace == ["frame", "write log.bin", "ev"]
    assert runner.app.group.count == 0


@pytest.mark.parametrize("hold_ms", [1, 1000])
def test_a_key_with_hold_ms_goes_frame_now_then_journal_write_and_ev_line_when_due(
    tmp_path, hold_ms
):
    runner, keys, trace = traced_runner(tmp_path, hold_ms)
    app = runner.app
    keys.presses.append(DMG_KEY)
    runner.step_keys()
    assert trace == ["frame"] and app.group.count == 1  # held: not written, not announced
    keys.presses.append(DMG_KEY)
    runner.step_keys()
    assert trace == ["frame", "frame"] and app.group.count == 2
    group = app.group
    group.first_ms = group.last_ms = ticks_add(group.last_ms, -hold_ms)  # the keys rested
    runner.step_maintain()
    assert trace == ["frame", "frame", "write log.bin", "ev", "ev"] and group.count == 0
