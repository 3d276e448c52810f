"""docs/build.md and its pictures, generated from the board profiles (boards/*.json) and the
rulesets' pad labels: the wiring diagram (schemdraw), the bill of materials, the power
budget from the profile's current limit, and a key map per board and ruleset. Run by
``fleetref pictures``; tests/test_build_guide.py checks the committed files are current.
No figure in the guide is typed by hand."""

import os

from host_tools import buildguide_image, paths

# Raspberry Pi Pico: GPIO number -> physical pin (Pico datasheet, "Pinout")
GP_PIN = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15,
          12: 16, 13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27,
          22: 29, 26: 31, 27: 32, 28: 34}
VBUS_PIN, GND_PIN, V3_PIN = 40, 38, 36
WS2812_MA_PER_LED = 60        # WS2812B datasheet: about 20 mA per colour channel at full
USB2_MA = 500                 # what a USB 2.0 port promises


def wiring_svg(board):
    """The default board's wiring as SVG text (schemdraw), pins from ``board``."""
    import schemdraw
    import schemdraw.elements as elm
    schemdraw.use("svg")
    disp = board["display"]
    rows, cols = board["input"]["rows"], board["input"]["cols"]
    w, h = board["grid"]["w"], board["grid"]["h"]
    pins = [elm.IcPin(name="GP%d" % disp["pin"], pin=str(GP_PIN[disp["pin"]]), side="right"),
            elm.IcPin(name="VBUS", pin=str(VBUS_PIN), side="right"),
            elm.IcPin(name="GND", pin=str(GND_PIN), side="right"),
            elm.IcPin(name="3V3", pin=str(V3_PIN), side="right")]
    for k, p in enumerate(rows):
        pins.append(elm.IcPin(name="row%d GP%d" % (k, p), pin=str(GP_PIN[p]), side="left"))
    for k, p in enumerate(cols):
        pins.append(elm.IcPin(name="col%d GP%d" % (k, p), pin=str(GP_PIN[p]), side="left"))
    with schemdraw.Drawing(show=False) as d:
        d.config(fontsize=11)
        pico = elm.Ic(pins=pins, edgepadW=2.2, pinspacing=0.9, label="Raspberry Pi Pico")
        d += pico
        # data: GPIO -> 74AHCT125 (3.3 V in, 5 V out) -> 330 ohm -> DIN
        d += elm.Line().right().at(pico["GP%d" % disp["pin"]]).length(1.2)
        shifter = elm.Ic(pins=[elm.IcPin(name="1A", side="left"),
                               elm.IcPin(name="1Y", side="right"),
                               elm.IcPin(name="VCC 5V", side="top"),
                               elm.IcPin(name="1OE GND", side="bottom")],
                         edgepadW=1.4, label="74AHCT125").anchor("1A")
        d += shifter
        d += elm.Resistor().right().at(shifter["1Y"]).label("330 Ω")
        panel = elm.Ic(pins=[elm.IcPin(name="DIN", side="left"),
                             elm.IcPin(name="5V", side="bottom"),
                             elm.IcPin(name="GND", side="bottom")],
                       edgepadW=2.4, edgepadH=0.6, pinspacing=1.6,
                       label="%dx%d WS2812B\n(DIN at the\ntop-left LED)" % (w, h)
                       ).anchor("DIN")
        d += panel
        d += elm.Line().down().at(panel["5V"]).length(1.0).dot()
        top = d.here
        d += elm.Capacitor(polar=True).down().label("1000 µF", loc="bottom").length(1.5)
        d += elm.Ground()
        d += elm.Line().at(top).left().length(1.5)
        d += elm.Label().label("5 V from VBUS", loc="left")
        d += elm.Line().down().at(panel["GND"]).length(2.5)
        d += elm.Ground()
        d += elm.Line().up().at(shifter["VCC 5V"]).length(0.6)
        d += elm.Label().label("5 V (VBUS)", loc="top")
        d += elm.Line().down().at(shifter["1OE GND"]).length(0.6)
        d += elm.Ground()
        # one key of the matrix: row -> switch -> diode (band toward the column) -> column
        d += elm.Line().left().at(pico["row0 GP%d" % rows[0]]).length(1.5)
        d += elm.Switch().left().label("key (r, c)")
        d += elm.Diode().left().label("1N4148\nband → column", loc="bottom")
        d += elm.Line().left().length(0.5)
        d += elm.Label().label("to col c (×16 keys)", loc="left")
    return d.get_imagedata("svg").decode()


