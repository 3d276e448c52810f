"""A power cut on the emulated Pico (fleetref's image in rp2040js) with the mirror, then the web
view, attached over its serial port (docs/dice.md "Restarts"): the board rolls initiative with
its committed dice, the power goes (the CPU stops, the flash keeps what was written), the board
boots, restores the game and says ``hello`` with a new commitment and boot id on the same link.
The mirror says the roll made before the cut CANNOT BE CHECKED, never that it mismatches; the
rolls after it verify at the reveal, and `fleetref verify` on the mirror's log says the same;
the web view counts the roll that cannot be checked."""

import os
import time

from emu import pico as emu
from support.emu import board_profile, build_uf2, need_emu
from host_tools.link import mirror
from support.reportgames import cli

NAME = "pico-ws2812-16x16"


def until(m, pred, seconds=600):
    end = time.monotonic() + seconds
    while not pred() and time.monotonic() < end:
        m.pump(0.2)
    assert pred(), "the board did not answer in time"


def command(m, cmd):
    """Send ``cmd`` and wait for its event (or its error)."""
    seq, errs = m.rep.game.seq, len(m.rep.errors)
    m.send(cmd)
    until(m, lambda: m.rep.game.seq > seq or len(m.rep.errors) > errs)
    m.pump(1.0)  # its roll line
    return m.rep.game.seq > seq


def roll_initiative(m):
    g = m.rep.game
    while g.init == 255:  # a tie is rolled again (seed 004)
        assert command(m, {"c": "roll"}), m.rep.errors


def test_power_cut_with_the_mirror_attached(tmp_path, uf2_dir, monkeypatch):
    need_emu()
    monkeypatch.setattr(mirror, "REPLY_TIMEOUT", 120.0)  # the emulator is slower than a Pico
    board = board_profile(NAME)
    uf2 = build_uf2(NAME, uf2_dir)
    log = tmp_path / "mirror.log"
    warnings = []
    with emu.EmulatedPico(uf2, board, connect_serial=False) as pico:
        m = mirror.Mirror(pico.pty(), log=open(log, "w"), warn=warnings.append)
        m.open()
        try:
            m.sync()
            boot1 = m.rep.dicelog.boot
            assert boot1 and len(m.rep.dicelog.commit) == 64
            roll_initiative(m)
            old = sorted(m.rep.dicelog.rolls)
            assert old and warnings == []
            pico.cmd("reset")  # the power cut, then a boot
            until(m, lambda: m.rep.dicelog.boot != boot1)  # its hello on the same link
            assert (
                len(warnings) == 1
                and "restarted" in warnings[0]
                and all(str(s) in warnings[0] for s in old)
            ), warnings
            assert m.rep.dicelog.epoch == 0 and m.rep.game.seq == old[-1]
            assert command(m, {"c": "undo"}), m.rep.errors  # the roll taken back, rolled
            roll_initiative(m)  # again on the new secret
            new = sorted(s for s in m.rep.dicelog.rolls if s not in old)
            m.send({"c": "reveal"})
            until(m, lambda: m.rep.dicelog.view()["verified"] is not None)
            dv = m.snapshot()["dice"]
            assert dv["bad"] == [] and dv["verified"] == len(new) > 0, (dv, warnings)
            assert dv["unchecked"] == len(old) and len(warnings) == 1, warnings
        finally:
            m.close()
            m.log.close()
    out = cli("verify", str(log))
    assert out.returncode == 0, out.stdout + out.stderr
    assert ("%d board roll%s verified" % (len(new), "s" if len(new) != 1 else "")) in out.stdout
    assert any(
        x.startswith("CANNOT BE CHECKED")
        and x.endswith("events %s" % ", ".join(str(s) for s in old))
        for x in out.stdout.splitlines()
    )


def test_web_view_follows_the_dice_through_a_power_cut(tmp_path, uf2_dir):
    """Keys pressed on the emulated key matrix (roll, undo, the long press of roll that
    reveals), `fleetref web` following the board: its state (and its page, where a browser
    is installed) counts the roll the power cut made uncheckable and no mismatch."""
    from support.web import WebProcess, page_value, wait_until
    from devtools import webshots

    need_emu()
    board = board_profile(NAME)
    flat = [a for row in board["keys"] for a in row]
    hold = board.get("long_press_ms", 600) + 300
    env = dict(os.environ, TMPDIR=str(tmp_path))

    def press(action, ms=80):
        pico.press([(flat.index(action), ms, 150)])

    with emu.EmulatedPico(build_uf2(NAME, uf2_dir), board, connect_serial=False) as pico:
        web = WebProcess(pico.pty(), env, extra_env={"FLEETREF_REPLY_TIMEOUT": "120"})
        try:
            wait_until(lambda: web.state()["dice"]["boot"], 900, 0.2)
            boot1 = web.state()["dice"]["boot"]
            n = 0
            while True:  # a tie is rolled again (seed 004)
                press("roll")
                n += 1
                wait_until(lambda: web.state()["seq"] == n, 900, 0.2)
                if web.state()["initiative"] is not None:
                    break
                assert n < 6, "six tied initiative rolls in a row"
            wait_until(lambda: web.state()["dice"]["rolls"] == n, 900, 0.2)
            pico.cmd("reset")  # the power cut, then a boot
            wait_until(lambda: web.state()["dice"]["boot"] != boot1, 900, 0.2)
            assert web.state()["dice"]["unchecked"] == n
            press("undo")
            wait_until(lambda: web.state()["seq"] == n + 1, 900, 0.2)
            m = n + 1
            while True:
                press("roll")
                m += 1
                wait_until(lambda: web.state()["seq"] == m, 900, 0.2)
                if web.state()["initiative"] is not None:
                    break
            press("roll", hold)  # the long press: reveal
            wait_until(lambda: web.state()["dice"]["verified"] is not None, 900, 0.2)
            dv = web.state()["dice"]
            assert dv["bad"] == [] and dv["verified"] == m - n - 1 and dv["unchecked"] == n
            assert dv["restarts"] == 1
            if not webshots.missing():
                d = webshots.browser()
                try:
                    d.get(web.base + "/")
                    wait_until(
                        lambda: "%d CANNOT BE CHECKED" % n in page_value(d, "dice"), 60, 0.2
                    )
                    assert "MISMATCH" not in page_value(d, "dice")
                finally:
                    d.quit()
        finally:
            web.stop()
