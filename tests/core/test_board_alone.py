"""The board alone. Digits in a pixel font for an entered die, the round and
the last rolls (read back from the frame buffer with the font); a refusal's kind as a colour
code; the marked ship no longer shares yellow with counters and phases; a dark column between
the fleets; the keypad base's numbers mode; `fleetref legend` lined up with the grid rows."""

import json
import xml.etree.ElementTree as ET

from support import ROOT
from support.process import cli
from support.game import make_referee
from referee import glyphs, overlay, render
from referee.render import Renderer


def read_digits(r, x0, x1, colour=None):
    """The number written in the 3x5 font between columns x0..x1 of renderer ``r`` (any
    rows), or None: scans every row for glyph patterns."""
    for y in range(r.h - glyphs.H + 1):
        found = []
        x = x0
        while x <= x1 - glyphs.W + 1:
            for d in range(10):
                ok = True
                for row in range(glyphs.H):
                    bits = glyphs.DIGITS[d * glyphs.H + row]
                    for col in range(glyphs.W):
                        lit = r.get(x + col, y + row) != (0, 0, 0)
                        if colour is not None and lit:
                            lit = r.get(x + col, y + row) == colour
                        if lit != bool(bits & (4 >> col)):
                            ok = False
                            break
                    if not ok:
                        break
                if ok:
                    found.append(d)
                    x += glyphs.W + 1
                    break
            else:
                x += 1
        if found:
            return int("".join(map(str, found)))
    return None


def test_entered_die_round_and_rolls_are_digits():
    a, _ = make_referee("hoth")
    r = Renderer(16, 16)
    r.render(a)
    assert read_digits(r, 0, 7, render.WHITE) == 1  # round 1, before the roll
    a.pad.key("enter")
    for v in (13, 14):  # 13 and 14 look different
        while a.pad.entry_value != v:
            a.pad.key("dmg+" if a.pad.entry_value < v else "dmg-")
        r.render(a)
        assert read_digits(r, 0, 7, render.WHITE) == v
    a.pad.key("enter")  # side 0: 14
    while a.pad.entry_value != 9:
        a.pad.key("dmg+" if a.pad.entry_value < 9 else "dmg-")
    r.render(a)
    assert read_digits(r, 8, 15, render.WHITE) == 9
    a.pad.key("enter")
    assert list(a.game.rolls) == [14, 9] and a.game.init == 0 and not a.pad.entry
    r.render(a)
    assert read_digits(r, 0, 7, render.SIDE_RGB[0]) == 14  # the holder's bright
    assert read_digits(r, 8, 15, render.SIDE_DIM[1]) == 9
    # hoth has 4 and 3 ships: the digits sit below the fleets, hiding no ship row
    for y in range(2, 2 + 4):
        assert any(r.get(x, y) != (0, 0, 0) for x in range(8))
    a.pad.key("phase")  # movement: no digits
    r.render(a)
    assert read_digits(r, 0, 15) is None


def test_refusal_kind_colour_code():
    a, _ = make_referee("hoth")
    r = Renderer(16, 16)
    assert a.pad.key("dmg+")  # not in the initiative phase
    assert overlay.refusal_kind(a.error_text) == overlay.KIND_PHASE
    r.render(a, error=True)
    assert [r.get(x, 1) for x in range(4)] == [overlay.KIND_RGB[overlay.KIND_PHASE]] * 3 + [
        render.RED
    ]
    a2, _ = make_referee("hoth")
    assert a2.pad.key("undo")  # nothing to undo
    r.render(a2, error=True)
    assert r.get(0, 1) == overlay.KIND_RGB[overlay.KIND_NOTHING]
    assert (
        overlay.refusal_kind("Empire moves first: Star Destroyer has not moved")
        == overlay.KIND_ORDER
    )
    assert overlay.refusal_kind("Troop Transport has no capital weapons") == overlay.KIND_RULE
    assert len({c for c in overlay.KIND_RGB if c}) == 4


def test_distinct_colours_and_the_gap():
    a, _ = make_referee("swsb-example")
    r = Renderer(16, 16)
    a.link.handle_line('{"c": "roll", "values": [14, 9]}')
    a.link.handle_line('{"c": "phase"}')
    a.pad.cursor = 1
    a.mark = 0
    r.render(a)
    marked = r.get(render.STATUS_X, 2)
    counters = {r.get(x, y) for x in (4, 5, 12, 13) for y in range(2, 14)} - {(0, 0, 0)}
    phases = {r.get(x, 0) for x in range(9, 14)} - {(0, 0, 0)}
    assert marked == render.CYAN
    assert marked not in counters and marked not in phases and not counters & phases
    assert all(r.get(7, y) == (0, 0, 0) for y in range(2, 14))  # the gap between the fleets


def test_keypad_numbers_mode_shows_round_phase_and_dice():
    from referee.keypad_ui import KeypadUI, NUMBERS_MODE, PURPLE

    a, _ = make_referee("hoth")
    ui = KeypadUI(a)
    assert ui.action(15, True) is None and ui.mode == NUMBERS_MODE
    a.link.handle_line('{"c": "roll", "values": [13, 6]}')
    fb = ui.render(a)

    def key(k):
        return tuple(fb[3 * k : 3 * k + 3])

    assert key(0) == PURPLE  # phase 0 of 3
    assert [key(k) != (0, 0, 0) for k in range(4, 8)] == [False, False, False, True]  # round 1
    assert [key(k) == render.SIDE_RGB[0] for k in range(8, 12)] == [True, True, False, True]  # 13
    assert [key(k) == render.SIDE_DIM[1] for k in range(12, 16)] == [False, True, True, False]  # 6
    assert ui.action(3, False) is None and ui.mode != NUMBERS_MODE  # any other key leaves


def test_legend_rows_line_up_with_the_grid(tmp_path):
    out = tmp_path / "hoth.svg"
    r = cli("legend", "--scenario", "hoth", "--pitch", "10", "--out", str(out))
    assert r.returncode == 0, r.stderr
    root = ET.parse(out).getroot()
    ns = "{http://www.w3.org/2000/svg}"
    rect = next(e for e in root.iter(ns + "rect") if e.get("stroke-dasharray"))
    top, pitch = float(rect.get("y")), float(rect.get("height")) / 16
    assert pitch == 10.0
    rows = {}
    for t in root.iter(ns + "text"):
        if t.get("data-row") is not None:
            row = int(t.get("data-row"))
            assert abs(float(t.get("y")) - (top + (row + 0.5) * pitch)) < 1e-6
            rows.setdefault(row, []).append(t.text or "")
    roster = json.load(open(ROOT + "/firmware/rosters/hoth.json"))
    assert rows[2][0].startswith("Star Destroyer  3 hp")  # side 0, first ship row
    assert rows[2][1].startswith("Troop Transport  2 hp")  # side 1, first ship row
    assert "aboard" in rows[3][0]
    assert next(s["name"] for s in roster["sides"][1]["ships"]) == "Troop Transport"
    texts = [t.text for t in root.iter(ns + "text")]
    assert "rapid" in texts and "held: attack" in texts  # smb's key map
    assert any("not in this phase" in (t or "") for t in texts)
    r = cli("legend", "--scenario", "hot")
    assert r.returncode == 2 and "did you mean 'hoth'" in r.stderr
