"""The Pico W board's network services on its own emulated image: the heap their modules and
long-lived objects take, and the two big answers they build (the MQTT retained state, the
page's ``/api/state``), measured by a probe on fleetref's RPI_PICO_W image (the firmware
frozen in flash) while a 2x24-ship game rests. The emulator has no CYW43 chip and this build
of lwIP no loopback, so no socket is opened: what is measured is what the services hold and
build without the network, not the sockets, lwIP or the Wi-Fi driver.

The probe (PROBE_MAIN as /main.py, the real main.py as /lib/fleetref_main.py) runs
main.py's ``main()`` as the board does, with its ``build`` and ``extension_task`` wrapped by
PROBE_NET (/probe_net.py) to add one task. The bench loads bench/workload.py's long-game roster
over serial as bench/rp2_mem.py's heap rows do (``load_game``); once that game has stood still
STILL_MS, the task measures (a) the heap used after a collection, (b) the same after importing
every service module (MODULES) and building ``mqtt_words.Words`` (the one the assembly's
``ready`` made, if there is one), an ``mqtt.Publisher`` with CFG and a ``page.PageServer``,
then (c) the retained state (``mqtt_messages.state_message``) and (d) ``page.state_json``,
each held after a collection, with the heap's free bytes and largest block before it was built
(referee/runtime.py's ``largest_block``). Every heap figure leaves out /probe_net.py's own heap
(measured when /main.py imports it, before the referee is built).

Alone: ``python bench/rp2_picow_net.py`` prints the rows (a minute or two: one boot);
``--write`` also puts them on docs/performance.md (bench/pagerows.py). bench/run.py measures
them with --pico-w (or a full run) and keeps them from the page otherwise."""

import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
sys.path.insert(0, ROOT)

from emu import pico as emu  # noqa: E402
from bench import pagerows  # noqa: E402
from bench.rp2_boot import describe, firmware, load_game, note  # noqa: E402
from bench.rp2_mem import LARGEST_MIN, PICO_W, USED_MAX, kb, verdict  # noqa: E402

ROW = "rp2 network services on the Pico W image"  # every row's label starts so (pagerows)
PAGE = os.path.join(ROOT, "docs", "performance.md")
STILL_MS = 3000  # emulated: the game unchanged this long before the probe measures
CFG = {"host": "10.0.0.1", "port": 1883, "event": "cup", "table": "t1"}  # made up, never used
MODULES = (
    "referee.net.mqtt",
    "referee.net.mqtt_messages",
    "referee.net.mqtt_wire",
    "referee.net.mqtt_words",
    "referee.net.page",
    "referee.net.page_files",
)

# /main.py: fleetref's main.py (as /lib/fleetref_main.py) run as on the board, its ``build``
# and ``extension_task`` wrapped by /probe_net.py, whose own heap is measured first
PROBE_MAIN = r"""
import gc
gc.collect()
before = gc.mem_alloc()
import probe_net
gc.collect()
probe_net.COST[0] = gc.mem_alloc() - before
import fleetref_main
probe_net.hook(fleetref_main)
fleetref_main.main()
"""

