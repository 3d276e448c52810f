"""The spectator page's heap (firmware/referee/net/page.py), unix port figures: MicroPython
v1.28.0's unix port (host_tools/board/unix_build.py) runs the page's modules and the board
(tests/mpvm/unix_board.py, the tests' harness) and answers ``gc.mem_alloc()``. Called by
bench/run.py (:func:`measure` returns rows ``(label, figure, baseline, how measured, target,
verdict)``, :data:`NOTES`);

    .venv/bin/python bench/page.py [--out docs/performance.md]

alone measures them and rewrites only the page's rows and notes. The unix port compiles the
modules from source, so their bytecode and the page's bytes are on its heap; on the Pico W's
image they are frozen in flash. What the CYW43 driver and lwIP take is not in these figures.
"""

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
sys.path.insert(0, os.path.join(ROOT, "tests"))
sys.path.insert(0, ROOT)

from bench import pagerows  # noqa: E402
from devtools import webshots  # noqa: E402

ROW = "Board page"  # every row of this bench starts so; notes start "- Board page"
PATH = "%s:%s:.frozen" % (
    os.path.join(ROOT, "tests", "mpvm", "unixnet"),
    os.path.join(ROOT, "firmware"),
)
REQUESTS = 10  # of each route

IMPORTS = """
import gc
import referee.loop
gc.collect()
base = gc.mem_alloc()
import referee.net.page
gc.collect()
page = gc.mem_alloc()
import referee.net.page_files
gc.collect()
print(page - base, gc.mem_alloc() - page)
"""


def micropython():
    from host_tools.board import unix_build

    why = unix_build.missing()
    if why:
        raise SystemExit("bench/page.py: " + why)
    return unix_build.build()


def import_heap(exe):
    """(page.py's heap, page_files.py's heap) in bytes after their import."""
    out = subprocess.run(
        [exe, "-c", IMPORTS],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env=dict(os.environ, MICROPYPATH=PATH),
    )
    page, files = out.stdout.split()
    return int(page), int(files)


def mem_used(board):
    """The board's heap in use (its ``mem`` reply, bytes); ``board``: a UnixBoard."""
    board.send('{"c":"mem"}')
    return board.until(lambda line: isinstance(line, dict) and line.get("t") == "mem")["used"]


def start_board(state_dir, services, port):
    """The Pico W's profile on the unix port with ``services`` (tests/support/unixport.py),
    once it has said hello."""
    from support.unixport import UnixBoard, pico_w_profile

    board = UnixBoard(pico_w_profile(services=services, page={"port": port}), state_dir)
    board.until(lambda line: isinstance(line, dict) and line.get("t") == "hello")
    return board


def wait_port(port, timeout=20.0):
    end = time.monotonic() + timeout
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > end:
                raise
            time.sleep(0.1)


def board_heap(exe, state_dir):
    """(used without the page, with it open, after REQUESTS of each route, after as many
    again) in bytes."""
    port = webshots.free_port()
    plain = start_board(os.path.join(state_dir, "plain"), [], port)
    try:
        time.sleep(1.5)  # the network up, as below
        without = mem_used(plain)
    finally:
        plain.stop()
    board = start_board(os.path.join(state_dir, "page"), ["page"], port)
    try:
        wait_port(port)
        opened = mem_used(board)
        served = []
        for _round in range(2):
            for _k in range(REQUESTS):
                for path in ("/", "/api/state"):
                    with urllib.request.urlopen("http://127.0.0.1:%d%s" % (port, path)) as r:
                        r.read()
            time.sleep(0.5)  # the last connection closed on the board
            served.append(mem_used(board))
    finally:
        board.stop()
    return without, opened, served[0], served[1]


def measure():
    import tempfile

    exe = micropython()
    page, files = import_heap(exe)
    with tempfile.TemporaryDirectory() as d:
        without, opened, served, again = board_heap(exe, d)
    how = "bench/page.py: gc.mem_alloc() after gc.collect(), MicroPython 1.28.0 unix port"
    return [
        (
            ROW + " (unix port figures): heap taken by importing page.py / page_files.py "
            "(the page's bytes; frozen in flash on the Pico W's image)",
            "%d / %d B" % (page, files),
            "",
            how,
            "",
            "",
        ),
        (
            ROW + " (unix port figures): the board's heap used without the page / with the "
            "page open / after %d requests of / and %d of /api/state / after as many again "
            "(the first requests import the page's bytes and the snapshot's modules)"
            % (REQUESTS, REQUESTS),
            "%d / %d / %d / %d B" % (without, opened, served, again),
            "",
            how + "; the board's `mem` command (tests/mpvm/unix_board.py, hoth loaded)",
            "",
            "",
        ),
    ]


NOTES = [
    (
        "- Board page rows (bench/page.py): unix port figures, not the Pico W's. The unix "
        "port runs the firmware from source, so the page's modules (bytecode, and the page's "
        "HTML bytes in page_files.py) sit on its heap; on the Pico W's image they are frozen "
        "and cost no RAM, so the Pico W's figure is lower by about the first row. The "
        "socket buffers, lwIP and the CYW43 driver's own memory are outside the MicroPython "
        "heap and are not measured here (no Pico W in this bench)."
    ),
]


def rewrite(path, new_rows, notes):
    """Replace this bench's rows and notes on the page at ``path`` (bench/pagerows.py)."""
    pagerows.rewrite(path, ROW, new_rows, notes)


def kept(path):
    """This bench's rows and notes as on the page at ``path`` (bench/run.py when it is not
    run): (rows, notes)."""
    return pagerows.kept(path, ROW)


def main():
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "performance.md"))
    args = ap.parse_args()
    new = measure()
    rewrite(args.out, new, NOTES)
    for r in new:
        print(" | ".join(str(x) for x in r))


if __name__ == "__main__":
    main()
