"""Drivers on CPython with fake machine/rp2 modules that record pin writes, I2C transactions,
SPI bytes and PIO words; outputs checked bit by bit."""

import importlib
import json
import os
import sys

import pytest

from support import ROOT
from support.game import default_board


def decode_ws2812(levels):
    """Bits from the pin waveform: a high pulse of 7 cycles is a 1, of 2 cycles a 0."""
    bits, run, prev = [], 0, 0
    for lv in levels + [0]:
        if lv:
            run += 1
        elif prev:
            assert run in (2, 7), "bad pulse of %d cycles" % run
            bits.append(1 if run == 7 else 0)
            run = 0
        prev = lv
    return bits


def bits_to_bytes(bits):
    return bytes(int("".join(map(str, bits[i : i + 8])), 2) for i in range(0, len(bits), 8))


def test_ws2812_pio_waveform_grb_serpentine(hw):
    machine, _rp2 = hw
    ws = importlib.import_module("drivers.ws2812")
    panel = ws.WS2812Panel(machine.Pin(28), 4, 2, serpentine=True, budget_ma=100000)
    assert panel.sm.freq == 8_000_000 and panel.sm.active() == 1
    fb = bytearray(4 * 2 * 3)
    colours = [
        (1, 2, 3),
        (10, 20, 30),
        (255, 0, 128),
        (7, 8, 9),
        (100, 101, 102),
        (0, 255, 0),
        (0, 0, 255),
        (200, 150, 100),
    ]
    for i, (r, g, b) in enumerate(colours):
        fb[i * 3 : i * 3 + 3] = bytes((r, g, b))
    panel.show(fb)
    out = bits_to_bytes(decode_ws2812(panel.sm.run()))
    assert len(out) == 8 * 3
    # chain order: row 0 left to right, row 1 right to left (serpentine); GRB on the wire
    chain = [0, 1, 2, 3, 7, 6, 5, 4]
    expect = b"".join(bytes((colours[i][1], colours[i][0], colours[i][2])) for i in chain)
    assert out == expect


def test_ws2812_row_major_wiring(hw):
    ws = importlib.import_module("drivers.ws2812")
    assert [ws.pixel_index(x, 1, 4, False) for x in range(4)] == [4, 5, 6, 7]
    assert [ws.pixel_index(x, 1, 4, True) for x in range(4)] == [7, 6, 5, 4]


def test_ws2812_brightness_limited_by_current_budget(hw):
    machine, _rp2 = hw
    ws = importlib.import_module("drivers.ws2812")
    panel = ws.WS2812Panel(machine.Pin(28), 16, 16, budget_ma=400, ma_per_channel=20)
    white = bytearray([255] * (16 * 16 * 3))
    panel.show(white)
    s = panel.last_scale
    # full white would draw 256 * 3 * 20 mA = 15,360 mA; scaled to fit 400 mA
    level = (255 * s) >> 16
    drawn = 16 * 16 * 3 * level / 255 * 20
    assert drawn <= 400 < 16 * 16 * 3 * (level + 1) / 255 * 20  # the brightest that fits
    out = bits_to_bytes(decode_ws2812(panel.sm.run()))
    assert set(out) == {level}
    dim = bytearray(16 * 16 * 3)
    dim[0] = 200
    panel.show(dim)
    assert panel.last_scale == 65536  # within budget: not scaled
    assert ws.brightness_scale(white, 10, 20, idle_ma=1, n=256) == 0


def test_ws2812_uses_dma_when_available(hw):
    machine, rp2 = hw
    calls = []

    class DMA:
        def __init__(self):
            self.on = False

        def active(self, v=None):
            return self.on

        def pack_ctrl(self, **kw):
            calls.append(("ctrl", kw))
            return 42

        def config(self, **kw):
            calls.append(("config", kw))

    rp2.DMA = DMA
    try:
        ws = importlib.import_module("drivers.ws2812")
        panel = ws.WS2812Panel(machine.Pin(28), 2, 2, sm_id=1)
        panel.show(bytearray(12))
    finally:
        del rp2.DMA
    assert calls[0] == ("ctrl", {"size": 2, "inc_write": False, "treq_sel": 1})
    cfg = calls[1][1]
    assert cfg["write"] is panel.sm and cfg["count"] == 4 and cfg["ctrl"] == 42 and cfg["trigger"]
    assert panel.sm.words == []  # the CPU did not feed the FIFO


