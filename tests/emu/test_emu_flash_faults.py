"""Damage injected into the emulated Pico's own flash: a real game is played on the board (key
script on the key matrix, then events over USB serial), its littlefs region is damaged in the
emulator (truncations, bit flips through littlefs and raw in the flash, zeroed and erased 4 KB
blocks, deleted files, stale temporary files) and the real firmware boots on it
(devtools/faults_emu.py). Every boot must be a prefix of the announced events with the CPython
replica's state hash for that prefix, said over serial and on the grid when anything was lost,
or a clear refusal: never another game, never a traceback. The exhaustive sweep runs on a
littlefs image (tests/host/test_faults.py)."""

import collections
import os

from support import ROOT
from support.emu import board_profile, boot, build_uf2, need_emu
from devtools import faults, faults_emu
from support.emu import presses, timed

NAME = "pico-ws2812-16x16"


def run_campaign(uf2_dir, tmp):
    board = board_profile(NAME)
    path = os.path.join(ROOT, "tests", "scripts", "emu-hoth.txt")
    ps = timed(presses(board, open(path).read()))
    other = faults.Played(20, seed=101).files["setup.json"]
    with boot(build_uf2(NAME, uf2_dir), board) as pico:
        return faults_emu.campaign(pico, board, ps, 56, str(tmp), other, quick=True)


def test_faults_on_the_emulated_picos_flash(uf2_dir, tmp_path):
    need_emu()
    played, results = run_campaign(uf2_dir, tmp_path)
    n = len(played.evs)
    assert n == 70 and played.evs[-1]["seq"] == 70
    assert "snap.bin" in played.files and any(x[0] == "h" for x in played.files)
    count = collections.Counter(r[2] for r in results)
    for kind, detail, c, k, text in results:
        assert c != "wrong", (kind, detail, k, text)
        if c == "prefix-silent":  # whole records cut: the flash of an earlier power cut
            assert detail == "log.bin@%d" % (len(played.files["log.bin"]) - 24), detail
            assert k == n - 2
        if c == "fs-rollback":
            assert kind in ("raw bit flip", "zeroed block", "erased block"), detail
        if detail.startswith("setup.json@") or detail == "setup.json":
            assert c == "refused", (detail, c, text)
    assert results[0][2] == "exact"  # the undamaged flash boots silently
    assert count["prefix-noted"] and count["refused"] and count["exact-noted"]
    assert "(repaired journal boots clean)" in " ".join(r[4] for r in results)
    kinds = {r[0] for r in results}
    assert {
        "truncate",
        "deleted",
        "bit flip",
        "raw bit flip",
        "zeroed block",
        "stale temp",
    } <= kinds
    assert len(results) == len(faults_emu.SAMPLE)  # one of each kind (the full list: bench)
