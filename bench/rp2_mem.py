"""The heap rows of bench/rp2.py: the board's own ``mem`` command on the UF2 ``fleetref flash``
writes, fleetref's image and the stock route booted in the same run: after boot, after loading
a 2x24-ship game and after a long game's events over serial; and the Pico W board's image
after boot (its network part assembled, no Wi-Fi chip in the emulator). Alone: ``python
bench/rp2_mem.py --pico-w`` prints the Pico W rows (a minute: it boots only that image)."""

import json
import time

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
sys.path.insert(0, ROOT)

from emu import pico as emu  # noqa: E402
from bench.rp2_boot import SETTLE, answer, describe, load_game, note  # noqa: E402

MEM_EVENTS = 20000  # the long game's events
PER_LINE = 200  # events in one `append` line (the most the board takes)
MIN_LINE = 25  # the fewest when the board has no room for a longer line
USED_MAX = 64 * 1024  # targets on fleetref's image at each point
PICO_W = "pico-w-ws2812-16x16"  # the Pico W board (boards/)
LARGEST_MIN = 32 * 1024
HOW = "bench/rp2.py: the board's `mem` once it has rested %.0f s" % SETTLE


def mem(pico):
    """The board's ``mem`` answer once it has rested SETTLE s (emulated)."""
    pico.sleep(SETTLE)
    mark = pico.mark()
    pico.write(b'{"c": "mem"}\n')
    return pico.wait_msg(lambda m: m.get("t") == "mem", 300, mark)


def send_events(pico, events, out):
    """``events`` over serial, PER_LINE to an ``append`` line, each line's answer awaited
    before the next; a line the board dropped for want of free memory is sent again in
    lines of half as many (down to MIN_LINE; out["shorter"]: [(first event, events a line)]).
    Sets out["sent"] (events the board took), and out["why"] when it refused a line."""
    out["sent"], out["shorter"] = 0, []
    i, per = 0, PER_LINE
    while i < len(events):
        mark = pico.mark()
        line = [list(e) for e in events[i : i + per]]
        pico.write((json.dumps({"c": "append", "events": line}) + "\n").encode())
        got = answer(pico, mark)
        msg = got.get("msg", "").split(" (")[0]
        if got["t"] == "err" and "free memory" in msg and per > MIN_LINE:
            per //= 2
            out["shorter"].append((i + 1, per))
            note("%s: %s; events %d on %d a line" % (out["route"], msg, i + 1, per))
            continue
        if got["t"] == "err":
            out["why"] = "the board refused the line of events %d-%d: %s" % (
                i + 1,
                i + len(line),
                msg,
            )
            note("%s: %s" % (out["route"], out["why"]))
            return
        out["sent"] = got["seq"]
        if out["sent"] // 4000 != (out["sent"] - len(line)) // 4000:
            note("%s: %d events sent" % (out["route"], out["sent"]))
        i += len(line)


def run_mem(route, uf2, board, n_events):
    """Boots ``uf2`` and asks for ``mem`` after boot, after the load of the long game's
    2x24-ship roster and after ``n_events`` of its events. Returns {"route", "hello",
    "boot", "loaded", "events" (mem answers; the last two absent when it did not get there),
    "sent", "n", "wall" and "emu" (s the events took), "why" (what stopped it)}."""
    from bench import workload

    roster, events = workload.long_game(n_events)
    out = {"route": route, "n": n_events, "sent": 0}
    with emu.EmulatedPico(uf2, board) as pico:
        out["hello"] = pico.wait_msg(lambda m: m.get("t") == "hello", 300)
        out["boot"] = mem(pico)
        note("%s: mem after boot %r" % (route, out["boot"]))
        try:
            out["resent"] = load_game(pico, roster, "mem-" + route)[1]
        except emu.EmuError as e:
            out["why"] = "the 2x24-ship game did not load: %s" % e
            note("%s: %s" % (route, out["why"]))
            return out
        out["loaded"] = mem(pico)
        note("%s: mem after the load %r" % (route, out["loaded"]))
        t0, e0 = time.monotonic(), pico.time()["t"]
        send_events(pico, events, out)
        out["wall"], out["emu"] = time.monotonic() - t0, pico.time()["t"] - e0
        out["events"] = mem(pico)
        note("%s: mem after %d events %r" % (route, out["sent"], out["events"]))
    return out


def kb(x):
    return "%.1f KB" % (x / 1024.0)


def verdict(ok):
    return "met" if ok else "not met"


def points(img):
    """(key, what) of the three points, as the rows say them."""
    n, sent = img["n"], img.get("sent", 0)
    done = (
        "%s events" % format(n, ",")
        if sent >= n
        else "%s of %s events (%s)"
        % (format(sent, ","), format(n, ","), img.get("why", "stopped"))
    )
    return [
        ("boot", "after boot"),
        ("loaded", "after loading a 2x24-ship game (bench/workload.py's long-game roster)"),
        (
            "events",
            "after %s of that game (over serial, %d to an `append` line, the most a "
            "line holds%s, each line's answer awaited before the next)"
            % (done, PER_LINE, "; " + shorter(img) if shorter(img) else ""),
        ),
    ]


