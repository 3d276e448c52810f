"""Renderer pixels, key map, and the asyncio main loop with fake drivers (CPython)."""

import asyncio
import json
import os

import pytest

from support import ROOT
from support.game import make_referee
from referee import palette, render
from referee.app import Referee, ACTIONS
from referee.assembly import Display, Keys, Serial
from referee.dice import Dice, XorShift32
from referee.keymap import KeyMap
from referee.loop import Runner
from referee.render import Renderer

BOARD = json.load(open(os.path.join(ROOT, "boards", "pico-ws2812-16x16.json")))


def make(scenario="swsb-example"):
    return make_referee(scenario)


def test_layout_round_phase_initiative_bars_counters_chart_dice():
    a, _ = make()
    r = Renderer(16, 16)
    a.link.handle_line('{"c": "roll", "values": [14, 9]}')
    a.link.handle_line('{"c": "phase"}')
    a.link.handle_line('{"c": "counter", "ship": 5, "option": 2}')
    a.link.handle_line('{"c": "phase"}')
    a.link.handle_line('{"c": "phase"}')
    a.link.handle_line('{"c": "hit", "ship": 1, "n": 2}')  # Falcon 3/2: 2 pending
    a.pad.cursor = 3
    fb = r.render(a)
    assert len(fb) == 16 * 16 * 3
    assert r.get(7, 0) == render.WHITE and r.get(6, 0) == (0, 0, 0)  # round 1 in binary
    assert r.get(9 + 3, 0) == palette.PURPLE  # phase 3 "attack"
    assert r.get(15, 0) == render.SIDE_RGB[0]  # initiative: side 0
    assert r.get(14, 0) == render.SIDE_RGB[0]  # side 0 attacks first
    # Falcon, row 3 (ship 1 of side 0): 5 hp in 4 pixels: 2 pending amber, X in side colour,
    # Y dim
    assert [r.get(x, 3) for x in range(4)] == [
        render.AMBER,
        render.AMBER,
        render.SIDE_RGB[0],
        render.SIDE_DIM[0],
    ]
    # ISD (first ship of side 1): 10 hp scaled into 4 pixels, counters 2 left
    assert r.get(8, 2) == render.SIDE_RGB[1]
    assert r.get(12, 2) == render.DIM_YELLOW and r.get(13, 2) == render.DIM_YELLOW
    assert r.get(6, 5) == render.WHITE  # cursor
    # the gap between the fleets: column 7 dark on every ship row
    assert all(r.get(7, y) == (0, 0, 0) for y in range(2, 14))
    # TIE fighters aboard: grey
    assert r.get(8, 4) == render.GREY
    # chart: side 1 option 2 (Power to Engines)
    assert r.get(8 + 2, 14) == palette.OPTION_RGB[2] and r.get(2, 14) == (0, 0, 0)
    # dice: 14 -> 6 px bright for the holder, 9 -> 4 px dim
    assert [r.get(x, 15) != (0, 0, 0) for x in range(8)] == [True] * 6 + [False] * 2
    assert r.get(8 + 3, 15) == render.SIDE_DIM[1] and r.get(8 + 4, 15) == (0, 0, 0)
    a.link.handle_line('{"c": "phase"}')  # damage lands
    r.render(a)
    assert [r.get(x, 3) for x in range(2)] == [render.RED, render.RED]
    fb2 = r.render(a, error=True)
    assert all(r.get(x, 1) == render.RED for x in range(16))
    assert fb2 is r.fb  # same preallocated buffer


def test_paging_for_fleets_larger_than_the_grid():
    a, _ = make("deathstar")  # 6 Empire, 12 Rebels
    a.load_text(
        json.dumps(
            {
                "name": "big",
                "ruleset": "smb",
                "sides": [
                    {"name": "A", "ships": [{"name": "F", "class": 4, "hp": 1, "count": 30}]},
                    {"name": "B", "ships": [{"name": "G", "class": 4, "hp": 1, "count": 5}]},
                ],
            }
        )
    )
    assert a.pad.pages() == 3
    a.pad.key("page+")
    assert a.pad.page == 1 and a.pad.cursor == 12
    a.pad.key("side")
    assert a.pad.cursor == 34 and a.pad.page == 0  # side B has 5 ships: its last one, on page 0
    a.pad.key("page+")
    assert a.pad.page == 1 and a.pad.cursor == 12  # side B has nothing on page 1: side A's first
    a.pad.key("page+")
    a.pad.key("page+")
    assert a.pad.page == 0
    for _ in range(13):
        a.pad.key("sel+")
    assert a.pad.page == 1
    r = Renderer(16, 16)
    r.render(a)
    assert r.get(1, 1) == render.WHITE and r.get(0, 1) == render.DIM_WHITE