# /probe_net.py: waits for the loaded game to rest, then measures (a) to (d): one JSON line
# (every heap figure less COST, this module's own heap)
PROBE_NET = r"""
import gc, json, sys
import asyncio
from referee.runtime import largest_block
COST = [0]
APP = []
def hook(fm):
    build, tasks = fm.build, fm.extension_task
    def built(*args, **kw):
        runner = build(*args, **kw)
        APP[:] = [runner.app, runner.app.gid]
        return runner
    async def both(app):
        asyncio.create_task(probe())
        await tasks(app)
    fm.build, fm.extension_task = built, both
def used():
    gc.collect()
    return gc.mem_alloc() - COST[0]
def heap():
    out = [used(), gc.mem_free()]
    out.append(largest_block(out[1]))
    return out
async def probe():
    app, boot = APP
    seen, still = None, 0
    while still < STILL_MS // 250:
        await asyncio.sleep_ms(250)
        key = (app.gid, app.game.seq if app.game else -1, app.version)
        still = still + 1 if key == seen and app.gid != boot else 0
        seen = key
    try:
        measure(app, heap())
    except Exception as e:
        print(json.dumps({"t": "picow-net", "error": "%s: %s" % (type(e).__name__, e)}))
def held(build):
    # [built (1) or MemoryError (0), bytes, heap used while held, free before, largest block
    # before, modules it imported]
    names = list(sys.modules)
    gc.collect()
    free = gc.mem_free()
    big = largest_block(free)
    try:
        out = build()
    except MemoryError:
        return [0, 0, 0, free, big, []]
    holding = used()
    try:
        n = len(out) if isinstance(out, bytes) else len(out.encode())
    except MemoryError:
        n = len(out)
    return [1, n, holding, free, big, [m for m in sys.modules if m not in names]]
def made(build):
    # bytes allocated while building with no collection (-1: no room without one)
    gc.collect()
    start = gc.mem_alloc()
    gc.disable()
    try:
        build()
        return gc.mem_alloc() - start
    except MemoryError:
        return -1
    finally:
        gc.enable()
def answer(build):
    # held's list, then made's and the heap used once the answer is dropped (measured here,
    # out of held's frame: its stack may still point at the answer)
    out = held(build)
    out.append(made(build) if out[0] else -1)
    out.append(used())
    return out
def measure(app, a):
    had = [m for m in MODULES if m in sys.modules]
    import referee.net.mqtt as mqtt
    from referee.net import mqtt_messages, mqtt_wire, mqtt_words, page, page_files
    existed = mqtt.words is not None and mqtt.words.app is app
    words = mqtt.words if existed else mqtt_words.Words(app)
    pub = mqtt.Publisher(app, dict(CFG))
    server = page.PageServer(app)
    b = heap()
    game = app.game
    names = (CFG["event"], CFG["table"])
    st = answer(lambda: mqtt_messages.state_message(app, game, app.gid, names, 0, words))
    api = answer(lambda: page.state_json(app))
    print(json.dumps({"t": "picow-net", "a": a, "b": b, "had": had, "words": existed,
                      "seq": game.seq, "gid": app.gid, "state": st, "api": api,
                      "probe": COST[0], "kept": [pub is not None, server is not None,
                      mqtt_wire is not None, page_files is not None]}))
"""


def picow_uf2(out):
    """The UF2 ``fleetref flash --board`` writes for the Pico W board (fleetref's RPI_PICO_W
    image and its files) with PROBE_MAIN as /main.py, the real main.py as
    /lib/fleetref_main.py and PROBE_NET as /probe_net.py. Returns the board profile."""
    from host_tools import paths
    from host_tools.board import flash, image

    board = paths.board_profile(PICO_W)
    mp_board = flash.micropython_board(board)
    d = os.path.dirname(out)
    files = []
    for name, text in (
        ("probe_main.py", PROBE_MAIN),
        (
            "probe_net.py",
            "STILL_MS = %d\nCFG = %r\nMODULES = %r\n" % (STILL_MS, CFG, MODULES) + PROBE_NET,
        ),
    ):
        files.append(os.path.join(d, name))
        with open(files[-1], "w") as f:
            f.write(text)
    plan = flash.plans(board)["image"]
    plan = [(p[0], ":/lib/fleetref_main.py") if p[1] == ":/main.py" else p for p in plan]
    plan += [(files[0], ":/main.py"), (files[1], ":/probe_net.py")]
    fs = image.littlefs_image(plan, mp_board)
    with open(out, "wb") as f:
        f.write(image.combined_uf2(firmware("image", mp_board), fs, mp_board))
    return board


def measure():
    """Boots the probe's image, loads the long-game roster and returns the probe's line
    ({"a", "b", "had", "words", "seq", "gid", "state", "api", ...}: PROBE_MAIN / PROBE_NET)
    with the board's ``hello`` as "hello". Raises emu.EmuError when it does not get there."""
    from bench import workload

    uf2 = os.path.join(tempfile.mkdtemp(prefix="fleetref-bench-"), "picow-net.uf2")
    board = picow_uf2(uf2)
    roster = workload.long_game(0)[0]  # the 2x24-ship roster of bench/rp2_mem.py's rows
    with emu.EmulatedPico(uf2, board) as pico:
        hello = pico.wait_msg(lambda m: m.get("t") == "hello", 300)
        mark = load_game(pico, roster, "picow-net")[2]
        got = pico.wait_msg(lambda m: m.get("t") == "picow-net", 300, mark)
    if "error" in got:
        raise emu.EmuError("the probe failed on the board: %s" % got["error"])
    got["hello"] = hello
    note("pico w network services: %r" % (got,))
    return got


