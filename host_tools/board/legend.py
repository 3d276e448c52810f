"""fleetref legend: a printable legend for the loaded roster, to lay beside the LED panel.
One line per grid row at the panel's LED pitch (1:1 when printed at 100 %), on two strips to
cut apart: the left strip goes along the panel's left edge (side 0's ships), the right strip
along its right edge (side 1's), so each ship's name, hit points and counters sit level with
its row; the round, phase, refusal, chart (for rulesets with fleet command counters) and dice
rows are named. Below: the key map of the roster's ruleset, the status LED's colours and the
refusal colour codes. The page is A4 (or Letter, A3) with 10 mm margins; the legend is SVG,
or PDF when the file name ends in .pdf (or with --pdf)."""

import os
import sys

from host_tools import paths
from host_tools.argtypes import finite_number
from host_tools.board.legendfile import svg_text, write_pdf

COMMAND = "legend"  # fleetref legend; SUMMARY: its line in fleetref --help (cli.py)
SUMMARY = "print a legend (SVG) to lay beside the LED panel"

FONT = 3.2  # mm
MARGIN = 10.0  # mm, on every side of the page
PAGES = {"a4": (210.0, 297.0), "letter": (215.9, 279.4), "a3": (297.0, 420.0)}
PAGE_NAMES = {"a4": "A4", "letter": "Letter", "a3": "A3"}
KEY_H, KEY_GAP = 9.5, 1.0  # key map cells
CODE_H = 4.6  # a line of the colour keys
CHAR_W = 0.6  # a character's width in em (sans-serif, generous)


def status_key():
    """(meaning, RGB) of each colour of a ship row's status LED, from the renderer's ST_*
    constants and STATUS_RGB (firmware/referee/render.py), in their order."""
    from referee import render

    sts = sorted(
        (v, k) for k, v in vars(render).items() if k.startswith("ST_") and isinstance(v, int)
    )
    return [(k[3:].lower().replace("_", " "), render.STATUS_RGB[v]) for v, k in sts]


def has_chart(rs):
    """True when ruleset ``rs`` has fleet command counters (its ``options`` chart), so the
    grid's chart row shows something."""
    return bool(rs.options)


def row_labels(norm, board, rows_per_page, chart=True):
    """(grid row, left text, right text) for every row of the grid: the ships of each side by
    page (names of later pages after " / "), and the fixed rows (the chart row only when
    ``chart``)."""
    h = board["grid"]["h"]
    out = [
        (0, "round in binary", "phase pips | first | initiative"),
        (1, "refusal (colour code below) / pages", "scenario menu pips"),
    ]
    ships = [norm["sides"][s]["ships"] for s in range(2)]
    for r in range(rows_per_page):
        txt = []
        for s in range(2):
            parts = []
            for sh in ships[s][r::rows_per_page]:
                x, y = sh["hp"]
                hp = str(x) if not y else "%d/%d" % (x, y)
                parts.append(
                    "%s  %s hp%s%s"
                    % (
                        sh["name"],
                        hp,
                        ", %d cc" % sh["cc"] if sh["cc"] else "",
                        "" if sh["launched"] else ", aboard",
                    )
                )
            txt.append(" / ".join(parts))
        out.append((2 + r, txt[0], txt[1]))
    if chart:
        out.append((h - 2, "fleet command chart", "fleet command chart"))
    out.append((h - 1, "last initiative roll (bar)", "last initiative roll (bar)"))
    return out


def _fit(text, width, size=FONT):
    """(text, font size) that fits ``width`` mm: a smaller font down to 2 mm, then cut."""
    if not text:
        return text, size
    size = max(2.0, min(size, int(100 * width / (CHAR_W * len(text))) / 100.0))
    keep = int(width / (CHAR_W * size))
    return (text if len(text) <= keep else text[: max(keep - 1, 0)] + "…"), size


class Sheet:
    """The legend's drawing: rectangles, lines and texts in mm from the page's top left."""

    def __init__(self, w, h):
        self.w, self.h = w, h
        self.items = []

    def rect(self, x, y, w, h, fill=None, stroke=(51, 51, 51), lw=0.3, dash=False, rx=0.0):
        self.items.append(("rect", x, y, w, h, fill, stroke, lw, dash, rx))

    def line(self, x1, y1, x2, y2, stroke=(221, 221, 221), lw=0.2, dash=False):
        self.items.append(("line", x1, y1, x2, y2, stroke, lw, dash))

    def text(
        self,
        x,
        y,
        s,
        size=FONT,
        anchor="start",
        middle=False,
        bold=False,
        fill=(0, 0, 0),
        row=None,
        cls=None,
    ):
        self.items.append(("text", x, y, s, size, anchor, middle, bold, fill, row, cls))


