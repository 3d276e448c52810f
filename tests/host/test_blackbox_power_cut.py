"""A power cut mid-game must never raise a false dice alarm (docs/dice.md "Restarts": "An
honest board never shows a mismatch across restarts"; "Rolls revealed before the restart
still verify, and the rolls after it verify against the new boot's secret"). Played only
through the public interfaces: `fleetref sim --flash DIR` killed with SIGKILL and started
again over the same DIR, serial commands, `fleetref save` and `fleetref verify` (exit 0 when
"every roll that can be checked matched", 1 on a mismatch)."""

import json

from support.blackbox import Host
from support.process import SimProcess, cli


class FlashBoard:
    """A simulated board whose flash outlives it: ``cut()`` is a power cut and a restart."""

    def __init__(self, flash, *args):
        self.args = ("--headless", "--hold", "--flash", flash, *args)
        self.sim = SimProcess(*self.args)
        self.host = Host(self.sim.port)
        self.host.send({"c": "hello"})

    def cut(self):
        self.host.close()
        self.sim.proc.kill()
        self.sim.proc.wait(10)
        self.sim = SimProcess(*self.args)
        self.host = Host(self.sim.port)
        self.host.send({"c": "hello"})

    def save(self, path):
        out = cli("save", "--port", self.sim.port, str(path))
        assert out.returncode == 0, out.stderr
        return path

    def stop(self):
        self.host.close()
        self.sim.stop()


def roll(host):
    """Board initiative rolls until they are not tied (seed 000: "Ties are rerolled");
    returns their `roll` records, one per roll."""
    records = []
    for _ in range(20):
        msgs, snap = host.send({"c": "roll"})
        rolls = [m for m in msgs if m.get("t") == "roll"]
        assert len(rolls) == 1, msgs
        records.append(rolls[0])
        if snap["rolls"][0] != snap["rolls"][1]:
            return records
    raise AssertionError("20 tied rolls")


def verified(count):
    """The start of verify's summary for ``count`` matching board rolls."""
    return "%d board roll%s verified" % (count, "" if count == 1 else "s")


def next_round(host):
    """Phase on until the next round's initiative (swsb: the roll comes first)."""
    _, snap = host.send({"c": "snap"})
    start = snap["round"]
    for _ in range(12):
        msgs, snap = host.send({"c": "phase"})
        if snap["round"] > start:
            return snap
    raise AssertionError("no new round: %r" % msgs)


def verify(path):
    out = cli("verify", str(path))
    assert "Traceback" not in out.stderr + out.stdout
    return out


def revealed_save_verifies(board, path, count):
    """The board reveals its dice and its game is saved to ``path``: `fleetref verify` of the
    save succeeds with ``count`` board rolls verified. Returns verify's output."""
    board.host.send({"c": "reveal"})
    out = verify(board.save(path))
    assert out.returncode == 0, out.stdout + out.stderr
    assert verified(count) in out.stdout, out.stdout
    return out


def test_rolls_on_both_sides_of_a_cut_never_mismatch(tmp_path):
    """Round 1's roll before the cut (not revealed), round 2's after it, then `reveal` and a
    save: round 2's roll verifies against the new boot's secret, round 1's is CANNOT BE
    CHECKED (its secret died with the old boot), and verify exits 0."""
    board = FlashBoard(str(tmp_path / "flash"), "--scenario", "swsb-example")
    try:
        first = roll(board.host)
        board.cut()
        next_round(board.host)
        second = roll(board.host)
        assert second[0]["boot"] != first[0]["boot"]
        out = revealed_save_verifies(board, tmp_path / "game.json", len(second))
    finally:
        board.stop()
    assert "CANNOT BE CHECKED" in out.stdout, out.stdout
    assert "mismatch" not in out.stdout.lower(), out.stdout


