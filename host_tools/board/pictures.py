"""``fleetref pictures``: docs/screen-layout.png and docs/keymap.png, drawn from the real
renderer and the default board profile's key map (Pillow), and docs/build.md with its wiring
diagrams and the key maps of every board profile in boards/ (buildguide.py). The screen
layout's bands (which rows and columns show what) come from the renderer's own layout
(``layout_bands``), so the picture follows it."""

import importlib
import os
import sys

from referee.app import Referee
from referee.dice import Dice, XorShift32
from referee.keymap import KeyMap
from referee.app import ACTIONS
from referee import render, shiprow
from referee.render import Renderer

from host_tools import paths
from host_tools.board.legend import status_key

COMMAND = "pictures"  # fleetref pictures; SUMMARY: its line in fleetref --help (cli.py)
SUMMARY = "draw the pictures in docs/ from the real renderer"

CELL = 26
ROUND_BITS = 8  # render.py draws the round in 8 bits from column 0
# the packages this command draws with, and the distribution that installs each
NEEDS = (("PIL", "pillow"), ("schemdraw", "schemdraw"))
BAND_RGB = (
    (255, 255, 255),
    (255, 80, 80),
    (255, 200, 0),
    (80, 220, 80),
    (80, 200, 255),
    (200, 120, 255),
    (255, 140, 200),
    (160, 160, 160),
    (255, 150, 60),
    (120, 255, 220),
)


def sample_app():
    """An swsb game mid-attack: counters played, damage pending, a ship selected and marked."""
    board = paths.board_profile()
    a = Referee(board, paths.ROSTERS, lambda l: None, Dice(XorShift32(1)), board["grid"]["h"] - 4)
    a.load_scenario("swsb-example")
    for line in [
        '{"c": "roll", "values": [14, 9]}',
        '{"c": "phase"}',
        '{"c": "counter", "ship": 5, "option": 2}',
        '{"c": "counter", "ship": 5, "option": 3, "for": 7}',
        '{"c": "launch", "ship": 7}',
        '{"c": "phase"}',
        '{"c": "hit", "ship": 7, "by": 0}',
        '{"c": "phase"}',
        '{"c": "hit", "ship": 6, "n": 3, "by": 1}',
        '{"c": "hit", "ship": 1, "n": 4, "by": 5}',
    ]:
        a.link.handle_line(line)
    a.pad.cursor = 6
    a.mark = 1
    return a


def _cols(half, x0, n):
    """Columns ``x0`` .. ``x0 + n - 1`` of both halves."""
    return [s * half + x0 + k for s in range(2) for k in range(n)]


def layout_bands(w, h, option_count):
    """The renderer's layout for a ``w`` x ``h`` grid and a ruleset with ``option_count`` fleet command
    options: a list of (name, rows, columns), rows and columns as lists of grid indices.
    Taken from the renderer (its half width and ship rows per page) and the ship row's
    columns (shiprow.py); tests/host/test_maker_docs.py renders real frames against it."""
    r = Renderer(w, h)
    half, rpp = r.half, r.rows_per_page
    chart, dice = h - 2, h - 1  # below the ship rows, as render.py draws them
    top = chart - rpp  # the ship rows end where the chart row starts
    ships = list(range(top, chart))
    bands = [
        ("round in binary", [0], list(range(ROUND_BITS))),
        ("phase pips, the current one bright purple", [0], list(range(half + 1, w - 2))),
        ("who moves first (side colour)", [0], [w - 2]),
        ("initiative holder (dim white: undecided)", [0], [w - 1]),
        ("pages; all red: a refusal (its kind on the first 3 LEDs)", [1], list(range(w))),
        (
            "hit points (side colour): red damage, amber pending, grey aboard",
            ships,
            _cols(half, 0, shiprow.BAR),
        ),
        ("command counters left (yellow)", ships, _cols(half, shiprow.CC_X, 2)),
        (
            "status: " + ", ".join(name for name, _ in status_key()),
            ships,
            _cols(half, shiprow.STATUS_X, 1),
        ),
    ]
    if option_count:
        bands.append(
            (
                "fleet command chart: option k of each side",
                [chart],
                _cols(half, 0, min(option_count, half)),
            )
        )
    bands.append(("last initiative roll per side (bar)", [dice], _cols(half, 0, half)))
    return bands


def _span(v):
    """'2-13' or '7' or '0-3, 8-11' for a sorted list of indices."""
    return ", ".join(str(a) if a == b else "%d-%d" % (a, b) for a, b in _runs(v))


def _lift(c):
    """An LED colour as it shows on a screen (dim LEDs lifted)."""
    return tuple(int(255 * (v / 255) ** 0.5) for v in c)