def keymap_svg(board, ruleset, mode=None):
    """A key-map picture (SVG text): the 4x4 pad of ``board`` with what each key does in
    ``ruleset`` (short press above, held below). ``mode``: for the keypad base, "ships" or
    "actions"."""
    from referee import rules
    from referee.keymap import KeyMap
    from referee.app import ACTIONS
    rs = rules.get(ruleset)

    class G:                      # pad_label reads the game only for option names
        nopt = len(rs.options)
        profile = rs

    cw, ch = 150, 62
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="sans-serif">' % (4 * cw + 20, 4 * ch + 50),
           '<rect width="100%" height="100%" fill="#f5f5f5"/>',
           '<text x="10" y="22" font-size="15" font-weight="bold">%s: %s%s</text>'
           % (board["name"], ruleset, " (%s mode)" % mode if mode else "")]
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
        out.append('<rect x="%d" y="%d" width="%d" height="%d" rx="8" fill="white" '
                   'stroke="#333"/>' % (x, y, cw - 8, ch - 8))
        out.append('<text x="%d" y="%d" font-size="9" fill="#888">K%d</text>' % (x + 5, y + 12, i))
        out.append('<text x="%d" y="%d" font-size="14" text-anchor="middle">%s</text>'
                   % (x + (cw - 8) // 2, y + 27, _esc(s)))
        if lg:
            out.append('<text x="%d" y="%d" font-size="11" fill="#555" text-anchor="middle">'
                       '%s</text>' % (x + (cw - 8) // 2, y + 44, _esc(lg)))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def keypad_labels(rs, G, mode):
    """(short, held) labels of the keypad base's 16 keys (firmware/referee/keypad_ui.py)."""
    from referee.keypad_ui import ACTION_KEYS
    fixed = {12: ("actions" if mode == "ships" else "ships", "held: scenario menu"),
             13: ("next phase", "held: roll"), 14: ("undo", ""),
             15: ("next page" if mode == "ships" else "next ship", "held: numbers mode")}
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
            out.append((s, lg))
    return out


def _esc(t):
    return t.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def power_rows(board):
    """Rows (label, value) of the power budget, from the profile's current limit."""
    d = board["display"]
    n = board["grid"]["w"] * board["grid"]["h"]
    full = n * 3 * d.get("ma_per_channel", 20)
    budget = d.get("budget_ma", 400)
    return [("LEDs", "%d" % n),
            ("all LEDs full white (3 channels × %d mA each)" % d.get("ma_per_channel", 20),
             "%.1f A" % (full / 1000.0)),
            ("software limit for the LEDs (profile display.budget_ma)", "%d mA" % budget),
            ("so a frame is scaled to at most", "%.1f %% of full white" % (100.0 * budget / full)),
            ("Pico itself (about)", "25 mA"),
            ("total from USB at the limit", "%d mA of the %d mA a USB 2.0 port gives"
             % (budget + 25, USB2_MA))]


GUIDE = """# Build guide

<!-- written by `fleetref pictures` (host_tools/buildguide.py) from boards/*.json: do not edit
     by hand; tests/test_build_guide.py checks it is current -->

Two boards run the same firmware. The **Pimoroni Pico RGB Keypad Base** needs no soldering;
the **default board** ({title}) is a panel, a key matrix and a Pico on a strip of
perfboard. Either one works without a laptop once flashed.

## The default board: {name}

![wiring](wiring-{name}.svg)

The diagram is drawn from `boards/{name}.json` (`display.pin`, `input.rows`,
`input.cols`): change the pins there and run `fleetref pictures` again.

### Bill of materials

| qty | part | note |
|---|---|---|
| 1 | Raspberry Pi Pico (RP2040; Pico H has headers) | flashed with fleetref's image (below) |
| 1 | {w}×{h} WS2812B LED panel ({wiring}) | {n} LEDs, 5 V |
| 1 | 74AHCT125 (or 74HCT125) quad buffer, DIP-14 | 3.3 V data in, 5 V data out |
| 1 | 330 Ω resistor | in the data line, close to the panel's DIN |
| 1 | 1000 µF 10 V electrolytic capacitor | across the panel's 5 V and GND, minus to GND |
| {keys} | 6×6 mm tactile switches | the {kr}×{kc} button pad |
| {keys} | 1N4148 diodes | one per key, so any keys may be held together |
| 1 | USB cable (data, not charge-only) and a 5 V supply of at least {supply} mA | |
| - | perfboard, wire, headers | |

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
  thick wires; the capacitor sits at the panel's power input.

### Power budget

The firmware scales every frame so that the LEDs draw at most the profile's limit
(`display.budget_ma`, `drivers/ws2812.py`):

| | |
|---|---|
{power_rows}

To go brighter, power the panel from a 5 V supply rated for it (and join its GND to the
Pico's), then raise `budget_ma` in the profile.

## The Pimoroni Pico RGB Keypad Base

Plug the Pico in (USB end at the base's USB mark). Nothing else to wire:

| signal | Pico pin |
|---|---|
{keypad_rows}

## Key maps

What each key does depends on the ruleset of the game loaded (held keys below the name).

{keymaps}

{image_sections}"""


def guide_text():
    board = paths.board_profile()
    kp = paths.board_profile("pimoroni-rgb-keypad")
    from referee import rules
    disp, inp = board["display"], board["input"]
    pin_rows = ["| WS2812 data (through the 74AHCT125 and 330 Ω) | GP%d (pin %d) |"
                % (disp["pin"], GP_PIN[disp["pin"]]),
                "| panel and 74AHCT125 5 V / GND | VBUS (pin %d) / GND (pin %d) |"
                % (VBUS_PIN, GND_PIN)]
    pin_rows += ["| key matrix row %d (driven) | GP%d (pin %d) |" % (k, p, GP_PIN[p])
                 for k, p in enumerate(inp["rows"])]
    pin_rows += ["| key matrix column %d (read, pull-down) | GP%d (pin %d) |" % (k, p, GP_PIN[p])
                 for k, p in enumerate(inp["cols"])]
    kd, ki = kp["display"], kp["input"]
    keypad_rows = ["| TCA9555 keys: I2C%d SDA / SCL (address 0x%02X) | GP%d / GP%d |"
                   % (ki.get("i2c", 0), ki.get("addr", 32), ki["sda"], ki["scl"]),
                   "| APA102 LEDs: SPI%d SCK / MOSI | GP%d / GP%d |"
                   % (kd.get("spi", 0), kd["sck"], kd["mosi"]),
                   "| APA102 chip select | GP%d |" % kd["cs"]]
    km = []
    for name in sorted(rules.RULESETS):
        km.append("- %s: ![%s on %s](keymap-%s-%s.svg)" % (name, name, board["name"],
                                                           board["name"], name))
    km.append("- keypad base, ships mode (any ruleset): ![ships mode](keymap-%s-ships.svg)"
              % kp["name"])
    for name in sorted(rules.RULESETS):
        km.append("- keypad base, actions mode, %s: ![%s actions](keymap-%s-%s.svg)"
                  % (name, name, kp["name"], name))
    n = board["grid"]["w"] * board["grid"]["h"]
    keys = len(inp["rows"]) * len(inp["cols"])
    return GUIDE.format(title=board.get("title", board["name"]), name=board["name"],
                        w=board["grid"]["w"], h=board["grid"]["h"], n=n,
                        wiring=board["grid"].get("wiring", "rows"), keys=keys,
                        kr=len(inp["rows"]), kc=len(inp["cols"]),
                        supply=disp.get("budget_ma", 400) + 100,
                        pin_rows="\n".join(pin_rows), vbus=VBUS_PIN, gnd=GND_PIN,
                        power_rows="\n".join("| %s | %s |" % r for r in power_rows(board)),
                        keypad_rows="\n".join(keypad_rows), keymaps="\n".join(km),
                        image_sections=buildguide_image.sections(board["name"]).rstrip("\n"))


def files():
    """{file name in docs/: text} of the whole guide."""
    from referee import rules
    board = paths.board_profile()
    kp = paths.board_profile("pimoroni-rgb-keypad")
    out = {"build.md": guide_text(),
           "wiring-%s.svg" % board["name"]: wiring_svg(board),
           "keymap-%s-ships.svg" % kp["name"]: keymap_svg(kp, "swsb", "ships")}
    for name in sorted(rules.RULESETS):
        out["keymap-%s-%s.svg" % (board["name"], name)] = keymap_svg(board, name)
        out["keymap-%s-%s.svg" % (kp["name"], name)] = keymap_svg(kp, name, "actions")
    return out


def write(out_dir):
    """Write the guide's files into ``out_dir``; returns their names."""
    fs = files()
    for name, text in fs.items():
        with open(os.path.join(out_dir, name), "w") as f:
            f.write(text)
    return sorted(fs)