def _head(sheet, norm, rs, scenario, pitch, x0, width):
    t, size = _fit("%s (%s)" % (scenario or norm["name"], rs.name), width, 5)
    sheet.text(x0, MARGIN + 5, t, size=size, bold=True)
    t, size = _fit(
        "%s left, %s right. Cut along the dashed lines; lay each strip along its "
        "edge of the panel (rows %g mm apart)."
        % (norm["sides"][0]["name"], norm["sides"][1]["name"], pitch),
        width,
        2.8,
    )
    sheet.text(x0, MARGIN + 10.5, t, size=size)


def _strips(sheet, norm, board, rs, pitch, x0, top, width):
    """The two strips of row labels: left texts end at the left strip's right edge (the
    panel's left edge), right texts start at the right strip's left edge."""
    h = board["grid"]["h"]
    half = width / 2
    sheet.rect(x0, top, width, h * pitch, stroke=(153, 153, 153), lw=0.3, dash=True)
    sheet.line(
        x0 + half, top, x0 + half, top + h * pitch, stroke=(153, 153, 153), lw=0.3, dash=True
    )
    for row in range(1, h):
        sheet.line(x0, top + row * pitch, x0 + width, top + row * pitch)
    for row, left, right in row_labels(norm, board, h - 4, has_chart(rs)):
        yc = top + (row + 0.5) * pitch
        t, size = _fit(left, half - 4)
        sheet.text(x0 + half - 2, yc, t, size=size, anchor="end", middle=True, row=row)
        t, size = _fit(right, half - 4)
        sheet.text(x0 + half + 2, yc, t, size=size, middle=True, row=row)


