"""A power cut on the simulated board with the mirror attached (docs/dice.md "Power cuts"):
`fleetref sim --flash DIR` killed with SIGKILL and started again over the same DIR, a Mirror
that reconnects as it does after any lost link, writing its `--log`. The rolls made before the
cut, an initiative and an attack, were never revealed: the restarted board has a new secret
and a new boot id. Nothing may be called a mismatch; the mirror says those rolls CANNOT BE
CHECKED, and so do `fleetref verify`, `dicestats` and `report` on its log and on a save made
after the cut; the rolls after it verify."""

import copy
import json
import re

from referee.texts import plural
from host_tools.link.mirror import Mirror
from host_tools.views.mirrorview import MirrorScreen
from support.reportgames import cli

EV_ATTACK = 9


def send(m, cmd, wait=3.0):
    """Send ``cmd`` and handle what comes until its event or error arrived."""
    import time

    seq, errs = m.rep.game.seq, len(m.rep.errors)
    m.send(cmd)
    end = time.monotonic() + wait
    while time.monotonic() < end and m.rep.game.seq == seq and len(m.rep.errors) == errs:
        m.pump(0.02)
    m.pump(0.1)  # its roll line
    return m.rep.game.seq > seq


def phase_to(m, name):
    g = m.rep.game
    while g.rules.phases[g.phase] != name:
        assert send(m, {"c": "phase"})


def board_roll_initiative(m):
    g = m.rep.game
    while g.init == 255:
        assert send(m, {"c": "roll"})


def attack(m):
    """A legal attack with the board's d20 (tried on a copy of the replica first)."""
    g = m.rep.game
    for a in range(g.n):
        for t in range(g.n):
            if g.side[a] != g.side[t] and copy.deepcopy(g).submit((EV_ATTACK, a, 10, t)) is None:
                assert send(m, {"c": "attack", "ship": a, "target": t})
                return m.rep.game.seq
    raise AssertionError("no legal attack")


def verified_but(path, why, unchecked):
    """`fleetref verify PATH` succeeds and names one group of rolls it CANNOT CHECK: ``why``
    they cannot be, at the events ``unchecked``; returns its output."""
    out = cli("verify", str(path))
    assert out.returncode == 0, out.stdout + out.stderr
    lost = [x for x in out.stdout.splitlines() if x.startswith("CANNOT BE CHECKED")]
    assert (
        len(lost) == 1
        and why in lost[0]
        and lost[0].endswith("events %s" % ", ".join(str(s) for s in unchecked))
    ), out.stdout
    return out


def test_mirror_follows_the_board_through_a_power_cut(sim_factory, tmp_path):
    flash = str(tmp_path / "flash")
    log = tmp_path / "mirror.log"
    sim = sim_factory("--headless", "--ruleset", "swsb", "--flash", flash)
    warnings = []
    m = Mirror(sim.port, log=open(log, "w"), warn=warnings.append)
    m.open()
    m.sync()
    board_roll_initiative(m)
    phase_to(m, "attack")
    attack(m)
    old = sorted(m.rep.dicelog.rolls)
    kinds = {m.rep.game.event(s)[0] for s in old}
    assert kinds == {1, EV_ATTACK} and warnings == []
    # the power cut
    sim.proc.kill()
    sim.proc.wait(10)
    m.close()
    sim = sim_factory("--headless", "--flash", flash)
    m.port = sim.port
    m.open()  # as follow() does after a lost link
    m.sync()
    said = list(warnings)
    phase_to(m, "initiative")
    board_roll_initiative(m)
    new = sorted(s for s in m.rep.dicelog.rolls if s not in old)
    assert new
    m.send({"c": "reveal"})
    m.pump(0.5)
    dv = m.snapshot()["dice"]
    assert dv["bad"] == [] and dv["verified"] == len(new), (dv, warnings)
    assert (
        warnings == said
        and len(said) == 1
        and "restarted" in said[0]
        and "CANNOT BE CHECKED" in said[0]
        and all(str(s) in said[0] for s in old)
    ), warnings
    assert dv["unchecked"] == len(old) and dv["restarts"] == 1 and dv["epoch"] == 1
    shown = [x.plain for sec in MirrorScreen(m).sections() for x in sec.lines]
    assert any("%d CANNOT BE CHECKED" % len(old) in x for x in shown), shown
    m.close()
    m.log.close()

    # the mirror's log keeps the dice lines: verify, dicestats and report read it
    rows = [json.loads(x) for x in log.read_text().splitlines()]
    dice = [r["dice"]["t"] for r in rows if "dice" in r]
    assert dice.count("roll") >= len(old) + len(new) and "reveal" in dice and "hello" in dice
    out = verified_but(log, "restarted", old)
    assert (plural(len(new), "board roll") + " verified") in out.stdout
    assert "MISMATCH" not in out.stdout
    st = cli("dicestats", str(log))
    assert st.returncode == 0 and ("%d CANNOT BE CHECKED" % len(old)) in st.stdout, st.stdout
    page = tmp_path / "r.html"
    r = cli("report", str(log), "-o", str(page))
    assert r.returncode == 0, r.stderr
    part = page.read_text().split("<h2>Every roll</h2>", 1)[1].split("<h2>", 1)[0]
    classes = {int(s): c for c, s in re.findall(r'<tr class="(\w+)"><td>(\d+)</td>', part)}
    assert all(classes[s] == "unchecked" for s in old) and all(
        classes[s] == "board" for s in new
    ), classes
    assert "CANNOT BE CHECKED (secret lost in a restart)" in part

    # a save made after the cut holds no record of the rolls before it: every kind is named
    save = tmp_path / "game.json"
    out = cli("save", str(save), "--port", sim.port)
    assert out.returncode == 0, out.stderr
    verified_but(save, "no roll record", old)


def test_a_mirror_log_keeps_the_dice_and_verifies(sim_factory, tmp_path):
    """No power cut: the log of a mirror that followed the game verifies like a save, and a
    mirror started again on it (resume) has the dice record back."""
    log = tmp_path / "m.log"
    sim = sim_factory("--headless", "--scenario", "swsb-example")
    m = Mirror(sim.port, log=open(log, "w"), warn=lambda s: None)
    m.open()
    m.sync()
    for _ in range(2):
        board_roll_initiative(m)
        phase_to(m, "attack")
        attack(m)
        phase_to(m, "initiative")
    assert send(m, {"c": "roll", "values": [12, 4]})  # physical dice
    m.send({"c": "reveal"})
    m.pump(0.5)
    rolls = {s: r for s, r in m.rep.dicelog.rolls.items() if not r.get("phys")}
    assert len(rolls) >= 4
    m.close()
    m.log.close()
    out = cli("verify", str(log))
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.startswith(
        "%s verified, 1 physical roll, 0 not yet revealed" % plural(len(rolls), "board roll")
    ), out.stdout
    assert out.stdout.rstrip().endswith("all board rolls match")
    from host_tools.link.replica import Replica

    rep = Replica()
    rep.resume_from_log(str(log))
    assert rep.dicelog.as_dict() == m.rep.dicelog.as_dict()
