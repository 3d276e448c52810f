"""The default board's wiring diagram (docs/wiring-<board>.svg, drawn with schemdraw) from its
profile in boards/: the Pico's pins, the 74AHCT125 level shifter, the 330 ohm resistor, the
panel, and the whole key matrix (rows x columns of the profile), each key named by its key
index as the key maps and scripts use it: K<row * columns + column>, K0 top left
(firmware/drivers/keymatrix.py). Every part is placed on a fixed grid, so no two labels
overlap (tests/host/test_maker_docs.py measures them)."""

import itertools

# Raspberry Pi Pico: GPIO number -> physical pin (Pico datasheet, "Pinout")
GP_PIN = {
    0: 1,
    1: 2,
    2: 4,
    3: 5,
    4: 6,
    5: 7,
    6: 9,
    7: 10,
    8: 11,
    9: 12,
    10: 14,
    11: 15,
    12: 16,
    13: 17,
    14: 19,
    15: 20,
    16: 21,
    17: 22,
    18: 24,
    19: 25,
    20: 26,
    21: 27,
    22: 29,
    26: 31,
    27: 32,
    28: 34,
}
VBUS_PIN, GND_PIN = 40, 38
# 74AHCT125 (DIP-14): gate 1's pins; the other gates' inputs are 2A, 3A, 4A
SHIFTER_PINS = {"1OE": 1, "1A": 2, "1Y": 3, "GND": 7, "VCC": 14}
SHIFTER_SPARE_INPUTS = "2A, 3A, 4A (pins 5, 9, 12)"

# the grid, in schemdraw units (1 unit = 36 pt)
LEAD = 0.5  # pin leads outside a box
ROW_PITCH = 2.8  # between the matrix's row wires
COL_PITCH = 2.8  # between its column wires
KEY_DX = 1.0  # a key hangs this far left of its column wire
KEY_LEN = 1.0  # switch and diode, each
ROW_PIN_PITCH = 0.8
FONT, SMALL = 12, 10


class _Sheet:
    """A schemdraw drawing with helpers for absolute placement."""

    def __init__(self, d, elm):
        self.d = d
        self.elm = elm

    def line(self, *pts):
        for a, b in itertools.pairwise(pts):
            self.d += self.elm.Line().at(a).to(b)

    def text(self, xy, s, ha="center", va="center", size=FONT):
        self.d += self.elm.Label().at(xy).label(s, halign=ha, valign=va, fontsize=size)

    def box(self, x0, y0, x1, y1):
        self.d += self.elm.Rect((x0, y0), (x1, y1)).at((0, 0))

    def dot(self, xy):
        self.d += self.elm.Dot().at(xy)

    def ground(self, xy):
        self.d += self.elm.Ground().at(xy)


def _pico(s, board, pw, ph, col_x, row_y):
    """The Pico's box at (0, 0)-(pw, ph), its row pins on the left, column pins below, and
    VBUS, GND and the data pin on the right; returns the right pins' lead ends."""
    inp, disp = board["input"], board["display"]
    s.box(0, 0, pw, ph)
    s.text((pw / 2, ph - 0.35), "Raspberry Pi Pico (RP2040)", va="top")
    for r, gp in enumerate(inp["rows"]):
        y = row_y[r]
        s.line((0, y), (-LEAD, y))
        s.text((0.15, y), "row%d GP%d" % (r, gp), ha="left", size=SMALL)
        s.text((-0.08, y + 0.05), str(GP_PIN[gp]), ha="right", va="bottom", size=SMALL - 1)
    for c, gp in enumerate(inp["cols"]):
        x = col_x[c]
        s.line((x, 0), (x, -LEAD))
        s.text((x, 0.15), "col%d GP%d" % (c, gp), va="bottom", size=SMALL)
        s.text((x + 0.1, -0.08), str(GP_PIN[gp]), ha="left", va="top", size=SMALL - 1)
    right = {}
    names = [("VBUS", VBUS_PIN), ("GND", GND_PIN), ("GP%d" % disp["pin"], GP_PIN[disp["pin"]])]
    for k, (name, pin) in enumerate(names):
        y = ph - 1.3 - 1.2 * k
        s.line((pw, y), (pw + LEAD, y))
        s.text((pw - 0.15, y), name, ha="right", size=SMALL)
        s.text((pw + 0.08, y + 0.05), str(pin), ha="left", va="bottom", size=SMALL - 1)
        right[name] = (pw + LEAD, y)
    return right


def _matrix(s, board, col_x, row_y):
    """The key matrix below the Pico: row wires from its left pins, column wires from its
    bottom pins, and at each crossing a switch and a diode (band toward the column)."""
    nr, nc = len(board["input"]["rows"]), len(board["input"]["cols"])
    elm = s.elm
    top = -2.2
    bottom = top - (nr - 1) * ROW_PITCH - 2 * KEY_LEN - 0.6
    for c in range(nc):
        s.line((col_x[c], -LEAD), (col_x[c], bottom))
        s.text((col_x[c], bottom - 0.15), "col %d" % c, va="top", size=SMALL)
    right_end = col_x[-1] + 0.6
    for r in range(nr):
        y = top - r * ROW_PITCH
        xl = -LEAD - 0.6 - 0.5 * r  # row 0 turns closest to the Pico: no crossings
        s.line((-LEAD, row_y[r]), (xl, row_y[r]), (xl, y), (right_end, y))
        s.text((right_end + 0.15, y), "row %d" % r, ha="left", size=SMALL)
        for c in range(nc):
            x = col_x[c] - KEY_DX
            s.dot((x, y))
            s.d += elm.Switch().at((x, y)).down().length(KEY_LEN)
            s.d += elm.Diode().at((x, y - KEY_LEN)).down().length(KEY_LEN)
            yb = y - 2 * KEY_LEN
            s.line((x, yb), (col_x[c], yb))
            s.dot((col_x[c], yb))
            s.text((x - 0.3, y - KEY_LEN / 2), "K%d" % (r * nc + c), ha="right")
    s.text(
        (col_x[0] - KEY_DX - 1.2, bottom - 0.9),
        "each key: a switch, then a 1N4148 with its band (cathode) toward the column; "
        "K = row × %d + column, as in the key maps" % nc,
        ha="left",
        va="top",
        size=SMALL,
    )