def test_debounce_and_long_press_timing(hw):
    km = importlib.import_module("drivers.keymatrix")
    d = km.Debouncer(2, debounce_ms=5, long_ms=600)
    # bouncing contact: changes within 5 ms are not accepted
    for t, v in [(0, 1), (1, 0), (2, 1), (3, 0), (4, 1)]:
        d.update(0, v, t)
    assert d.state[0] == 0 and d.poll() is None
    d.update(0, 1, 8)
    assert d.state[0] == 0  # stable 4 ms only
    d.update(0, 1, 9)
    assert d.state[0] == 1  # stable 5 ms: pressed
    d.update(0, 1, 99)
    assert d.poll() is None  # held: nothing yet
    d.update(0, 0, 100)
    assert d.poll() == (0, False)  # eager release: reported at the first open reading
    for t, v in [(101, 1), (102, 0), (103, 1), (104, 0), (105, 0), (120, 0)]:
        d.update(0, v, t)  # the release bounces: no new press
    assert d.poll() is None and d.state[0] == 0
    d.update(0, 1, 200)
    d.update(0, 1, 203)
    d.update(0, 0, 204)  # closed 4 ms only: never a press, so no release
    d.update(0, 0, 220)
    assert d.poll() is None
    d.update(1, 1, 200)
    d.update(1, 1, 205)
    d.update(1, 1, 804)
    assert d.poll() is None
    d.update(1, 1, 805)
    assert d.poll() == (1, True)  # long press at 600 ms held
    d.update(1, 0, 900)
    d.update(1, 0, 910)
    assert d.poll() is None  # no short press after a long one


def test_matrix_scan_order_and_keys(hw):
    machine, _rp2 = hw
    km = importlib.import_module("drivers.keymatrix")
    rows, cols = [2, 3, 4, 5], [6, 7, 8, 9]
    held = set()

    def read(pin):
        c = cols.index(pin)
        return int(any(machine.LEVELS.get(rows[r]) == 1 and (r, c) in held for r in range(4)))

    machine.INPUT = read
    m = km.KeyMatrix(
        [machine.Pin(p, machine.Pin.OUT) for p in rows],
        [machine.Pin(p, machine.Pin.IN, machine.Pin.PULL_DOWN) for p in cols],
        debounce_ms=5,
        long_ms=600,
    )
    assert all(machine.LEVELS[r] == 1 for r in rows)  # idle: every row high
    del machine.LOG[:]
    m.scan(0)  # nothing pressed: four column reads
    assert [e for e in machine.LOG if e[0] == "pin"] == [] and not m.active()
    held.add((1, 2))  # key index 1 * 4 + 2 = 6
    m.scan(1)
    writes = [(e[1], e[2]) for e in machine.LOG if e[0] == "pin"]
    # a column read high: rows low, then one row at a time
    assert writes == [
        (2, 0),
        (3, 0),
        (4, 0),
        (5, 0),
        (2, 1),
        (2, 0),
        (3, 1),
        (3, 0),
        (4, 1),
        (4, 0),
        (5, 1),
        (5, 0),
    ]
    assert m.active()
    for t in range(2, 8):
        assert m.poll(t) is None
    held.clear()
    ev = None
    for t in range(8, 20):
        ev = ev or m.poll(t)
    assert ev == (6, False)
    assert not m.active() and all(machine.LEVELS[r] == 1 for r in rows)  # idle again


