"""fleetref legend: a printable legend for the loaded roster, to lay beside the LED panel.
One line per grid row at the panel's LED pitch (1:1 when printed at 100 %), so each ship's
name, hit points and counters sit level with its row; the round, phase, refusal, chart and
dice rows are named; the key map of the roster's ruleset and the refusal colour codes follow.
Writes SVG (print it, or convert it to PDF with any SVG tool)."""

import os
import sys

from host_tools import paths

FONT = 3.2          # mm


def _esc(t):
    return (str(t).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def row_labels(norm, board, rows_per_page):
    """(grid row, left text, right text) for every row of the grid: the ships of each side by
    page (names of later pages after " / "), and the fixed rows."""
    h = board["grid"]["h"]
    out = [(0, "round in binary", "phase pips | first | initiative"),
           (1, "refusal (colour code below) / pages", "scenario menu pips")]
    ships = []
    for s in range(2):
        ships.append(norm["sides"][s]["ships"])
    for r in range(rows_per_page):
        txt = []
        for s in range(2):
            parts = []
            k = r
            while k < len(ships[s]):
                sh = ships[s][k]
                x, y = sh["hp"]
                hp = str(x) if not y else "%d/%d" % (x, y)
                parts.append("%s  %s hp%s%s" % (sh["name"], hp,
                                              ", %d cc" % sh["cc"] if sh["cc"] else "",
                                              "" if sh["launched"] else ", aboard"))
                k += rows_per_page
            txt.append(" / ".join(parts))
        out.append((2 + r, txt[0], txt[1]))
    out.append((h - 2, "fleet command chart", "fleet command chart"))
    out.append((h - 1, "last initiative roll (bar)", "last initiative roll (bar)"))
    return out


def legend_svg(norm, board, pitch=10.0, scenario=""):
    """The legend as SVG text (units: mm). ``pitch``: distance between LED centres in mm."""
    from referee import rules
    from referee.keymap import KeyMap
    from referee.app import ACTIONS
    from referee import overlay
    rs = rules.get(norm["ruleset"])
    w, h = board["grid"]["w"], board["grid"]["h"]
    rpp = h - 4
    side_w = 95.0
    top = 14.0
    gw = w * pitch
    width = side_w * 2 + gw + 10
    keys_top = top + h * pitch + 10
    height = keys_top + 4 * 12 + 12 + 6 * 6
    o = ['<svg xmlns="http://www.w3.org/2000/svg" width="%.1fmm" height="%.1fmm" '
         'viewBox="0 0 %.1f %.1f" font-family="sans-serif">' % (width, height, width, height),
         '<text x="5" y="7" font-size="5" font-weight="bold">%s</text>'
         % _esc("%s (%s)" % (scenario or norm["name"], rs.name)),
         '<text x="5" y="11.5" font-size="%.1f">%s left, %s right</text>'
         % (FONT, _esc(norm["sides"][0]["name"]), _esc(norm["sides"][1]["name"]))]
    gx = 5 + side_w
    o.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="#999" '
             'stroke-dasharray="1,1"/>' % (gx, top, gw, h * pitch))
    for row, left, right in row_labels(norm, board, rpp):
        yc = top + (row + 0.5) * pitch
        o.append('<line x1="5" y1="%.2f" x2="%.1f" y2="%.2f" stroke="#ddd" stroke-width="0.2"/>'
                 % (top + (row + 1) * pitch, width - 5, top + (row + 1) * pitch))
        o.append('<text x="%.1f" y="%.2f" font-size="%.1f" text-anchor="end" '
                 'dominant-baseline="middle" data-row="%d">%s</text>'
                 % (gx - 2, yc, FONT, row, _esc(left)))
        o.append('<text x="%.1f" y="%.2f" font-size="%.1f" dominant-baseline="middle" '
                 'data-row="%d">%s</text>' % (gx + gw + 2, yc, FONT, row, _esc(right)))
    # key map of this ruleset
    o.append('<text x="5" y="%.1f" font-size="4" font-weight="bold">keys (held below)</text>'
             % (keys_top - 2))
    if board.get("ui") != "keypad":
        km = KeyMap(board, ACTIONS)

        class G:
            nopt = len(rs.options)
            profile = rs
        cw = 46.0
        for i in range(km.n):
            x, y = 5 + (i % 4) * cw, keys_top + (i // 4) * 12
            s = rs.pad_label(G, km.action(i, False))
            lg = rs.pad_label(G, km.action(i, True))
            o.append('<rect x="%.1f" y="%.1f" width="%.1f" height="10" rx="1.5" fill="none" '
                     'stroke="#333" stroke-width="0.3"/>' % (x, y, cw - 2))
            o.append('<text x="%.1f" y="%.1f" font-size="%.1f" class="key">%s</text>'
                     % (x + 2, y + 4.2, FONT, _esc(s)))
            if lg != s:
                o.append('<text x="%.1f" y="%.1f" font-size="2.6" fill="#555" class="key">'
                         'held: %s</text>' % (x + 2, y + 8.3, _esc(lg)))
    # refusal colour codes (overlay.py)
    y = keys_top + 4 * 12 + 6
    o.append('<text x="5" y="%.1f" font-size="4" font-weight="bold">refusal codes (row 1, '
             'first 3 LEDs; the rest red)</text>' % y)
    for k, name in enumerate(overlay.KIND_NAMES):
        c = overlay.KIND_RGB[k] or (255, 0, 0)
        yy = y + 3 + 6 * k
        o.append('<rect x="5" y="%.1f" width="4" height="4" fill="rgb(%d,%d,%d)" '
                 'stroke="#333" stroke-width="0.2"/>' % (yy, c[0], c[1], c[2]))
        o.append('<text x="11" y="%.1f" font-size="%.1f" class="code">%s</text>'
                 % (yy + 3.3, FONT, _esc(REFUSAL_WORDS[name])))
    o.append("</svg>")
    return "\n".join(o) + "\n"


REFUSAL_WORDS = {"rule": "red: the rules forbid it", "phase": "yellow: not in this phase",
                 "order": "white: not this side's or ship's turn",
                 "nothing": "blue: nothing to take back", "journal": "magenta: flash journal"}


def add_arguments(p):
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--roster", help="roster file (.json or .toml)")
    g.add_argument("--scenario", help="a scenario of firmware/rosters (e.g. hoth)")
    p.add_argument("--board", default=paths.DEFAULT_BOARD, help="board profile in boards/")
    p.add_argument("--pitch", type=float, default=10.0,
                   help="LED pitch of the panel in mm (default 10: a 160 mm 16x16 panel)")
    p.add_argument("--out", help="output file (.svg; default: <name>-legend.svg)")


def main(args):
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
        norm, _ = scenarios.load_text(text)
    except (names.NameError_, ValueError) as e:
        print("fleetref legend: %s" % e, file=sys.stderr)
        return 2
    board = paths.board_profile(args.board)
    if board.get("ui") == "keypad":
        print("fleetref legend: the keypad base shows ships on its keys (12 a page); the legend "
              "is for grid boards", file=sys.stderr)
        return 2
    if not 2.0 <= args.pitch <= 50.0:
        print("fleetref legend: --pitch is the LED spacing in mm, 2..50", file=sys.stderr)
        return 2
    out = args.out or label + "-legend.svg"
    if not out.endswith(".svg"):
        print("fleetref legend: writes SVG (name the file .svg); for PDF convert the SVG, e.g. "
              "print it from a browser", file=sys.stderr)
        return 2
    try:
        with open(out, "w") as f:
            f.write(legend_svg(norm, board, args.pitch, label))
    except OSError as e:
        print("fleetref legend: cannot write %s: %s" % (out, e), file=sys.stderr)
        return 2
    print("wrote %s: print it at 100 %% and lay it beside the panel (rows %.0f mm apart)"
          % (out, args.pitch))
    return 0
