"""The benchmarks run, and docs/performance.md holds the figures they produce with the
command that produced them (the figures are not asserted against targets here: speed and
memory targets live in the benchmarks, never in timed tests)."""

import os
import re
import sys

from support import ROOT
from support.process import python

LABELS = [
    "Peak heap",
    "module bytecode",
    "Total .mpy size",
    "Event applied + frame rendered",
    "reference loop",
    "Serial bytes per event line",
    "full state per event",
    "Mirror catches up",
    "rules core alone",
    "Idle simulator",
    "Idle mirror",
    "Host heap",
    "littlefs geometry: journal",
    "naive rewrite",
]
SIZED = re.compile(r"^[0-9.]+ K?B(; [0-9.]+)?$")  # flash rows: bytes; blocks erased


def rows(text):
    return [l for l in text.splitlines() if l.startswith("| ") and not l.startswith("| figure")]


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split(" | ")]


def test_bench_runs_and_docs_hold_its_figures(tmp_path):
    out = tmp_path / "perf.md"
    bench = os.path.join(ROOT, "bench", "run.py")
    r = python(bench, "--out", str(out), "--no-rp2", "--quick", timeout=900)
    assert r.returncode == 0, r.stderr
    fresh = out.read_text()
    doc = open(os.path.join(ROOT, "docs", "performance.md")).read()
    assert "`make bench`" in doc
    for label in LABELS:
        assert label in fresh and label in doc, label
    # every row has a figure; sized figures (heap, code, bytes) are deterministic and match
    # the committed page's row of the same label
    docrows = {cells(l)[0]: l for l in rows(doc)}
    for line in rows(fresh):
        c = cells(line)
        assert len(c) == 6 and re.match(r"[0-9]", c[1]), line
        if SIZED.match(c[1]) and c[0] in docrows and "Host heap" not in c[0]:
            assert line == docrows[c[0]], "docs/performance.md is stale: run `make bench`\n" + line
    # each speed goal on the host has its target, a verdict and a baseline on the page
    for label in (
        "Serial bytes per event line, typical",
        "Mirror catches up 10000",
        "Mirror catches up 100000",
        "Idle simulator",
        "Idle mirror",
    ):
        row = next(cells(l) for l in rows(doc) if label in l)
        assert row[2] and row[3] in ("met", "not met"), row
    for label in (
        "Serial bytes per event line, typical",
        "Mirror catches up 10000",
        "Idle simulator",
        "Idle mirror",
    ):
        assert next(cells(l) for l in rows(doc) if label in l)[4], label


RP2_LABELS = [
    "rp2 heap used after boot",
    "rp2 heap used after loading a 2x24-ship game",
    "largest free block then",
    "Key release to WS2812 frame latched, emulated",
    "CPU share of the idle loop",
    "Emulated time is a lower bound",
    "group commits of a key's held events",
    "journal commits of an `append` line's events",
    "Flash per event on the emulated Pico",
]


def test_docs_hold_the_figures_from_the_emulated_pico():
    """`make bench` (bench/rp2.py, the real rp2 port on the emulated Pico) wrote its rows: the
    board's `mem` after boot, after a 2x24-ship game and after 20,000 events on fleetref's
    image with their targets and the stock route's figures beside them, key-to-frame latency
    and the event rows on fleetref's image with the stock route's and the previous page's
    figures beside them, idle CPU. (Not rerun here: it takes many minutes; `make bench` runs
    it.)"""
    doc = open(os.path.join(ROOT, "docs", "performance.md")).read()
    for label in RP2_LABELS:
        assert label in doc, label
    lat = next(l for l in rows(doc) if "frame latched" in l)
    assert re.search(r"\| [0-9.]+ / [0-9.]+ / [0-9.]+ ms \|", lat), lat
    assert "fleetref's image" in cells(lat)[0], lat
    assert "of 1000 events" not in doc and "after 1000 events" in doc
    heap = [cells(l) for l in rows(doc) if l.startswith("| rp2 heap used after")]
    assert len(heap) == 3 and "after 20,000 events" in heap[2][0], heap
    for c in heap:
        assert "fleetref's image" in c[0] and c[2] == "<= 64 KB" and c[3] in ("met", "not met")
    largest = [cells(l) for l in rows(doc) if "largest free block then" in l]
    pico_w = [c for c in largest if "the Pico W's image" in c[5]]
    assert len(largest) == 3 + len(pico_w) and all(
        c[2] == ">= 32 KB" and c[3] in ("met", "not met") for c in largest
    ), largest
    # the Pico W board: its heap after boot with the Pico's targets, its largest block
    w_heap = [cells(l) for l in rows(doc) if l.startswith("| rp2 heap on the Pico W board")]
    assert len(w_heap) == len(pico_w) == 1 and w_heap[0][2] == "<= 64 KB", (w_heap, pico_w)
    # the stock route beside the heap rows and the event rows (figures or why none), no target
    stock = [cells(l) for l in rows(doc) if "the same on the stock route" in l]
    assert len(stock) >= 3 + 5 and all(c[1] and not c[2] for c in stock), stock
    assert not [c for c in heap + largest + stock if not c[5].startswith("bench/rp2.py")]
    assert "FLEETREF_FROZEN_FIRMWARE" not in doc


def test_a_run_without_the_emulated_pico_keeps_all_its_rows():
    """`bench/run.py --no-rp2` keeps every row bench/rp2.py measured on the page, its sub-rows
    (indented labels) included, marked as not re-run (it once dropped the sub-rows and the
    rows not named like "rp2 ...", and the page lost them)."""
    sys.path.insert(0, ROOT)
    from bench import run

    page = os.path.join(ROOT, "docs", "performance.md")
    # the rows of bench/rp2.py, of the Pico W's presses beside the Pico's (bench/rp2_picow.py)
    # and of its network services' heap (bench/rp2_picow_net.py)
    want = [
        cells(l)[0]
        for l in rows(open(page).read())
        if cells(l)[5].startswith(("bench/rp2.py", "bench/rp2_picow.py", "bench/rp2_picow_net.py"))
    ]
    kept = run.rp2_rows(False, page)[0]
    assert [r[0].strip() for r in kept] == want and len(want) > 10
    assert any(r[0].startswith("  ") for r in kept)
    assert all(r[3].endswith("kept from the page, not re-run") for r in kept)