def _data_path(s, board, pins, rail_y):
    """GPIO -> 74AHCT125 (3.3 V in, 5 V out) -> 330 ohm -> the panel's DIN, and the 5 V
    rail from VBUS to the shifter and the panel."""
    w, h = board["grid"]["w"], board["grid"]["h"]
    elm = s.elm
    dx, dy = pins["GP%d" % board["display"]["pin"]]
    # the level shifter, gate 1
    x0 = dx + 1.5
    x1 = x0 + 3.4
    yc = dy + 0.4
    s.box(x0, yc - 1.2, x1, yc + 1.2)
    s.text(((x0 + x1) / 2, yc + 0.35), "74AHCT125")
    s.line((dx, dy), (x0 - LEAD, dy), (x0, dy))
    s.text((x0 + 0.15, dy), "1A", ha="left", size=SMALL)
    s.text(
        (x0 - 0.08, dy + 0.05), str(SHIFTER_PINS["1A"]), ha="right", va="bottom", size=SMALL - 1
    )
    s.line((x1, dy), (x1 + LEAD, dy))
    s.text((x1 - 0.15, dy), "1Y", ha="right", size=SMALL)
    s.text((x1 + 0.08, dy + 0.05), str(SHIFTER_PINS["1Y"]), ha="left", va="bottom", size=SMALL - 1)
    vx = x1 - 0.8
    s.line((vx, yc + 1.2), (vx, rail_y))
    s.dot((vx, rail_y))
    s.text((vx, yc + 1.05), "VCC", va="top", size=SMALL)
    s.text((vx + 0.1, yc + 1.3), str(SHIFTER_PINS["VCC"]), ha="left", va="bottom", size=SMALL - 1)
    for name, gx in (("1OE", x0 + 0.8), ("GND", x1 - 0.8)):
        s.line((gx, yc - 1.2), (gx, yc - 1.2 - LEAD))
        s.ground((gx, yc - 1.2 - LEAD))
        s.text((gx, yc - 1.05), name, va="bottom", size=SMALL)
        s.text((gx + 0.1, yc - 1.3), str(SHIFTER_PINS[name]), ha="left", va="top", size=SMALL - 1)
    s.text(
        (x0, yc - 2.9),
        "unused inputs %s to GND" % SHIFTER_SPARE_INPUTS,
        ha="left",
        va="top",
        size=SMALL,
    )
    # 330 ohm, then the panel
    s.d += elm.Resistor().at((x1 + LEAD, dy)).right().length(2.4).label("330 Ω", loc="top")
    px0 = x1 + LEAD + 2.4 + LEAD
    px1 = px0 + 5.8
    s.box(px0, dy - 1.8, px1, dy + 1.8)
    s.line((px0 - LEAD, dy), (px0, dy))
    s.text((px0 + 0.15, dy), "DIN", ha="left", size=SMALL)
    s.text(((px0 + px1) / 2 + 0.3, dy + 0.6), "%dx%d WS2812B panel" % (w, h))
    s.text(((px0 + px1) / 2 + 0.3, dy - 0.6), "DIN at the top-left LED", size=SMALL)
    fx, gx = px0 + 1.2, px1 - 1.2
    s.line((fx, dy + 1.8), (fx, rail_y))
    s.text((fx, dy + 1.65), "5V", va="top", size=SMALL)
    s.line((gx, dy - 1.8), (gx, dy - 1.8 - LEAD))
    s.ground((gx, dy - 1.8 - LEAD))
    s.text((gx, dy - 1.65), "GND", va="bottom", size=SMALL)
    # the 5 V rail: VBUS -> shifter VCC -> panel 5V
    vbx, vby = pins["VBUS"]
    s.line((vbx, vby), (vbx + 0.6, vby), (vbx + 0.6, rail_y), (fx, rail_y))
    s.text((vbx + 0.9, rail_y + 0.15), "5 V from VBUS (USB)", ha="left", va="bottom", size=SMALL)
    gbx, gby = pins["GND"]
    s.ground((gbx, gby))


def wiring_svg(board):
    """The default board's wiring as SVG text (schemdraw), pins from ``board``."""
    import schemdraw
    import schemdraw.elements as elm

    schemdraw.use("svg")
    nr, nc = len(board["input"]["rows"]), len(board["input"]["cols"])
    col_x = [1.9 + COL_PITCH * c for c in range(nc)]
    pw = max(col_x[-1] + 1.4, 7.0)
    ph = 2.0 + ROW_PIN_PITCH * (nr - 1) + 1.4
    # rows from the top of the left side: the last row highest, row 0 lowest (no crossings)
    row_y = [1.0 + ROW_PIN_PITCH * r for r in range(nr)]
    with schemdraw.Drawing(show=False) as d:
        d.config(fontsize=FONT)
        s = _Sheet(d, elm)
        pins = _pico(s, board, pw, ph, col_x, row_y)
        _matrix(s, board, col_x, row_y)
        _data_path(s, board, pins, ph + 1.0)
    return d.get_imagedata("svg").decode()
