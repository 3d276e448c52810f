"""The default board's parts list and power budget, from its profile in boards/ (docs/build.md
and README.md show the same parts list; tests/host/test_maker_docs.py checks they agree and that
the budget in the guide is this computation's).

The budget follows the firmware (drivers/ws2812.py ``scale_of``): the profile's
``display.budget_ma`` is the panel's whole current, the dark LEDs' ``display.idle_ma`` each
included, so a frame's colours get what the dark LEDs leave."""

# Worldsemi WS2812B-V5 datasheet, electrical characteristics: the control IC's static current
# (every colour off) is 0.6 mA per LED. The profile's idle_ma holds whole milliamps (the
# firmware's current arithmetic is in integers), so it counts this rounded up.
WS2812B_STATIC_MA = 0.6
WS2812B_DATASHEET = "Worldsemi WS2812B-V5 datasheet"
PICO_MA = 25  # the Pico itself, about (RP2040 running, USB on)
USB2_MA = 500  # what a USB 2.0 port promises
SUPPLY_SIZES_MA = (500, 1000, 2000, 3000, 4000, 5000, 10000)  # common 5 V supply ratings


def power_budget(board):
    """The panel's current figures (mA, ints) from ``board``'s display profile: ``n`` LEDs,
    ``full`` (all white), ``idle`` (one dark LED), ``dark`` (all dark), ``budget``,
    ``colour`` (what the budget leaves for colour), ``pct`` (the brightest frame, in % of
    full white), ``leds`` (the panel at most), ``total`` (with the Pico) and ``supply`` (the
    smallest common supply rating that covers the total)."""
    d = board["display"]
    n = board["grid"]["w"] * board["grid"]["h"]
    per = d.get("ma_per_channel", 20)
    full = n * 3 * per
    idle = d.get("idle_ma", 0)
    budget = d.get("budget_ma", 400)
    dark = idle * n
    colour = max(budget - dark, 0)
    leds = max(budget, dark)  # dark LEDs draw their current even at scale 0
    total = leds + PICO_MA
    supply = min([s for s in SUPPLY_SIZES_MA if s >= total] or [SUPPLY_SIZES_MA[-1]])
    return {
        "n": n,
        "per": per,
        "full": full,
        "idle": idle,
        "dark": dark,
        "budget": budget,
        "colour": colour,
        "pct": 100.0 * colour / full,
        "leds": leds,
        "total": total,
        "supply": supply,
    }


def power_rows(board):
    """Rows (label, value) of the guide's power budget table."""
    p = power_budget(board)
    usb = (
        "a USB 2.0 port (%d mA) covers it" % USB2_MA
        if p["total"] <= USB2_MA
        else "more than a USB 2.0 port's %d mA: use a 5 V supply" % USB2_MA
    )
    return [
        ("LEDs", "%d" % p["n"]),
        (
            "all LEDs full white (3 channels × %d mA each)" % p["per"],
            "%.1f A" % (p["full"] / 1000.0),
        ),
        (
            "each dark LED's control IC (%s: %.1f mA; profile display.idle_ma, whole mA)"
            % (WS2812B_DATASHEET, WS2812B_STATIC_MA),
            "%d mA" % p["idle"],
        ),
        ("all %d LEDs dark" % p["n"], "%d mA" % p["dark"]),
        ("software limit for the LEDs (profile display.budget_ma)", "%d mA" % p["budget"]),
        ("left for colour after the dark LEDs", "%d mA" % p["colour"]),
        ("so a frame is scaled to at most", "%.1f %% of full white" % p["pct"]),
        ("Pico itself (about)", "%d mA" % PICO_MA),
        ("total at the limit", "%d mA: %s" % (p["total"], usb)),
        ("supply to use (5 V)", "at least %d mA" % p["supply"]),
    ]


def parts_rows(board):
    """The default board's parts list: rows (qty, part, note). README.md's "Hardware" table
    is this list too."""
    g, inp = board["grid"], board["input"]
    keys = len(inp["rows"]) * len(inp["cols"])
    supply = power_budget(board)["supply"]
    return [
        (
            "1",
            "Raspberry Pi Pico W (RP2040 + CYW43439 Wi-Fi; Pico WH has headers)"
            if board.get("micropython_board") == "RPI_PICO_W"
            else "Raspberry Pi Pico (RP2040; Pico H has headers)",
            "flashed with fleetref's image; not a Pico 2 (RP2350)",
        ),
        (
            "1",
            "%d×%d WS2812B LED panel (%s)" % (g["w"], g["h"], g.get("wiring", "rows")),
            "%d LEDs, 5 V" % (g["w"] * g["h"]),
        ),
        (
            "1",
            "74AHCT125 (or 74HCT125) quad buffer, DIP-14",
            "level shifter: 3.3 V data in, 5 V data out",
        ),
        ("1", "330 Ω resistor", "in the data line, close to the panel's DIN"),
        (
            "1",
            "1000 µF 10 V electrolytic capacitor",
            (
                "only with a separate 5 V supply for the panel: across it at the panel's input, "
                "minus to GND; never on the Pico's VBUS (see Inrush)"
            ),
        ),
        (
            "%d" % keys,
            "6×6 mm tactile switches",
            "the %d×%d button pad" % (len(inp["rows"]), len(inp["cols"])),
        ),
        ("%d" % keys, "1N4148 diodes", "one per key, so any keys may be held together"),
        (
            "1",
            "USB cable (data, not charge-only) and a 5 V supply of at least %d mA" % supply,
            "a USB 2.0 port (%d mA) is one" % USB2_MA
            if supply <= USB2_MA
            else "more than a USB 2.0 port gives",
        ),
        ("-", "perfboard, wire, headers", ""),
    ]


def parts_table(board):
    """The parts list as a Markdown table."""
    out = ["| qty | part | note |", "|---|---|---|"]
    out += ["| %s | %s | %s |" % r for r in parts_rows(board)]
    return "\n".join(out)
