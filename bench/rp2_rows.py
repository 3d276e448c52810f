"""The rows of bench/rp2.py's probe boots: latency, the longest event, snapshot steps, commits,
flash and idle CPU on fleetref's image (the product), the naive baseline (the first design's
path on the same image) in the baseline column, and the stock route's figures from the same
run beside the latency, event, snapshot and commit rows.

Each row: (label, value, baseline, how, target, verdict)."""

from host_tools import paths
from bench.rp2_boot import SETTLE, describe, percentile
from bench.rp2_notes import BOARD

HOW = "bench/rp2.py"
NLED = 16 * 16


def verdict(ok):
    return "met" if ok else "not met"


def pcts(xs):
    if not xs:
        return "none"
    return "%.1f / %.1f / %.1f ms" % (percentile(xs, 50), percentile(xs, 99), max(xs))


def ms(us):
    return "%.1f ms" % (us / 1e3)


def parts(ps):
    if not ps:
        return "none"
    return "; ".join(
        "%s %.1f / %.1f ms"
        % (name, percentile([p[k] / 1e3 for p in ps], 50), max(p[k] for p in ps) / 1e3)
        for k, name in enumerate(("rules", "drawn", "packed"))
    )


def per_event(f, n):
    return "%.0f B; %.3f" % (f[0] / float(max(1, n)), f[1] / 4096.0 / max(1, n))


def row(label, value, target="", ok=None, base=""):
    return (label, value, base, HOW, target, "" if ok is None else verdict(ok))


def stock(s, what, value):
    """The stock route's sub-row beside a row: ``value(s)`` (``what(s)`` says over what), or
    why it has none."""
    label = "  the same on %s, same run" % describe("stock", s["hello"])
    if "why" in s:
        return row(
            label, "n/a: %s%s" % (s["why"], " (booted alone too)" if s.get("alone") else "")
        )
    return row(label + what(s), value(s))