def test_keymap_from_board_profile():
    km = KeyMap(BOARD, ACTIONS)
    assert km.action(0, False) == "sel-" and km.action(1, True) == "page+"
    assert km.action(15, False) == "undo" and km.action(15, True) == "undo"
    assert km.find("cancel") == (13, True)
    with pytest.raises(ValueError):
        KeyMap({"keys": [["sel+", "nope"]]}, ACTIONS)
    with pytest.raises(ValueError):
        KeyMap({"keys": [["sel+", "dmg+"], ["undo"]]}, ACTIONS)


class FakeKeys(Keys):
    def __init__(self, presses):
        self.presses = list(presses)

    def poll(self, now):
        return self.presses.pop(0) if self.presses else None


class FakeDisplay(Display):
    def __init__(self):
        self.frames = []

    def show(self, fb):
        self.frames.append(bytes(fb))


class FakeSerial(Serial):
    def __init__(self, lines):
        self.lines = list(lines)
        self.out = []

    def read_line(self):
        return self.lines.pop(0) if self.lines else None

    def write_line(self, s):
        self.out.append(s)


class BrokenStore:
    def __init__(self):
        self.calls = 0

    def save(self, app):
        self.calls += 1
        raise OSError("flash full")


def test_main_loop_tasks_keys_serial_render_and_task_errors_do_not_stop_it():
    ser = FakeSerial(['{"c": "roll", "values": [5, 2]}', "garbage", '{"c": "snap"}'])
    a = Referee(
        BOARD, os.path.join(ROOT, "firmware", "rosters"), ser.write_line, Dice(XorShift32(3)), 12
    )
    a.load_scenario("hoth")
    km = KeyMap(BOARD, ACTIONS)
    keys = FakeKeys([None, (14, False), (1, False)])  # phase, sel+
    disp = FakeDisplay()
    store = BrokenStore()
    runner = Runner(a, km, keys, disp, ser, Renderer(16, 16), store=store)
    runner.save_ms, runner.frame_ms = 20, 5

    async def stopper():
        await asyncio.sleep(0.3)
        runner.running = False

    asyncio.run(runner.main([stopper()]))
    kinds = [json.loads(l)["t"] for l in ser.out]
    assert "ev" in kinds and "snap" in kinds and kinds.count("err") >= 2
    assert a.game.phase_name() == "movement" and a.pad.cursor == 1
    assert store.calls >= 2 and runner.crashes >= 2  # autosave failed, loop went on
    assert any("autosave task" in json.loads(l).get("msg", "") for l in ser.out)
    assert disp.frames and len(disp.frames) < 60  # renders only on change


def test_ctrl_c_is_not_swallowed_by_the_loop():
    # mpremote takes the board back with Ctrl-C: the tasks catch Exception, never
    # KeyboardInterrupt, so it ends the loop and reaches the REPL
    a = Referee(
        BOARD, os.path.join(ROOT, "firmware", "rosters"), lambda l: None, Dice(XorShift32(3)), 12
    )
    a.load_scenario("hoth")

    class CtrlC(Keys):
        def poll(self, now):
            raise KeyboardInterrupt

    runner = Runner(
        a, KeyMap(BOARD, ACTIONS), CtrlC(), FakeDisplay(), FakeSerial([]), Renderer(16, 16)
    )
    with pytest.raises(KeyboardInterrupt):
        asyncio.run(runner.main())
    assert runner.crashes == 0


class RefreshDisplay(FakeDisplay):
    def __init__(self):
        super().__init__()
        self.refreshes = 0

    def refresh(self):
        self.refreshes += 1
        return True


class IdleKeys(FakeKeys):
    def __init__(self):
        super().__init__([])
        self.down = False

    def active(self):
        return self.down

    def resting(self):
        return not self.down


def _runner(disp, keys):
    a = Referee(
        BOARD, os.path.join(ROOT, "firmware", "rosters"), lambda l: None, Dice(XorShift32(3)), 12
    )
    a.load_scenario("hoth")
    return Runner(a, KeyMap(BOARD, ACTIONS), keys, disp, FakeSerial([]), Renderer(16, 16))


def test_the_idle_loop_sends_the_whole_frame_again_only_while_no_key_is_down():
    disp = RefreshDisplay()
    keys = IdleKeys()
    runner = _runner(disp, keys)
    runner.refresh_ms = 0
    runner.step_render()
    assert runner.step_refresh() and disp.refreshes == 1
    keys.down = True  # a key held: no refresh between its press and frame
    assert not runner.step_refresh() and disp.refreshes == 1
    keys.down = False
    runner.refresh_ms = 60000  # a frame was just sent: not yet
    assert not runner.step_refresh() and disp.refreshes == 1
    assert not _runner(FakeDisplay(), IdleKeys()).step_refresh()  # Display's: nothing sent


