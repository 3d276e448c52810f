"""``fleetref pictures``: docs/screen-layout.png and docs/keymap.png, drawn from the real
renderer and the default board profile's key map (Pillow), and docs/build.md with its wiring
diagram and key maps (buildguide.py)."""

import json
import os

from referee.app import Referee
from referee.dice import Dice, XorShift32
from referee.keymap import KeyMap
from referee.app import ACTIONS
from referee.render import Renderer

from host_tools import paths

CELL = 26
LABELS = [
    (0, "round (binary) | phases | moves first | initiative"),
    (1, "pages (error: whole row red)"),
    (2, "ships: hit point bar, counters, status (one row each)"),
    (-2, "fleet command chart (option k of each side)"),
    (-1, "last initiative roll per side"),
]


def sample_app():
    """An swsb game mid-attack: counters played, damage pending, a ship selected and marked."""
    board = paths.board_profile()
    a = Referee(board, paths.ROSTERS, lambda l: None, Dice(XorShift32(1)), board["grid"]["h"] - 4)
    a.load_scenario("swsb-example")
    for line in ['{"c": "roll", "values": [14, 9]}', '{"c": "phase"}',
                 '{"c": "counter", "ship": 5, "option": 2}',
                 '{"c": "counter", "ship": 5, "option": 3, "for": 7}', '{"c": "launch", "ship": 7}',
                 '{"c": "phase"}', '{"c": "hit", "ship": 7, "by": 0}', '{"c": "phase"}',
                 '{"c": "hit", "ship": 6, "n": 3, "by": 1}', '{"c": "hit", "ship": 1, "n": 4, "by": 5}']:
        a.handle_line(line)
    a.cursor = 6
    a.mark = 1
    return a


def screen_image(a):
    from PIL import Image, ImageDraw      # a test tool ([dev] extra): the demo runs without it
    w, h = a.board["grid"]["w"], a.board["grid"]["h"]
    r = Renderer(w, h)
    fb = r.render(a)
    img = Image.new("RGB", (w * CELL + 430, h * CELL + 10), (12, 12, 12))
    d = ImageDraw.Draw(img)
    for y in range(h):
        for x in range(w):
            i = (y * w + x) * 3
            c = (fb[i], fb[i + 1], fb[i + 2])
            if c == (0, 0, 0):
                c = (28, 28, 28)
            else:   # lift dim LEDs so they show on a screen
                c = tuple(int(255 * (v / 255) ** 0.5) for v in c)
            d.ellipse([x * CELL + 4, y * CELL + 4, x * CELL + CELL - 2, y * CELL + CELL - 2], fill=c)
    for row, text in LABELS:
        y = (row if row >= 0 else h + row) * CELL + 8
        d.text((w * CELL + 14, y), text, fill=(230, 230, 230))
    d.text((w * CELL + 14, 5 * CELL), "left half: side 0 (Light Side)\nright half: side 1 (Dark Side)\n"
           "bar: red damage, amber pending,\n  bright X of X/Y, dim Y, grey aboard\n"
           "col 5-6: command counters\ncol 7: white selected, yellow marked,\n"
           "  magenta firing, blue full power", fill=(180, 180, 180))
    return img


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
        d.rounded_rectangle([x0 + 4, y0 + 4, x0 + kw - 4, y0 + kh - 4], 10, outline=(40, 40, 40),
                            fill=(255, 255, 255), width=2)
        d.text((x0 + 14, y0 + 14), "K%d  %s" % (i, km.action(i, False)), fill=(0, 0, 0))
        lg = km.action(i, True)
        if lg != km.action(i, False):
            d.text((x0 + 14, y0 + 42), "long: %s" % lg, fill=(90, 90, 90))
    return img


def add_arguments(p):
    p.add_argument("--out", default=None, help="directory (default: docs/)")


def main(args):
    out = args.out or os.path.join(paths.ROOT, "docs")
    os.makedirs(out, exist_ok=True)
    screen_image(sample_app()).save(os.path.join(out, "screen-layout.png"))
    keymap_image(paths.board_profile()).save(os.path.join(out, "keymap.png"))
    print("wrote %s and %s" % (os.path.join(out, "screen-layout.png"),
                               os.path.join(out, "keymap.png")))
    from host_tools import buildguide
    names = buildguide.write(out)
    print("wrote the build guide: %s" % ", ".join(names))
    return 0