def test_tca9555_keys_active_low(hw):
    machine, _rp2 = hw
    kp = importlib.import_module("drivers.rgbkeypad")
    keys = kp.KeypadKeys(
        machine.I2C(1, scl=machine.Pin(27), sda=machine.Pin(26)), 0x20, debounce_ms=5
    )
    machine.I2C_REGS[(0x20, 0x00)] = bytes([0xFF & ~(1 << 3), 0xFF & ~(1 << 1)])  # keys 3, 9
    assert keys.read() == (1 << 3) | (1 << 9)
    assert machine.LOG[-1] == ("i2c", 0x20, 0x00, 2)
    for t in range(7):
        keys.poll(t)
    machine.I2C_REGS[(0x20, 0x00)] = b"\xff\xff"
    got = [keys.poll(t) for t in range(7, 20)]
    assert sorted(e for e in got if e) == [(3, False), (9, False)]


def test_apa102_frames_and_chip_select(hw):
    machine, _rp2 = hw
    kp = importlib.import_module("drivers.rgbkeypad")
    leds = kp.KeypadLEDs(
        machine.SPI(1, sck=machine.Pin(10), mosi=machine.Pin(11)),
        machine.Pin(13, machine.Pin.OUT, value=1),
        brightness=8,
    )
    fb = bytearray(48)
    fb[0:3] = bytes((10, 20, 30))
    fb[45:48] = bytes((1, 2, 3))
    del machine.LOG[:]
    leds.show(fb)
    assert machine.LOG[0] == ("pin", 13, 0) and machine.LOG[-1] == ("pin", 13, 1)
    data = machine.LOG[1][1]
    assert data[:4] == b"\x00\x00\x00\x00"  # start frame
    assert data[4:8] == bytes((0xE0 | 8, 30, 20, 10))  # brightness bits, then B, G, R
    assert data[4 + 4 * 15 : 8 + 4 * 15] == bytes((0xE8, 3, 2, 1))
    assert data[68:] == b"\xff\xff\xff\xff" and len(data) == 72  # end frame


class Out:
    def __init__(self):
        self.parts = []

    def write(self, s):
        self.parts.append(s)


def pipe_io():
    """(stdin the board reads without buffering, write end for the test, stdout recorder)."""
    r, w = os.pipe()
    return os.fdopen(r, "rb", buffering=0), w, Out()


def test_usbserial_nonblocking_lines_and_overlong(hw):
    us = importlib.import_module("drivers.usbserial")
    from referee.protocol import MAX_LINE, OVERLONG

    stdin, w, out = pipe_io()
    s = us.USBSerial(stdin, out)
    assert s.read_line() is None  # nothing there: returns at once
    os.write(w, b'{"c": "hello"}\r\n{"c": "sn')
    assert s.read_line() == '{"c": "hello"}'
    assert s.read_line() is None  # partial line waits
    os.write(w, b'ap"}\n' + b"x" * (MAX_LINE + 10) + b"\nok\n")
    assert s.read_line() == '{"c": "snap"}'
    assert s.read_line() == OVERLONG
    assert s.read_line() == "ok"
    s.write_line("hi")
    assert "".join(out.parts) == "hi\n"


def test_usbserial_a_line_the_heap_has_no_room_for_is_dropped_whole(hw, monkeypatch):
    # on a fragmented Pico heap the line buffer may find no bigger block: that line is
    # dropped whole and answered (NO_ROOM), nothing of it leaks into the next line
    us = importlib.import_module("drivers.usbserial")
    from referee.protocol import NO_ROOM, ProtocolError, decode

    stdin, w, out = pipe_io()
    s = us.USBSerial(stdin, out)
    real = us.bytearray if hasattr(us, "bytearray") else bytearray
    big = [0]

    def tight(n=0):
        if isinstance(n, int) and n > 1024:
            big[0] += 1
            raise MemoryError("memory allocation failed, allocating %d bytes" % n)
        return real(n)

    monkeypatch.setattr(us, "bytearray", tight, raising=False)
    os.write(w, b'{"c": "load", "roster": "' + b"y" * 3000 + b'"}\n{"c": "snap"}\n')
    assert s.read_line() == NO_ROOM and big[0] == 1
    assert s.read_line() == '{"c": "snap"}'
    with pytest.raises(ProtocolError) as e:
        decode(NO_ROOM)
    assert "free memory" in str(e.value)


