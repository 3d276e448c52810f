"""The build guide's part of each board profile (boards/*.json): which section, pin table and
key-map pictures a board gets, chosen from its profile alone (its ``ui`` and its
``display.driver`` / ``input.driver``), so a new profile needs no code here. The default
board (``DEFAULT_BOARD``) gets the guide's long section (buildguide.py's ``GUIDE``)."""

from host_tools import DEFAULT_BOARD, paths
from host_tools.board.buildguide_power import parts_table, power_rows
from host_tools.board.buildguide_wiring import GND_PIN, GP_PIN, VBUS_PIN

# "Two boards run the same firmware": the count of profiles as a word
COUNT_WORDS = ("No", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine")

KEYPAD_SECTION = """## The Pimoroni Pico RGB Keypad Base{suffix}

Plug the Pico in (USB end at the base's USB mark). Nothing else to wire:

| signal | Pico pin |
|---|---|
{rows}

"""

PANEL_SECTION = """## {name}

{title}: wired as the default board, with the pins of `boards/{name}.json`.

![wiring](wiring-{name}.svg)

| signal | Pico pin |
|---|---|
{rows}

### Bill of materials

{parts}

### Power budget

| | |
|---|---|
{power_rows}

"""

WIFI_SECTION = """### Wi-Fi

`boards/{name}.json` has a `network` section (driver `{driver}`): the board joins a Wi-Fi
network in the background while it referees: keys and frames never wait for it, but for
the chip's power-up (a few hundred ms, once, when it first has credentials). Flash it
as any board (`fleetref flash --board {name}`: the Pico W's own image, RPI_PICO_W), then
give it the network's name and password over USB:

    .venv/bin/fleetref wifi set --ssid NETWORK --port /dev/ttyACM0

The password is asked without showing it (or read from stdin when that is not a terminal).
The board keeps both in `{settings}` on its flash, apart from the game journal, and never
sends the password back; `fleetref flash` over USB keeps them, a one-file UF2 replaces the
whole filesystem (set them again after it). `fleetref wifi status --port /dev/ttyACM0` says
the state, the network and the board's address. On the grid, row 1's last pixel is the link: dim magenta
off (no credentials, or no Wi-Fi chip answered), dim yellow joining, dim green up, dim red
down (it tries again after 1 s, then 2, 4, up to 60 s). Holding undo shows the address, one
number per press (four presses, a fifth returns to the game), or says "no network".
The Wi-Fi chip draws current on top of the Pico's 25 mA while it sends; the 500 mA supply
above leaves it 75 mA.

The profile names the network services the board runs once it is up: {services}.

### At a club night: no laptop at the tables

One laptop runs the broker and the organiser's dashboard; every table has only its board.

1. On the broker laptop: `fleetref tournament init --tables N --dir cup/ --event NAME`
   writes Mosquitto's password file, access list and configuration, one user per table
   (docs/mqtt.md section 3). Add a listener on the room's network beside the generated one
   (`listener 1883 0.0.0.0`), start Mosquitto with that configuration, and open
   `fleetref dashboard --broker mqtt://127.0.0.1:1883 --event NAME` (docs/mqtt.md).
2. For each table's board, once, over USB:
   `fleetref wifi set --ssid NETWORK --port /dev/ttyACM0` (the network), then
   `fleetref tournament board --dir cup/ --table table-01 --broker mqtt://LAPTOP-IP:1883
   --event NAME --port /dev/ttyACM0` (its broker, user and password: `/mqtt.json`, never
   printed; docs/mqtt.md section 5).
3. Unplug it, power it from any 5 V supply at the table: it joins, publishes every event
   to the broker (the same topics and messages as `fleetref publish`) and the table
   appears on the dashboard.
4. A player or spectator opens `http://BOARD-IP/` on a phone on the same network (hold
   undo on the board to read its address): the spectator page, read-only, updated every
   2 s (docs/board-page.md).

### When the network is bad

The board referees as if it had no network: keys, frames and the journal never wait on
the Wi-Fi, the broker or a phone (docs/performance.md: key to `ev` line with the broker
down, hanging, or the Wi-Fi down or flapping). A lost link shows on the link pixel (dim
red) and the board joins again after 1, 2, 4... up to 60 s. The publisher sends nothing
while the link is down and, once the broker answers again, sends every event after the
newest one the broker acknowledged, from the board's RAM window or its journal, so the
broker ends with each event once per seq; the dashboard marks the table offline meanwhile
(the board's will). A new game loaded while the board is offline starts afresh: the old
game's events the broker had not acknowledged are not sent. The page serves at most 4
phones at once, the rest get "busy, try again". What was not tried on real hardware:
docs/mqtt.md section 5 lists it.

"""

OTHER_SECTION = """## {name}

{title}: `display.driver` {display}, `input.driver` {input}; its profile is
`boards/{name}.json`:

| setting | value |
|---|---|
{rows}

"""


def guide_boards():
    """The board profiles (dicts) of boards/, the default board first, then by name."""
    names = paths.board_names()
    order = [n for n in names if n == DEFAULT_BOARD] + [n for n in names if n != DEFAULT_BOARD]
    return [paths.board_profile(n) for n in order]


def count_word(n):
    """``n`` boards as the guide's first sentence says it ("Two", or the digits)."""
    return COUNT_WORDS[n] if n < len(COUNT_WORDS) else str(n)


def drivers(board):
    """(display driver, input driver) named by ``board``'s profile."""
    return board["display"]["driver"], board["input"]["driver"]


def panel_pin_rows(board):
    """The pin table's rows of a WS2812 panel and key matrix (``board``'s pins)."""
    disp, inp = board["display"], board["input"]
    rows = [
        "| WS2812 data (through the 74AHCT125 and 330 Ω) | GP%d (pin %d) |"
        % (disp["pin"], GP_PIN[disp["pin"]]),
        "| panel and 74AHCT125 5 V / GND | VBUS (pin %d) / GND (pin %d) |" % (VBUS_PIN, GND_PIN),
    ]
    rows += [
        "| key matrix row %d (driven) | GP%d (pin %d) |" % (k, p, GP_PIN[p])
        for k, p in enumerate(inp["rows"])
    ]
    rows += [
        "| key matrix column %d (read, pull-down) | GP%d (pin %d) |" % (k, p, GP_PIN[p])
        for k, p in enumerate(inp["cols"])
    ]
    return rows


def keypad_pin_rows(board):
    """The pin table's rows of an APA102 + TCA9555 keypad base (``board``'s pins)."""
    kd, ki = board["display"], board["input"]
    return [
        "| TCA9555 keys: I2C%d SDA / SCL (address 0x%02X) | GP%d / GP%d |"
        % (ki.get("i2c", 0), ki.get("addr", 32), ki["sda"], ki["scl"]),
        "| APA102 LEDs: SPI%d SCK / MOSI | GP%d / GP%d |"
        % (kd.get("spi", 0), kd["sck"], kd["mosi"]),
        "| APA102 chip select | GP%d |" % kd["cs"],
    ]


def has_wiring(board):
    """True when the guide draws ``board``'s wiring (a WS2812 panel and a key matrix)."""
    return drivers(board) == ("ws2812", "matrix")


def keypad_section(board, boards):
    """The section of an APA102 + TCA9555 keypad base; named when several profiles are one."""
    same = [b["name"] for b in boards if drivers(b) == drivers(board)]
    suffix = "" if same == [board["name"]] else " (`%s`)" % board["name"]
    return KEYPAD_SECTION.format(suffix=suffix, rows="\n".join(keypad_pin_rows(board)))


def panel_section(board, boards):
    """The section of a WS2812 panel and key matrix that is not the default board (with its
    Wi-Fi set-up when its profile has a ``network`` section)."""
    return PANEL_SECTION.format(
        name=board["name"],
        title=board.get("title", board["name"]),
        rows="\n".join(panel_pin_rows(board)),
        parts=parts_table(board),
        power_rows="\n".join("| %s | %s |" % r for r in power_rows(board)),
    ) + wifi_section(board)


# what each network service a profile may name is, for the guide
SERVICE_WORDS = {
    "mqtt": "publishes the game to the tournament broker, docs/mqtt.md section 5",
    "page": "the spectator page on port 80, docs/board-page.md",
}


def wifi_section(board):
    """How a board with a ``network`` section gets on the Wi-Fi ("" without one)."""
    net = board.get("network")
    if net is None:
        return ""
    return WIFI_SECTION.format(
        name=board["name"],
        driver=net.get("driver"),
        settings=net.get("settings", "/wifi.json"),
        services=", ".join(
            "`%s` (%s)" % (name, SERVICE_WORDS.get(name, "docs/mqtt.md"))
            for name in net.get("services", ())
        )
        or "none",
    )


def other_section(board, boards):
    """The section of a board of other drivers: its display and input settings as a table."""
    rows = [
        "| `%s.%s` | %s |" % (part, key, value)
        for part in ("display", "input")
        for key, value in sorted(board[part].items())
    ]
    display, input_driver = drivers(board)
    return OTHER_SECTION.format(
        name=board["name"],
        title=board.get("title", board["name"]),
        display=display,
        input=input_driver,
        rows="\n".join(rows),
    )


# (display driver, input driver) -> the section's function; any other pair: other_section
SECTIONS = ((("apa102", "tca9555"), keypad_section), (("ws2812", "matrix"), panel_section))


def board_section(board, boards):
    """The guide's section of ``board`` (not the default board), chosen by its drivers."""
    for pair, section in SECTIONS:
        if drivers(board) == pair:
            return section(board, boards)
    return other_section(board, boards)


def keymap_label(board, boards):
    """How the list of key maps names ``board``: "" for the default board, "keypad base"
    for the one keypad-UI board, else its name."""
    if board["name"] == DEFAULT_BOARD:
        return ""
    keypads = [b["name"] for b in boards if b.get("ui") == "keypad"]
    if keypads == [board["name"]]:
        return "keypad base"
    return board["name"]


def keymap_lines(board, boards, rulesets):
    """The guide's list entries of ``board``'s key-map pictures, for sorted ``rulesets``."""
    name, label = board["name"], keymap_label(board, boards)
    if board.get("ui") != "keypad":
        return [
            "- %s%s: ![%s on %s](keymap-%s-%s.svg)"
            % (label + ", " if label else "", rs, rs, name, name, rs)
            for rs in rulesets
        ]
    lines = [
        "- %s, ships mode (any ruleset): ![ships mode](keymap-%s-ships.svg)" % (label, name),
        "- %s, scenario menu (hold key 12 in any mode): ![scenario menu]"
        "(keymap-%s-menu.svg)" % (label, name),
    ]
    lines += [
        "- %s, actions mode, %s: ![%s actions](keymap-%s-%s.svg)" % (label, rs, rs, name, rs)
        for rs in rulesets
    ]
    return lines


def keymap_pictures(board, rulesets):
    """[(file name in docs/, ruleset, mode)] of ``board``'s key-map pictures (buildguide's
    ``keymap_svg`` draws each): a keypad-UI board's ships mode, scenario menu and actions
    mode per ruleset, any other board's key map per ruleset."""
    name = board["name"]
    if board.get("ui") != "keypad":
        return [("keymap-%s-%s.svg" % (name, rs), rs, None) for rs in rulesets]
    out = [
        ("keymap-%s-ships.svg" % name, "swsb", "ships"),
        ("keymap-%s-menu.svg" % name, "swsb", "menu"),
    ]
    return out + [("keymap-%s-%s.svg" % (name, rs), rs, "actions") for rs in rulesets]
