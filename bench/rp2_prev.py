"""The figures the page held before this run (bench/rp2.py): for the latency, longest-event,
snapshot-step and commit rows, a sub-row gives the same row's figure from the docs/performance.md
this run replaces, read before it is rewritten, so the last figures stand beside the ones
before them (the stock route's from that page, before the bench moved to fleetref's image)."""

import re

# the rows that get one: (what the row's label starts with, its indent stripped)
ROWS = (
    "Key release to WS2812 frame latched",
    "Longest event, emulated",
    "snapshot writes, emulated",
    "group commits of a key's held events",
    "journal commits of an `append` line's events",
)
LABEL = "  the page this run replaced (%s), on %s: the same figure"


def read(page):
    """{row start: (value, route, date)} from the page at ``page`` (empty without one)."""
    try:
        with open(page) as f:
            text = f.read()
    except (OSError, TypeError):
        return {}
    date = re.search(r"\) on (\d{4}-\d\d-\d\d)\.", text)
    date = date.group(1) if date else "undated"
    ver = re.search(r"official MicroPython v?([0-9.]*[0-9])", text)
    stock = "the stock route (official MicroPython %s)" % (
        ver.group(1) if ver else "as its notes say"
    )
    out = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if not line.startswith("| ") or len(cells) < 2:
            continue
        for start in ROWS:
            if cells[0].startswith(start) and start not in out:
                route = "fleetref's image" if "fleetref's image" in cells[0] else stock
                out[start] = (cells[1], route, date)
    return out


def add(rows, page):
    """``rows`` (label, value, ...) with the page's previous figure after each row ROWS names
    (and after that row's stock sub-row, the next when it is one)."""
    prev = read(page)
    out = []
    pending = None
    for r in rows:
        if pending is not None and not r[0].startswith("  the same on the stock route"):
            out.append(pending)
            pending = None
        out.append(r)
        start = [s for s in ROWS if r[0].strip().startswith(s)]
        if start and start[0] in prev:
            value, route, date = prev[start[0]]
            pending = (
                LABEL % (date, route),
                value,
                "",
                ("bench/rp2.py: read from the page before it was rewritten"),
                "",
                "",
            )
    if pending is not None:
        out.append(pending)
    return out