def screen_image(a):
    """The frame the renderer draws for ``a``, with the layout's bands outlined and named."""
    from PIL import Image, ImageDraw, ImageFont

    w, h = a.board["grid"]["w"], a.board["grid"]["h"]
    fb = Renderer(w, h).render(a)
    bands = layout_bands(w, h, a.game.option_count)
    font = ImageFont.load_default(size=13)
    gx = w * CELL + 20
    lines = ["row %s, col %s: %s" % (_span(rows), _span(cols), name) for name, rows, cols in bands]
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    tw = max(measure.textlength(t, font=font) for t in lines)
    img = Image.new(
        "RGB", (gx + 30 + int(tw), max(h * CELL + 10, 30 + 22 * len(bands) + 40)), (12, 12, 12)
    )
    d = ImageDraw.Draw(img)
    for y in range(h):
        for x in range(w):
            i = (y * w + x) * 3
            c = (fb[i], fb[i + 1], fb[i + 2])
            c = (28, 28, 28) if c == (0, 0, 0) else _lift(c)
            d.ellipse(
                [x * CELL + 4, y * CELL + 4, x * CELL + CELL - 2, y * CELL + CELL - 2], fill=c
            )
    d.text((gx, 6), "left half: side 0, right half: side 1", fill=(200, 200, 200), font=font)
    for k, (name, rows, cols) in enumerate(bands):
        col = BAND_RGB[k % len(BAND_RGB)]
        for x0 in _runs(cols):
            d.rectangle(
                [
                    x0[0] * CELL + 1,
                    rows[0] * CELL + 1,
                    (x0[1] + 1) * CELL + 1,
                    (rows[-1] + 1) * CELL + 1,
                ],
                outline=col,
                width=2,
            )
        y = 30 + 22 * k
        d.rectangle([gx, y + 2, gx + 12, y + 14], outline=col, width=2)
        d.text((gx + 20, y), lines[k], fill=(230, 230, 230), font=font)
    y = 30 + 22 * len(bands) + 8
    x = gx
    for name, c in status_key():
        d.ellipse([x, y + 2, x + 12, y + 14], fill=_lift(c))
        d.text((x + 16, y), name, fill=(200, 200, 200), font=font)
        x += 24 + int(d.textlength(name, font=font))
    return img


def _runs(v):
    """Contiguous runs of a sorted index list as (first, last) pairs."""
    out = []
    for x in v:
        if out and out[-1][1] == x - 1:
            out[-1] = (out[-1][0], x)
        else:
            out.append((x, x))
    return out


def keymap_image(board):
    from PIL import Image, ImageDraw

    km = KeyMap(board, ACTIONS)
    rows = len(board["keys"])
    cols = km.cols
    kw, kh = 150, 80
    img = Image.new("RGB", (cols * kw + 20, rows * kh + 40), (245, 245, 245))
    d = ImageDraw.Draw(img)
    d.text((10, 8), "%s key map: short press / long press" % board["name"], fill=(0, 0, 0))
    for i in range(km.n):
        r, c = divmod(i, cols)
        x0, y0 = 10 + c * kw, 30 + r * kh
        d.rounded_rectangle(
            [x0 + 4, y0 + 4, x0 + kw - 4, y0 + kh - 4],
            10,
            outline=(40, 40, 40),
            fill=(255, 255, 255),
            width=2,
        )
        d.text((x0 + 14, y0 + 14), "K%d  %s" % (i, km.action(i, False)), fill=(0, 0, 0))
        lg = km.action(i, True)
        if lg != km.action(i, False):
            d.text((x0 + 14, y0 + 42), "long: %s" % lg, fill=(90, 90, 90))
    return img


def missing_package():
    """The distribution to install when a package this command draws with is missing, else
    None."""
    for module, dist in NEEDS:
        try:
            importlib.import_module(module)
        except ImportError:
            return dist
    return None


def add_arguments(p):
    p.add_argument("--out", default=None, help="directory (default: docs/)")


def main(args):
    dist = missing_package()
    if dist:
        print(
            "fleetref pictures: needs the Python package %s: install it with "
            "`.venv/bin/pip install -e .` (or run `make demo` again)" % dist,
            file=sys.stderr,
        )
        return 2
    out = args.out or os.path.join(paths.ROOT, "docs")
    os.makedirs(out, exist_ok=True)
    screen_image(sample_app()).save(os.path.join(out, "screen-layout.png"))
    keymap_image(paths.board_profile()).save(os.path.join(out, "keymap.png"))
    print(
        "wrote %s and %s"
        % (os.path.join(out, "screen-layout.png"), os.path.join(out, "keymap.png"))
    )
    from host_tools.board import buildguide

    names = buildguide.write(out)
    print("wrote the build guide: %s" % ", ".join(names))
    return 0