def test_idle_garbage_collection_only_when_the_heap_runs_low_and_no_key_is_down(monkeypatch):
    import gc

    free = [100000]
    collected = []
    monkeypatch.setattr(gc, "mem_free", lambda: free[0], raising=False)
    monkeypatch.setattr(gc, "mem_alloc", lambda: 200000 - free[0], raising=False)
    monkeypatch.setattr(gc, "collect", lambda: collected.append(1) or 0)
    keys = IdleKeys()
    runner = _runner(FakeDisplay(), keys)
    del collected[:]  # (the game's load collects too)
    assert not runner.step_gc()  # gc_low 0 (CPython, the simulator): off
    runner.gc_low = 16384
    assert not runner.step_gc() and not collected  # plenty free
    free[0] = 9000
    assert not runner.step_gc() and not collected  # nothing happened since: not looked at
    runner.app.version += 1  # a key or a line changed something
    keys.down = True
    assert not runner.step_gc() and not collected  # a key is down: not now
    keys.down = False
    assert runner.step_gc() and collected == [1]
    assert not runner.step_gc() and collected == [1]  # once per change


def test_idle_garbage_collection_after_a_span_of_allocations_keeps_the_heap_whole(monkeypatch):
    """With ``gc_span``, the idle collection also comes once that many bytes were taken
    since the last one, though plenty is free: the garbage then never spreads over the whole
    heap, and neither do the states the game keeps meanwhile."""
    import gc

    used = [60000]
    collected = []
    monkeypatch.setattr(gc, "mem_alloc", lambda: used[0], raising=False)
    monkeypatch.setattr(gc, "mem_free", lambda: 240000 - used[0], raising=False)

    def collect():
        collected.append(used[0])
        used[0] = 60000

    monkeypatch.setattr(gc, "collect", collect)
    runner = _runner(FakeDisplay(), IdleKeys())
    del collected[:]
    runner.gc_low, runner.gc_span = 16384, 16384
    runner.app.version += 1
    assert not runner.step_gc()  # the first look: where it starts from
    used[0] = 70000
    runner.app.version += 1
    assert not runner.step_gc() and not collected  # 10000 taken since: not yet
    used[0] = 77000
    runner.app.version += 1
    assert runner.step_gc() and collected == [77000]  # 17000 taken: collected
    used[0] = 70000
    runner.app.version += 1
    assert not runner.step_gc() and collected == [77000]  # counted from after it
    runner.gc_span = 0
    used[0] = 200000
    runner.app.version += 1
    assert not runner.step_gc()  # no span: only when the heap runs low


def test_a_stream_of_serial_lines_collects_between_lines_not_inside_an_event(monkeypatch):
    """Lines of events (a host pushing a game) leave the render task no idle turn, so the
    serial task looks after each line that changed the game, with twice gc_low's margin: the
    collection falls between two lines, before an event finds the heap full. Such a line
    ends the serial task's turn (the render task's journal step comes between two lines)."""
    import gc

    free = [40000]
    collected = []
    monkeypatch.setattr(gc, "mem_free", lambda: free[0], raising=False)
    monkeypatch.setattr(gc, "mem_alloc", lambda: 200000 - free[0], raising=False)
    runner = _runner(FakeDisplay(), IdleKeys())
    monkeypatch.setattr(gc, "collect", lambda: collected.append(runner.app.game.seq) or 0)
    runner.gc_low = 16384
    runner.serial.lines = [
        '{"c": "snap"}',
        '{"c": "roll", "values": [9, 4]}',
        '{"c": "phase"}',
        '{"c": "phase"}',
    ]
    assert runner.step_serial() == 2  # the turn ends after a line of events:
    assert len(runner.serial.lines) == 2  # the journal's step gets the next turn
    assert collected == []  # 40000 free: more than 2 x 16384
    free[0] = 30000
    seq = runner.app.game.seq
    runner.serial.lines = ['{"c": "snap"}', '{"c": "undo"}', '{"c": "snap"}']
    assert runner.step_serial() == 2
    assert runner.app.game.seq == seq + 1
    assert collected == [seq + 1]  # after the line that changed the game


def test_a_serial_line_is_handled_with_a_collection_every_span_of_allocations(monkeypatch):
    """A serial line (many events, a roster) runs with MicroPython's allocation threshold at
    ``gc_span``, and the threshold the board had comes back after it, also when the line
    fails; with no span the threshold is left alone."""
    import gc

    setting = [-1]
    seen = []

    def threshold(*value):
        if value:
            setting[0] = value[0]
        return setting[0]

    monkeypatch.setattr(gc, "threshold", threshold, raising=False)
    runner = _runner(FakeDisplay(), IdleKeys())
    handle = runner.app.link.handle_line

    def watched(line):
        seen.append(setting[0])
        return handle(line)

    runner.app.link.handle_line = watched
    runner.gc_span = 16384
    runner.serial.lines = ['{"c": "phase"}', '{"c": "snap"}']
    runner.step_serial()
    assert seen == [16384] and setting[0] == -1
    runner.app.link.handle_line = lambda line: 1 / 0
    try:
        runner.handle_line('{"c": "snap"}')
    except ZeroDivisionError:
        pass
    assert setting[0] == -1
    runner.gc_span = 0
    runner.app.link.handle_line = watched
    runner.serial.lines = ['{"c": "snap"}']
    runner.step_serial()
    assert seen == [16384, -1]