def test_usbserial_sends_a_line_given_in_parts_without_joining_it(hw):
    """A roster's ``game`` line (a few KB) goes out in its parts, one after the other: the
    host reads one line; the output queue counts its characters, not its parts."""
    us = importlib.import_module("drivers.usbserial")
    stdin, _w, out = pipe_io()
    s = us.USBSerial(stdin, out)
    s.write_line(('{"t": "game", "roster": ', "x" * 3000, "}"))
    s.write_line("next")
    assert "".join(out.parts) == '{"t": "game", "roster": ' + "x" * 3000 + "}\nnext\n"
    assert out.parts[1] == "x" * 3000  # the roster part itself, not a joined copy
    assert s.out_bytes == 0 and s.dropped == 0


def test_the_board_sends_and_journals_a_loaded_games_line_in_parts(hw, tmp_path):
    """main.build gives the referee the serial driver's parts path: a ``load`` answers one
    ``game`` line written in parts, and the journal's set-up (its CRC the game key) is the
    same bytes as the line joined."""
    import json as js
    from referee.journal import Journal, OSFS
    from referee.journal_rec import crc32

    runner, _w, out = load_main(hw, default_board())
    app = runner.app
    assert app.send_parts is not None
    app.set_journal(Journal(OSFS(str(tmp_path)), "/game"))
    del out[:]
    app.link.handle_line('{"c": "load", "scenario": "deathstar"}')
    text = "".join(out)
    line = text.split("\n")[0]
    assert js.loads(line)["t"] == "game" and len([p for p in out if p != "\n"]) >= 3
    setup = (tmp_path / "game" / "setup.json").read_bytes()
    assert setup[:-9].decode() == line and app.journal.writer.key == crc32(line.encode())
    assert setup[-8:].decode() == "%08x" % app.journal.writer.key


def load_main(hw, board):
    sys.modules.pop("main", None)
    sys.path.insert(0, os.path.join(ROOT, "firmware"))
    main = importlib.import_module("main")
    stdin, w, out = pipe_io()
    runner = main.build(board, os.path.join(ROOT, "firmware", "rosters"), stdin, out, seed=5)
    return runner, w, out.parts


@pytest.mark.parametrize("board_name", ["pico-ws2812-16x16", "pimoroni-rgb-keypad"])
def test_main_builds_board_and_loop_runs(hw, board_name):
    import asyncio

    machine, _rp2 = hw
    board = json.load(open(os.path.join(ROOT, "boards", board_name + ".json")))
    runner, w, out = load_main(hw, board)
    os.write(w, b'{"c": "roll", "values": [9, 4]}\nnot json\n{"c": "phase"}\n')

    async def stop():
        await asyncio.sleep(0.3)
        runner.running = False

    asyncio.run(runner.main([stop()]))
    lines = [json.loads(l) for l in "".join(out).splitlines()]
    kinds = [l["t"] for l in lines]
    assert kinds.count("ev") == 2 and kinds.count("err") == 1
    assert runner.app.game.phase_name() == "movement"
    assert runner.frames >= 1 and runner.crashes == 0
    if board_name == "pimoroni-rgb-keypad":
        assert any(e[0] == "spi" for e in machine.LOG)
    else:
        assert runner.display.sm.words  # pixels went to the PIO


def test_keypad_ui_modes(hw):
    board = json.load(open(os.path.join(ROOT, "boards", "pimoroni-rgb-keypad.json")))
    runner, _w, _out = load_main(hw, board)
    ui, app = runner.keymap, runner.app
    assert ui.action(4, False) == "sel:4" and ui.action(4, True) == "markship:4"
    app.pad.key(ui.action(4, False))
    assert app.pad.cursor == 4
    fb = ui.render(app)
    assert tuple(fb[12:15]) == (255, 255, 255)  # selected ship's key is white
    assert ui.action(12, False) is None and ui.mode == 1
    assert ui.action(0, False) == "dmg+" and ui.action(9, True) == "cancel"
    assert ui.action(13, True) == "roll" and ui.action(15, False) == "sel+"
    assert ui.action(12, False) is None and ui.mode == 0


