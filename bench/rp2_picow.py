"""The Pico W board's key presses on the emulated RP2040, its Wi-Fi down, beside the Pico
board's: the referee never waits for the network, so a press and its frame take no longer on
the Pico W's image with its network part running (no CYW43 chip answers in the emulator: the
join finds none, the link is off) than on the Pico's image without one.

Each board is booted from the UF2 ``fleetref flash --uf2`` writes for it (fleetref's image for
its MicroPython board, the real main.py, the Escape from Hoth scenario); the Pico W is given
Wi-Fi credentials first, so its driver powers the chip up, finds none and stays off. Then
PRESSES presses of the bench's turn keys (bench/rp2_notes.py GAME_KEYS) are timed from each
key's release to the first WS2812 frame that changed the panel (bench/rp2.py
``latencies``). Called by bench/run.py with --pico-w (or a full run)."""

import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
sys.path.insert(0, ROOT)

from emu import pico as emu  # noqa: E402
from bench import pagerows  # noqa: E402
from bench.rp2_boot import board_uf2, note, percentile  # noqa: E402
from bench.rp2_mem import PICO_W  # noqa: E402
from bench.rp2_notes import BOARD  # noqa: E402

PRESSES = 60
ROW = "rp2 key release to its frame on the Pico W board"


def pressed(name, wifi):
    """Release-to-frame times (ms) of PRESSES presses on board ``name``'s image; ``wifi``:
    give it credentials first (its driver then tries the absent chip)."""
    from bench.rp2 import latencies

    uf2 = os.path.join(tempfile.mkdtemp(prefix="fleetref-bench-"), name + ".uf2")
    board = board_uf2(uf2, name)
    with emu.EmulatedPico(uf2, board) as pico:
        pico.wait_msg(lambda m: m.get("t") == "hello", 300)
        if wifi:
            mark = pico.mark()
            pico.write(b'{"c": "wifi-set", "ssid": "tablenet", "password": "bench-pass"}\n')
            pico.wait_msg(lambda m: m.get("t") in ("wifi", "err"), 60, mark)
            pico.sleep(2.0)  # the chip's power-up tried (some 350 ms) and given up
            mark = pico.mark()
            pico.write(b'{"c": "wifi"}\n')
            state = pico.wait_msg(lambda m: m.get("t") == "wifi", 60, mark)["state"]
            if state != "off":
                raise emu.EmuError("the Pico W's network is %r, not off" % state)
        times, presses, _made, _sizes = latencies(pico, board, PRESSES)
    note("%s: %d of %d presses made a frame" % (name, len(times), presses))
    return times, presses


def rows():
    """The row (label, figure, baseline, how, target, verdict)."""
    w_times, w_presses = pressed(PICO_W, True)
    p_times, _ = pressed(BOARD, False)

    def fig(xs):
        return "%.2f / %.2f ms" % (percentile(xs, 50), percentile(xs, 95))

    how = (
        "bench/rp2_picow.py: %d presses of the bench's turn keys (%d made a frame on the "
        "Pico W), release to the first WS2812 frame that changed the panel, emulated time; "
        "each board's own image and main.py, Escape from Hoth; the Pico W given credentials, "
        "its chip absent (network off)" % (w_presses, len(w_times))
    )
    return [
        (
            ROW + " (%s), Wi-Fi down (no chip in the emulator): median / p95" % PICO_W,
            fig(w_times),
            "the Pico board (%s), same presses: %s" % (BOARD, fig(p_times)),
            how,
            "",
            "",
        )
    ]


def kept(path):
    """This bench's rows as on the page at ``path`` (bench/run.py when it is not run)."""
    return pagerows.kept(path, ROW)[0]


if __name__ == "__main__":
    for r in rows():
        print(" | ".join(r))