def test_a_save_made_before_the_cut_still_verifies_after_it(tmp_path):
    """Roll, reveal, save (file A); cut; roll in round 2, reveal, save (file B). A verifies
    wholly (its secret was revealed before the cut); B verifies its new roll and calls the
    old one CANNOT BE CHECKED (docs/dice.md "Power cuts": a save made after the restart has
    no record of the rolls before it), with exit 0 both times."""
    board = FlashBoard(str(tmp_path / "flash"), "--scenario", "swsb-example")
    try:
        first = roll(board.host)
        board.host.send({"c": "reveal"})
        before = verify(board.save(tmp_path / "a.json"))
        board.cut()
        next_round(board.host)
        second = roll(board.host)
        board.host.send({"c": "reveal"})
        after = verify(board.save(tmp_path / "b.json"))
    finally:
        board.stop()
    assert before.returncode == 0 and verified(len(first)) in before.stdout, before.stdout
    assert "CANNOT BE CHECKED" not in before.stdout, before.stdout
    assert after.returncode == 0 and verified(len(second)) in after.stdout, after.stdout
    assert "CANNOT BE CHECKED" in after.stdout, after.stdout


def test_undo_and_reroll_after_a_cut(tmp_path):
    """The roll from before the cut is undone on the restarted board and rolled again (an
    undo is an event: docs/dice.md "re-rolling needs an undo, which is itself an event in
    the log"). The new roll verifies; the old one cannot be checked; exit 0."""
    board = FlashBoard(str(tmp_path / "flash"), "--scenario", "swsb-example")
    try:
        first = roll(board.host)
        board.cut()
        assert not [m for m in board.host.send({"c": "undo"})[0] if m.get("t") == "err"]
        again = roll(board.host)
        assert again[0]["seq"] == len(first) + 2
        revealed_save_verifies(board, tmp_path / "game.json", len(again))
    finally:
        board.stop()


def test_pad_roll_then_cut_keeps_the_game_and_no_alarm(tmp_path):
    """The pad's `roll` (docs/script.md K12) is group-committed (docs/reliability.md); once
    its `ev` line has gone out the event is on flash and survives the cut. After the restart
    the game has the roll, the board answers `hello` with a new boot and epoch 0, and a save
    verifies with exit 0 (the roll CANNOT BE CHECKED, never a mismatch)."""
    board = FlashBoard(str(tmp_path / "flash"), "--scenario", "swsb-example")
    try:
        msgs, snap = board.host.key("roll")
        assert snap["seq"] == 1, msgs
        old_boot = next(m for m in msgs if m.get("t") == "roll")["boot"]
        board.cut()
        msgs, snap = board.host.send({"c": "hello"})
        hello = [m for m in msgs if m.get("t") == "hello"][-1]
        assert snap["seq"] == 1 and hello["boot"] != old_boot and hello["epoch"] == 0
        path = board.save(tmp_path / "game.json")
        out = verify(path)
    finally:
        board.stop()
    assert out.returncode == 0, out.stdout + out.stderr
    assert "CANNOT BE CHECKED" in out.stdout, out.stdout
    saved = json.loads(path.read_text())
    assert saved, "empty save"


def test_a_pad_roll_is_on_flash_before_a_quick_cut(tmp_path):
    """docs/dice.md: "A roll cannot be re-rolled silently ... re-rolling needs an `undo`".
    Pad keys are group-committed up to `commit_ms` (1000 ms, docs/reliability.md), so a
    roll shown on the grid must not be one a power cut can take back: the script's `roll`
    (started by the host's first line) is announced (`ev` and `roll` lines) well within
    `commit_ms`, and after a SIGKILL right then the restored game holds it."""
    import time

    import serial

    script = tmp_path / "roll.txt"
    script.write_text("# plays: swsb-example\nroll\nwait 5000\n")
    flash = str(tmp_path / "flash")
    sim = SimProcess(
        "--headless",
        "--flash",
        flash,
        "--scenario",
        "swsb-example",
        "--script",
        str(script),
        "--wait-for-host",
    )
    data = b""
    try:
        with serial.Serial(sim.port, timeout=0.05) as link:
            link.write(b'{"c":"hello"}\n')
            start = time.monotonic()
            while time.monotonic() - start < 0.9 and b'"roll"' not in data:
                data += link.read(4096)
        sim.proc.kill()
        sim.proc.wait(10)
    finally:
        sim.stop()
    lines = [json.loads(l) for l in data.decode().splitlines() if l.startswith("{")]
    assert [m["seq"] for m in lines if m.get("t") in ("ev", "roll")] == [1, 1], lines
    board = FlashBoard(flash)
    try:
        _, snap = board.host.send({"c": "snap"})
    finally:
        board.stop()
    assert snap["seq"] == 1 and snap["rolls"][0] > 0, snap["rolls"]