def resent(x, key):
    if key != "loaded" or not x.get("resent"):
        return ""
    return " (its load line sent %d times: before, no room on its heap)" % (x["resent"] + 1)


def shorter(x):
    """What a run's lines were when the board had no room for PER_LINE events a line."""
    return "; ".join(
        "from event %s on, %d a line: no room for more" % (format(i, ","), n)
        for i, n in x.get("shorter", [])
    )


def stock_value(stk, key):
    if key in stk:
        if key == "events" and shorter(stk):
            return "%s (%s)" % (stock_value(dict(stk, shorter=[]), key), shorter(stk))
        short = key == "events" and stk["sent"] < stk["n"]
        return "%s; %s%s%s" % (
            kb(stk[key]["used"]),
            kb(stk[key]["largest"]),
            resent(stk, key),
            " (after %s events: %s)" % (format(stk["sent"], ","), stk.get("why")) if short else "",
        )
    return "n/a: %s" % stk.get("why", "not measured")


def took(x):
    if "wall" not in x:
        return ""
    return "; the events took %.0f s emulated, %.1f min of wall time" % (
        x["emu"],
        x["wall"] / 60.0,
    )


def rows(img, stk):
    """The heap rows (label, value, baseline, how, target, verdict): fleetref's image with its
    targets, the stock route's figures beside them."""
    out = []
    total = img["boot"]["used"] + img["boot"]["free"]
    stotal = stk["boot"]["used"] + stk["boot"]["free"]
    for key, what in points(img):
        m = img.get(key)
        how = HOW + (took(img) if key == "events" else "")
        if m is None:
            out.append(
                (
                    "rp2 heap used %s, %s" % (what, describe("image", img["hello"])),
                    "n/a: %s" % img.get("why"),
                    "",
                    how,
                    "<= 64 KB",
                    "not met",
                )
            )
            continue
        out += [
            (
                "rp2 heap used %s%s, %s%s"
                % (
                    what,
                    " (of %s)" % kb(total) if key == "boot" else "",
                    describe("image", img["hello"]),
                    resent(img, key),
                ),
                kb(m["used"]),
                "",
                how,
                "<= 64 KB",
                verdict(m["used"] <= USED_MAX),
            ),
            (
                "  largest free block then (one allocation's most)",
                kb(m["largest"]),
                "",
                HOW,
                ">= 32 KB",
                verdict(m["largest"] >= LARGEST_MIN),
            ),
        ]
        out.append(
            (
                "  the same on %s, same run%s: used; largest free block"
                % (
                    describe("stock", stk["hello"]),
                    " (of %s)" % kb(stotal) if key == "boot" else "",
                ),
                stock_value(stk, key),
                "",
                HOW + (took(stk) if key == "events" else ""),
                "",
                "",
            )
        )
    return out


def boot_mem(uf2, board):
    """Boots ``uf2`` (``board``: its profile) and asks for ``mem`` once it has rested after
    boot. Returns {"hello", "boot"} (the board's answers)."""
    with emu.EmulatedPico(uf2, board) as pico:
        hello = pico.wait_msg(lambda m: m.get("t") == "hello", 300)
        return {"hello": hello, "boot": mem(pico)}


def pico_w_rows(w):
    """The Pico W board's heap rows from its ``boot_mem`` figures ``w``: used after boot (of
    the heap) with the Pico's target, and the largest free block."""
    m = w["boot"]
    total = m["used"] + m["free"]
    how = HOW + "; the Pico W's image (RPI_PICO_W), its Wi-Fi off: no CYW43 in the emulator"
    return [
        (
            "rp2 heap on the Pico W board (%s) after boot (of %s), %s"
            % (PICO_W, kb(total), describe("image", w["hello"])),
            kb(m["used"]),
            "",
            how,
            "<= 64 KB",
            verdict(m["used"] <= USED_MAX),
        ),
        (
            "  largest free block then (one allocation's most)",
            kb(m["largest"]),
            "",
            how,
            ">= 32 KB",
            verdict(m["largest"] >= LARGEST_MIN),
        ),
    ]


def measure_pico_w(out_dir):
    """The Pico W rows alone: its UF2 written into ``out_dir`` and booted once."""
    from bench.rp2_boot import board_uf2

    path = os.path.join(out_dir, "plain-pico-w.uf2")
    board = board_uf2(path, PICO_W)
    w = boot_mem(path, board)
    note("pico w: mem after boot %r" % (w["boot"],))
    return pico_w_rows(w)


if __name__ == "__main__":
    import tempfile

    if "--pico-w" not in sys.argv:
        sys.exit("usage: bench/rp2_mem.py --pico-w (the other heap rows: bench/rp2.py)")
    for row in measure_pico_w(tempfile.mkdtemp(prefix="fleetref-bench-")):
        print("| %s | %s | %s | %s | %s | %s |" % (row[0], row[1], row[4], row[5], row[2], row[3]))