def _keys(sheet, board, rs, x0, y, width):
    from referee.keymap import KeyMap
    from referee.app import ACTIONS

    sheet.text(x0, y, "keys (held below)", size=4, bold=True)
    from host_tools.board.buildguide import label_game

    km = KeyMap(board, ACTIONS)
    G = label_game(rs)
    cw = width / km.cols
    for i in range(km.n):
        x, yy = x0 + (i % km.cols) * cw, y + 2 + (i // km.cols) * (KEY_H + KEY_GAP)
        s = rs.pad_label(G, km.action(i, False))
        lg = rs.pad_label(G, km.action(i, True))
        sheet.rect(x, yy, cw - 2, KEY_H, rx=1.5)
        sheet.text(x + 1.5, yy + 2.6, "K%d" % i, size=2.0, fill=(136, 136, 136))
        t, size = _fit(s, cw - 9)
        sheet.text(x + 6.5, yy + 3.8, t, size=size, cls="key")
        if lg != s:
            t, size = _fit("held: " + lg, cw - 5, 2.6)
            sheet.text(x + 1.5, yy + 8.0, t, size=size, fill=(85, 85, 85), cls="key")
    return y + 2 + (km.n // km.cols) * (KEY_H + KEY_GAP)


def _codes(sheet, x0, y, width):
    """The status LED's colours (left column) and the refusal codes (right column)."""
    from referee import overlay, shiprow
    from referee.palette import RED

    half = width / 2
    sheet.text(
        x0, y, "status LED (%s of each half-row)" % _nth(shiprow.STATUS_X + 1), size=4, bold=True
    )
    for k, (name, c) in enumerate(status_key()):
        yy = y + 2 + CODE_H * k
        sheet.rect(x0, yy, 3.6, 3.6, fill=_lift(c), stroke=(51, 51, 51), lw=0.2)
        sheet.text(x0 + 5.5, yy + 3.0, name, cls="status")
    sheet.text(x0 + half, y, "refusal codes (row 1, first 3 LEDs)", size=4, bold=True)
    for k, name in enumerate(overlay.KIND_NAMES):
        c = overlay.KIND_RGB[k] or RED
        yy = y + 2 + CODE_H * k
        sheet.rect(x0 + half, yy, 3.6, 3.6, fill=c, stroke=(51, 51, 51), lw=0.2)
        sheet.text(x0 + half + 5.5, yy + 3.0, REFUSAL_WORDS[name], cls="code")
    return y + 2 + CODE_H * max(len(status_key()), len(overlay.KIND_NAMES))


def _nth(n):
    return "%d%s" % (n, {1: "st", 2: "nd", 3: "rd"}.get(n if n < 20 else n % 10, "th"))


def _lift(c):
    """An LED colour as it looks lit (dim LEDs lifted, as on a screen)."""
    return tuple(int(255 * (v / 255) ** 0.5) for v in c)


def legend_sheet(norm, board, pitch=10.0, scenario="", page="a4"):
    """The legend on a ``page`` (key of PAGES) as a :class:`Sheet`; raises ValueError with
    one line when it does not fit inside the page's margins at this ``pitch`` (mm between
    LED centres)."""
    from referee import rules

    rs = rules.get(norm["ruleset"])
    pw, ph = PAGES[page]
    width = min(pw, PAGES["a4"][0]) - 2 * MARGIN  # the same legend on A4 and Letter
    sheet = Sheet(pw, ph)
    _head(sheet, norm, rs, scenario, pitch, MARGIN, width)
    top = MARGIN + 14
    _strips(sheet, norm, board, rs, pitch, MARGIN, top, width)
    y = _keys(sheet, board, rs, MARGIN, top + board["grid"]["h"] * pitch + 6, width)
    end = _codes(sheet, MARGIN, y + 5, width)
    if end > ph - MARGIN:
        raise ValueError(
            "at --pitch %g mm the legend is %.0f mm tall; the %s page holds %.0f mm "
            "inside its margins: choose a smaller --pitch or a larger --page"
            % (pitch, end - MARGIN, PAGE_NAMES[page], ph - 2 * MARGIN)
        )
    return sheet


REFUSAL_WORDS = {
    "rule": "red: the rules forbid it",
    "phase": "yellow: not in this phase",
    "order": "white: not this side's or ship's turn",
    "nothing": "blue: nothing to take back",
    "journal": "magenta: flash journal",
}


def add_arguments(p):
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--roster", help="roster file (.json or .toml)")
    g.add_argument("--scenario", help="a scenario of firmware/rosters (e.g. hoth)")
    p.add_argument("--board", default=paths.DEFAULT_BOARD, help="board profile in boards/")
    p.add_argument(
        "--pitch",
        type=finite_number(0, 1000, above=True),
        default=10.0,
        help="LED pitch of the panel in mm (default 10: a 160 mm 16x16 panel)",
    )
    p.add_argument(
        "--page",
        choices=sorted(PAGES),
        default="a4",
        help="paper size, 10 mm margins (default a4; letter fits the same legend)",
    )
    p.add_argument(
        "--pdf",
        action="store_true",
        help="write PDF (default name: <name>-legend.pdf); a file name ending in .pdf does too",
    )
    p.add_argument("--out", help="output file, .svg or .pdf (default: <name>-legend.svg)")


def _load(args):
    """(norm, label) of the roster or scenario ``args`` name; raises ValueError (one line)."""
    from host_tools import names
    from referee import scenarios

    try:
        names.check_board(args.board)
        if args.scenario:
            names.check_scenario(args.scenario)
            text = scenarios.read(args.scenario, paths.ROSTERS)
            label = args.scenario
        else:
            names.check_roster_file(args.roster)
            text = paths.load_roster_file(args.roster)
            label = os.path.splitext(os.path.basename(args.roster))[0]
        return scenarios.load_text(text)[0], label
    except names.NameError_ as e:
        raise ValueError(str(e))


def _out_name(args, label):
    """The file to write and whether it is PDF; raises ValueError (one line)."""
    out = args.out or label + ("-legend.pdf" if args.pdf else "-legend.svg")
    ext = os.path.splitext(out)[1].lower()
    if ext not in (".svg", ".pdf"):
        raise ValueError("writes SVG or PDF: name the file .svg or .pdf")
    if args.pdf and ext != ".pdf":
        raise ValueError("--pdf writes PDF: name the file .pdf (or leave out --out)")
    return out, ext == ".pdf"


def main(args):
    try:
        norm, label = _load(args)
        board = paths.board_profile(args.board)
        if board.get("ui") == "keypad":
            raise ValueError(
                "the keypad base shows ships on its keys (12 a page); the legend "
                "is for grid boards"
            )
        if not 2.0 <= args.pitch <= 50.0:
            raise ValueError("--pitch is the LED spacing in mm, 2..50")
        out, pdf = _out_name(args, label)
        sheet = legend_sheet(norm, board, args.pitch, label, args.page)
    except ValueError as e:
        print("fleetref legend: %s" % e, file=sys.stderr)
        return 2
    try:
        if pdf:
            write_pdf(sheet, out)
        else:
            with open(out, "w") as f:
                f.write(svg_text(sheet))
    except OSError as e:
        print("fleetref legend: cannot write %s: %s" % (out, e), file=sys.stderr)
        return 2
    print(
        "wrote %s: print it at 100 %% on %s paper, cut the strips apart and lay them along "
        "the panel's edges (rows %g mm apart)" % (out, PAGE_NAMES[args.page], args.pitch)
    )
    return 0