def test_ws2812_sends_only_up_to_the_last_changed_led_and_refreshes_whole(hw):
    # a WS2812 keeps its colour when no data reaches it: after the first frame (whole) only
    # the chain's prefix up to the last changed LED goes out; nothing when nothing changed;
    # refresh() sends the last frame whole again
    machine, _rp2 = hw
    ws = importlib.import_module("drivers.ws2812")
    panel = ws.WS2812Panel(machine.Pin(28), 4, 2, serpentine=True, budget_ma=100000)
    fb = bytearray(4 * 2 * 3)
    panel.show(fb)  # dark, but the first frame goes whole
    assert len(panel.sm.run()) and len(bits_to_bytes(decode_ws2812(panel.sm.run()))) == 24
    panel.sm.words = []
    fb[1 * 3 : 1 * 3 + 3] = bytes((9, 8, 7))  # grid (1, 0): chain LED 1
    panel.show(fb)
    out = bits_to_bytes(decode_ws2812(panel.sm.run()))
    assert out == bytes((0, 0, 0, 8, 9, 7)) and panel.last_count == 2
    panel.sm.words = []
    panel.show(fb)  # the same frame: nothing sent
    assert panel.sm.words == [] and panel.last_count == 0
    fb[(4 + 3) * 3 : (4 + 3) * 3 + 3] = bytes((1, 2, 3))  # grid (3, 1): chain LED 4 (serpentine)
    panel.show(fb)
    out = bits_to_bytes(decode_ws2812(panel.sm.run()))
    assert len(out) == 5 * 3 and out[12:15] == bytes((2, 1, 3)) and out[3:6] == bytes((8, 9, 7))
    panel.sm.words = []
    panel.refresh()
    out = bits_to_bytes(decode_ws2812(panel.sm.run()))
    assert len(out) == 8 * 3 and out[3:6] == bytes((8, 9, 7)) and out[12:15] == bytes((2, 1, 3))
    panel.sm.words = []
    panel.partial = False  # the baseline: every changed frame whole
    fb[0] = 50
    panel.show(fb)
    assert len(bits_to_bytes(decode_ws2812(panel.sm.run()))) == 24


def test_ws2812_refresh_before_any_frame_sends_nothing(hw):
    machine, _rp2 = hw
    ws = importlib.import_module("drivers.ws2812")
    panel = ws.WS2812Panel(machine.Pin(28), 4, 2)
    assert panel.refresh() is False
    assert panel.sm.words == []


def test_matrix_scan_skips_only_keys_with_nothing_to_debounce(hw):
    # the scan hands the debouncer only closed or settling keys: a press, its hold to a long
    # press and its release come out exactly as when every key is fed
    machine, _rp2 = hw
    km = importlib.import_module("drivers.keymatrix")
    m = km.KeyMatrix(
        [machine.Pin(2, machine.Pin.OUT), machine.Pin(3, machine.Pin.OUT)],
        [machine.Pin(6, machine.Pin.IN), machine.Pin(7, machine.Pin.IN)],
        debounce_ms=5,
        long_ms=600,
    )
    calls = []
    real = m.deb.update
    m.deb.update = lambda i, raw, now: (calls.append(i), real(i, raw, now))
    closed = set()
    # column c reads high while a driven (high) row r has key (r, c) closed
    machine.INPUT = lambda pin: int(
        any(machine.LEVELS.get(2 + r) and 6 + c == pin for r, c in closed)
    )
    got = []
    for t in range(0, 40, 2):
        closed.clear()
        if 4 <= t < 20:
            closed.add((1, 0))
        m.scan(t)
        k = m.deb.poll()
        if k:
            got.append((t, k))
    assert got == [(20, (2, False))]  # key row 1, col 0: one short press
    assert set(calls) == {2}  # the open keys never reached the debouncer
