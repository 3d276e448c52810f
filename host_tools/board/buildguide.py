"""docs/build.md and its pictures, generated from the board profiles (boards/*.json) and the
rulesets' pad labels: the wiring diagram (buildguide_wiring.py), the bill of materials and
the power budget (buildguide_power.py), and a key map per board and ruleset. Run by
``fleetref pictures``; tests/host/test_build_guide.py checks the committed files are current.
No figure in the guide is typed by hand."""

import os

from host_tools.board import buildguide_boards, buildguide_image
from host_tools.board.buildguide_power import (
    WS2812B_DATASHEET,
    WS2812B_STATIC_MA,
    parts_table,
    power_rows,
)
from host_tools.board.buildguide_wiring import GND_PIN, GP_PIN, VBUS_PIN, wiring_svg  # noqa: F401


def label_game(rs):
    """What a ruleset's ``pad_label`` reads of a game, for ruleset ``rs`` (a
    rules.base.Ruleset) without one: its fleet command options only (pictures of the pad)."""

    class LabelGame:
        option_count = len(rs.options)
        rules = rs

    return LabelGame


def keymap_svg(board, ruleset, mode=None):
    """A key-map picture (SVG text): the 4x4 pad of ``board`` with what each key does in
    ``ruleset`` (short press above, held below). ``mode``: for the keypad base, "ships",
    "actions" or "menu" (the scenario menu: the same in every ruleset)."""
    from referee import rules
    from referee.keymap import KeyMap
    from referee.app import ACTIONS

    rs = rules.get(ruleset)
    G = label_game(rs)
    cw, ch = 150, 62
    out = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
        'font-family="sans-serif">' % (4 * cw + 20, 4 * ch + 50),
        '<rect width="100%" height="100%" fill="#f5f5f5"/>',
        '<text x="10" y="22" font-size="15" font-weight="bold">%s: %s%s</text>'
        % (
            board["name"],
            "scenario menu" if mode == "menu" else ruleset,
            " (%s mode)" % mode if mode and mode != "menu" else "",
        ),
    ]
    if board.get("ui") == "keypad":
        labels = keypad_labels(rs, G, mode)
    else:
        km = KeyMap(board, ACTIONS)
        labels = []
        for i in range(16):
            s = rs.pad_label(G, km.action(i, False))
            lg = rs.pad_label(G, km.action(i, True))
            labels.append((s, "" if lg == s else "held: " + lg))
    for i, (s, lg) in enumerate(labels):
        x, y = 10 + (i % 4) * cw, 34 + (i // 4) * ch
        out.append(
            '<rect x="%d" y="%d" width="%d" height="%d" rx="8" fill="white" '
            'stroke="#333"/>' % (x, y, cw - 8, ch - 8)
        )
        out.append('<text x="%d" y="%d" font-size="9" fill="#888">K%d</text>' % (x + 5, y + 12, i))
        out.append(
            '<text x="%d" y="%d" font-size="14" text-anchor="middle">%s</text>'
            % (x + (cw - 8) // 2, y + 27, _esc(s))
        )
        if lg:
            out.append(
                '<text x="%d" y="%d" font-size="11" fill="#555" text-anchor="middle">'
                "%s</text>" % (x + (cw - 8) // 2, y + 44, _esc(lg))
            )
    out.append("</svg>")
    return "\n".join(out) + "\n"


# The scenario menu's keys 12-15 (keypad_ui.MENU_ACTIONS) as the key map shows them.
MENU_LABELS = {
    "menu": ("leave menu", ""),
    "enter": ("load", "twice over a game"),
    "undo": ("leave menu", ""),
    "sel+": ("next entry", ""),
}


def menu_labels():
    """(label, second line) of the keypad base's 16 keys while the scenario menu is open
    (firmware/referee/keypad_ui.py, menu.py): keys 0-11 its entries, 12-15 MENU_ACTIONS."""
    from referee.keypad_ui import MENU_ACTIONS, PER_PAGE

    entries = [("entry %d" % (k + 1), "choose it") for k in range(PER_PAGE)]
    return entries + [MENU_LABELS[a] for a in MENU_ACTIONS]


def keypad_labels(rs, G, mode):
    """(short, held) labels of the keypad base's 16 keys (firmware/referee/keypad_ui.py) in
    ``mode``: "ships", "actions" or "menu" (the scenario menu)."""
    from referee.keypad_ui import ACTION_KEYS

    if mode == "menu":
        return menu_labels()
    fixed = {
        12: ("actions" if mode == "ships" else "ships", "held: scenario menu"),
        13: ("next phase", "held: roll"),
        14: ("undo", ""),
        15: ("next page" if mode == "ships" else "next ship", "held: numbers mode"),
    }
    out = []
    for k in range(16):
        if k in fixed:
            out.append(fixed[k])
        elif mode == "ships":
            out.append(("ship %d" % k, "held: mark it"))
        else:
            a = ACTION_KEYS[k]
            s = rs.pad_label(G, a)
            lg = ""
            if a.startswith("opt"):
                lg = "held: " + rs.pad_label(G, "alt" + a[3])
            elif a == "enter":
                lg = "held: cancel"
            elif a == "roll":
                lg = "held: reveal dice"
            elif a == "side":
                lg = "held: clock"
            out.append((s, lg))
    return out


def _esc(t):
    return t.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


GUIDE = """# Build guide

<!-- written by `fleetref pictures` (host_tools/board/buildguide.py) from boards/*.json: do not edit
     by hand; tests/host/test_build_guide.py checks it is current -->

{count} boards run the same firmware. The **Pimoroni Pico RGB Keypad Base** needs no soldering;
the **default board** ({title}) is a panel, a key matrix and a Pico on a strip of
perfboard. Either one works without a laptop once flashed.

## The default board: {name}

![wiring](wiring-{name}.svg)

The diagram is drawn from `boards/{name}.json` (`display.pin`, `input.rows`,
`input.cols`): change the pins there and run `fleetref pictures` again.

### Bill of materials

{parts}

### Cautions

- **Not a Pico 2.** A Pico 2 (RP2350) is not supported: fleetref's image is MicroPython built
  for the RP2040 (the RPI_PICO board), and the WS2812 driver's PIO program and its viper
  code are written for the RP2040. Use a Raspberry Pi Pico or Pico H.
- **Inrush.** A large capacitor is empty when power comes on and charges with a surge far
  above what a USB port allows a device at plug-in (USB 2.0 allows 10 µF across VBUS): on the
  Pico's VBUS, 1000 µF can make the port cut out or reset the Pico. Put it on the LED 5 V
  rail fed by a separate 5 V supply (its GND joined to the Pico's), at the panel's power
  input. A panel fed from VBUS goes without it, or gets a soft-start between VBUS and the
  capacitor (a load switch that ramps the 5 V up over a few milliseconds).

### Wiring

| signal | Pico pin |
|---|---|
{pin_rows}

- **Level shifting.** The Pico drives its pins at 3.3 V; a WS2812B at 5 V wants at least
  0.7 × 5 V = 3.5 V for a high. It often works without, and fails with a warm panel or a long
  wire: feed the data through one gate of a 74AHCT125 powered from 5 V (VBUS), its output
  enable (1OE) to GND, the three other gates' inputs to GND.
- **Data-in corner.** The firmware's LED 0 is grid pixel (0, 0), the **top-left** corner
  seen from the front; row 0 runs left to right, row 1 right to left and so on
  ({wiring} wiring, `grid.wiring` in the profile). Mount the panel with its DIN arrow
  at the top left; a panel wired row by row instead sets `"wiring": "rows"`.
- **Diodes.** Rows are driven high one at a time and columns read with pull-downs, so current
  flows row → switch → diode → column: the diode's **band (cathode) faces the column** wire.
- **Power.** The panel takes 5 V from VBUS (pin {vbus}) and GND (pin {gnd}) through short,
  thick wires. The 1000 µF capacitor belongs only to a panel on its own 5 V supply (Inrush,
  above).

### Power budget

The firmware scales every frame so that the panel draws at most the profile's limit
(`display.budget_ma`, `drivers/ws2812.py`). A dark WS2812B still draws current: its
control IC's static current, {static} mA per LED in the {datasheet}.
The profile counts it as `display.idle_ma` in whole milliamps ({idle} mA: the firmware's
arithmetic is in integers). The limit includes it, so the colours get what the dark LEDs
leave:

| | |
|---|---|
{power_rows}

To go brighter, power the panel from a separate 5 V supply rated for it (and join its GND
to the Pico's; the 1000 µF capacitor goes across that supply), then raise `budget_ma` in the
profile: the supply must give at least the new `budget_ma`, dark LEDs included.

{board_sections}## Key maps

What each key does depends on the ruleset of the game loaded (held keys below the name).

{keymaps}

{keypad_menu}{image_sections}"""


KEYPAD_MENU = """On the keypad base, holding key 12 in any mode opens the scenario menu, which takes all 16
keys: keys 0-11 are its entries (12 a page; a press chooses one, shown white), key 13 loads
the chosen scenario (over a game in play the first press arms it, red, and a second press of
key 13 loads it; the game replaced is the menu's "previous game"), key 14 or key 12 leaves the
menu with the game as it was, and key 15 chooses the next entry.

"""


def guide_text(boards=None):
    """docs/build.md (Markdown) for the board profiles ``boards`` (default: boards/, the
    default board first; buildguide_boards.guide_boards)."""
    from referee import rules

    boards = boards or buildguide_boards.guide_boards()
    board, others = boards[0], boards[1:]
    rulesets = sorted(rules.RULESETS)
    km = []
    for b in boards:
        km += buildguide_boards.keymap_lines(b, boards, rulesets)
    return GUIDE.format(
        count=buildguide_boards.count_word(len(boards)),
        title=board.get("title", board["name"]),
        name=board["name"],
        wiring=board["grid"].get("wiring", "rows"),
        parts=parts_table(board),
        datasheet=WS2812B_DATASHEET,
        static=WS2812B_STATIC_MA,
        idle=board["display"].get("idle_ma", 0),
        pin_rows="\n".join(buildguide_boards.panel_pin_rows(board)),
        vbus=VBUS_PIN,
        gnd=GND_PIN,
        power_rows="\n".join("| %s | %s |" % r for r in power_rows(board)),
        board_sections="".join(buildguide_boards.board_section(b, boards) for b in others),
        keymaps="\n".join(km),
        keypad_menu=KEYPAD_MENU if any(b.get("ui") == "keypad" for b in boards) else "",
        image_sections=buildguide_image.sections(
            board["name"], [b["name"] for b in others]
        ).rstrip("\n"),
    )


def files(boards=None):
    """{file name in docs/: text} of the whole guide, for the board profiles ``boards``
    (default: boards/): build.md, each panel board's wiring and every board's key maps."""
    from referee import rules

    boards = boards or buildguide_boards.guide_boards()
    rulesets = sorted(rules.RULESETS)
    out = {"build.md": guide_text(boards)}
    for board in boards:
        if buildguide_boards.has_wiring(board):
            out["wiring-%s.svg" % board["name"]] = wiring_svg(board)
        for name, ruleset, mode in buildguide_boards.keymap_pictures(board, rulesets):
            out[name] = keymap_svg(board, ruleset, mode)
    return out


def write(out_dir, boards=None):
    """Write the guide's files for ``boards`` (default: boards/) into ``out_dir``; returns
    their names."""
    fs = files(boards)
    for name, text in fs.items():
        with open(os.path.join(out_dir, name), "w") as f:
            f.write(text)
    return sorted(fs)