def built(x, what):
    """(figure, how, verdict) of one answer ``x`` (PROBE_NET's ``answer`` list) named
    ``what``."""
    ok, n, used, free, big, new, made, after = x
    how = (
        "bench/rp2_picow_net.py: %s built by the probe while the game rests, with the "
        "services' objects above; heap used (less the probe's own) after gc.collect() while "
        "it is held and once it is dropped; free bytes and the largest block "
        "(referee/runtime.py's halving) just before it; allocated: gc.mem_alloc() growth "
        "while it is built again with collection off; modules it imported: %s"
        % (what, ", ".join(new) or "none")
    )
    if not ok:
        fig = "%s free, largest block %s before it: MemoryError" % (kb(free), kb(big))
    else:
        fig = (
            "%s B: %s used while held, %s once dropped; %s free, largest block %s before; %s "
            "allocated"
            % (
                format(n, ","),
                kb(used),
                kb(after),
                kb(free),
                kb(big),
                "no room without a collection" if made < 0 else kb(made),
            )
        )
    return fig, how, "met" if ok else "not met"


def rows(m=None):
    """The rows (label, figure, baseline, how, target, verdict) of ``m`` (measure()'s; None:
    measured now)."""
    m = m or measure()
    (a_used, a_free, a_big), (b_used, _b_free, b_big) = m["a"], m["b"]
    probe = m["probe"]
    where = "(%s, %s; no network hardware: no CYW43 chip in the emulator, no socket opened)" % (
        PICO_W,
        describe("image", m["hello"]),
    )
    how = (
        "bench/rp2_picow_net.py: the board's main.py run as on the board (its build and "
        "extension task wrapped by a probe); bench/workload.py's long-game roster loaded over "
        "serial (as bench/rp2_mem.py's rows), then measured once the game stood still %.0f s: "
        "gc.mem_alloc() after gc.collect(), less the probe's own heap (%s B), the largest "
        "free block by referee/runtime.py's halving; of the service modules, imported at boot "
        "already (the assembly's ready hooks): %s; mqtt_words.Words %s"
        % (
            STILL_MS / 1000.0,
            format(probe, ","),
            ", ".join(x.split(".")[-1] for x in m["had"]) or "none",
            "made at boot (network.ready), reused" if m["words"] else "made by the probe",
        )
    )
    out = [
        (
            "%s %s: heap used with the 2x24-ship game loaded (of %s)"
            % (ROW, where, kb(a_used + a_free + probe)),
            "%s; largest free block %s" % (kb(a_used), kb(a_big)),
            "",
            how,
            "<= 64 KB",
            verdict(a_used <= USED_MAX),
        ),
        (
            "%s: heap used after importing every service module (mqtt, mqtt_messages, "
            "mqtt_wire, mqtt_words, page, page_files) and building an mqtt.Publisher (made-up "
            "settings) and a page.PageServer, %s"
            % (
                ROW,
                "beside the mqtt_words.Words made at boot"
                if m["words"]
                else "with an mqtt_words.Words (none made at boot)",
            ),
            "%s (%+.1f KB); largest free block %s"
            % (kb(b_used), (b_used - a_used) / 1024.0, kb(b_big)),
            "game loaded, before: %s" % kb(a_used),
            how,
            "<= 64 KB; >= 32 KB",
            verdict(b_used <= USED_MAX and b_big >= LARGEST_MIN),
        ),
    ]
    for key, what in (
        ("state", "the retained state message (mqtt_messages.state_message, acked_seq 0)"),
        ("api", "the page's /api/state body (page.state_json)"),
    ):
        fig, row_how, ok = built(m[key], what.split(" (")[0])
        out.append(
            (
                "%s: %s of the game at seq %d" % (ROW, what, m["seq"]),
                fig,
                "",
                row_how,
                "built without MemoryError",
                ok,
            )
        )
    return out


def kept(path):
    """This bench's rows as on the page at ``path`` (bench/run.py when it is not run)."""
    return pagerows.kept(path, ROW)[0]


if __name__ == "__main__":
    new = rows()
    for r in new:
        print("| %s | %s | %s | %s | %s | %s |" % (r[0], r[1], r[4], r[5], r[2], r[3]))
    if "--write" in sys.argv:
        pagerows.rewrite(PAGE, ROW, new)