def latency_rows(r, b, s, n_events):
    lat, blat = r["lat"], b.get("lat", [])
    deb = paths.board_profile(BOARD).get("debounce_ms", 5)
    half = [t for t, n in zip(lat, r["sizes"]) if n <= NLED // 2]
    whole = [t for t, n in zip(lat, r["sizes"]) if n > NLED // 2]
    p99 = percentile(lat, 99) if lat else float("inf")
    return [
        row(
            "Key release to WS2812 frame latched, emulated, %s, in a 2x24-ship game after %d "
            "events over serial (p50 / p99 / max of %d presses making %d events; %d without a "
            "frame)"
            % (
                describe("image", r["hello"]),
                n_events,
                len(lat),
                r["made"],
                r["presses"] - len(lat),
            ),
            pcts(lat),
            "p99 <= 10 ms",
            p99 <= 10,
            b.get("na") or pcts(blat),
        ),
        stock(
            s,
            lambda s: (
                " (%d presses with a frame of %d; %d events)"
                % (len(s["lat"]), s["presses"], s["made"])
            ),
            lambda s: pcts(s["lat"]),
        ),
        row(
            "  the same counted from the moment the board accepts the release (fleetref: its "
            "first open reading, an eager release, so the same figures; baseline: after the "
            "%d ms debounce; the 256-pixel frame itself takes 7.7 ms on the wire)" % deb,
            pcts(lat),
            "p99 <= 10 ms",
            p99 <= 10,
            b.get("na") or pcts([x - deb for x in blat]),
        ),
        row(
            "  of those, presses whose frame reached at most half the chain (%d; the change "
            "in the top 8 rows)" % len(half),
            pcts(half),
        ),
        row(
            "  presses whose frame went out whole or nearly (%d; more than half the chain, on "
            "the wire 3.9-7.7 ms)" % len(whole),
            pcts(whole),
        ),
        row(
            "  where a press's time goes on the board, over the %d presses that drew a frame "
            "(from the key action to its first frame shown; p50 / max): the rules "
            "(Game.submit, the state hash included); the frame drawn (Renderer.render); packed "
            "and started (the display's show; the wire time follows)" % len(r["parts"]),
            parts(r["parts"]),
        ),
    ]


def event_rows(r, b, s):
    e, be = r["end"], b.get("end", {})
    bval = b.get("na") or ms(be.get("ev_max", 0))
    return [
        row(
            "Longest event, emulated, %s: submitted (rules, state hash, frame for a key's "
            "event, journal record, event line; baseline: with its snapshot writes) over the "
            "%d events of that game (%d over 20 ms)"
            % (describe("image", r["hello"]), e["ev_n"], e["ev_over"]),
            ms(e["ev_max"]),
            "<= 20 ms",
            e["ev_max"] <= 20000,
            bval,
        ),
        stock(s, lambda s: " (%d events)" % s["end"]["ev_n"], lambda s: ms(s["end"]["ev_max"])),
        row(
            "  snapshot writes, emulated: the loop writes a due one a littlefs operation a "
            "turn while no key is down (%d steps, %d snapshots finished in that game), the "
            "longest step" % (e.get("st_n", 0), e.get("st_done", 0)),
            ms(e.get("st_max", 0)),
            "<= 20 ms",
            e.get("st_max", 0) <= 20000,
        ),
        stock(
            s,
            lambda s: " (%d steps)" % s["end"].get("st_n", 0),
            lambda s: ms(s["end"].get("st_max", 0)),
        ),
        row(
            "  steps of two operations: events kept coming after the new log was written (the "
            "serial lines of the game's load and events), so it was written again and renamed "
            "in one turn (%d), the longest" % e.get("tw_n", 0),
            ms(e.get("tw_max", 0)) if e.get("tw_n") else "0 (none)",
            "<= 20 ms",
            e.get("tw_max", 0) <= 20000,
        ),
        row(
            "  snapshots written in one go because the steps could not keep up (%d), the "
            "longest" % e.get("wh_n", 0),
            ms(e.get("wh_max", 0)) if e.get("wh_n") else "0 (none)",
            "<= 20 ms",
            e.get("wh_max", 0) <= 20000,
        ),
    ]


def commit_rows(r, s):
    e = r["end"]
    out = []
    for k, what in (
        ("cm", "group commits of a key's held events"),
        ("sc", "journal commits of an `append` line's events"),
    ):
        out.append(
            row(
                "  %s, emulated (%d in that game, announcing %d events), the longest"
                % (what, e.get(k + "_n", 0), e.get(k + "_evs", 0)),
                ms(e.get(k + "_max", 0)),
                "<= 20 ms",
                e.get(k + "_max", 0) <= 20000,
            )
        )
        out.append(
            stock(
                s,
                lambda s, k=k: " (%d commits)" % s["end"].get(k + "_n", 0),
                lambda s, k=k: ms(s["end"].get(k + "_max", 0)),
            )
        )
    return out


def flash_cpu_rows(r, b, n_events):
    bl = b.get("na")
    return [
        row(
            "Flash per event on the emulated Pico (its littlefs, the rp2 port's own), "
            "fleetref's image: %d events over serial, 5 per `append` line (one commit a line), "
            "counted until the board has rested %.0f s after them (the snapshots they made due "
            "included): bytes programmed; 4 KB blocks erased" % (n_events, SETTLE),
            per_event(r["last"]["flash"], n_events),
            "<= 256 B",
            r["last"]["flash"][0] <= 256 * n_events,
            bl or per_event(b["last"]["flash"], n_events),
        ),
        row(
            "  the %d events of the %d presses, a key's events held and committed together "
            "(the same way)" % (r["made"], r["presses"]),
            per_event(r["pflash"], r["made"]),
            "<= 256 B",
            r["pflash"][0] <= 256 * max(1, r["made"]),
            bl or per_event(b["pflash"], b["made"]),
        ),
        row(
            "CPU share of the idle loop, emulated over %.1f s, fleetref's image" % r["span"],
            "%.1f %%" % (100 * r["share"]),
            "<= 5 %",
            r["share"] <= 0.05,
            bl or "%.1f %%" % (100 * b["share"]),
        ),
    ]


def rows(r, b, s, n_events):
    """The probe boots' rows: ``r`` fleetref's image, ``b`` the baseline on it, ``s`` the
    stock route (each run_probe's dict, or {"why": ...} for a boot that failed)."""
    if "why" in b:  # the baseline column says why it has no figures
        b = {"na": "n/a: %s%s" % (b["why"], " (booted alone too)" if b.get("alone") else "")}
    return (
        latency_rows(r, b, s, n_events)
        + event_rows(r, b, s)
        + commit_rows(r, s)
        + flash_cpu_rows(r, b, n_events)
    )
