"""`fleetref flash`: the plan, copying only changed files (by hash), and its clear errors.
No Pico is attached here: the mpremote side is a recording fake; the busy-port check runs
against the simulator's pseudo-terminal held open by the mirror."""

import json
import os

import pytest

from support import ROOT
from support.process import cli
from host_tools.board import flash, flash_board
from host_tools.board.firmware_build import source_hash
from host_tools.link.mirror import Mirror


def test_dry_run_prints_every_file_with_size_and_target():
    """--stock: the stock route's plan, every module as .mpy in /lib."""
    out = cli("flash", "--dry-run", "--stock", "--board", "pico-ws2812-16x16")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    targets = {l.split()[1]: int(l.split()[0]) for l in lines[1:-1]}
    for name in os.listdir(os.path.join(ROOT, "firmware", "referee")):
        if name.endswith(".py"):
            assert "/lib/referee/%s.mpy" % name[:-3] in targets
    assert "/main.py" in targets and "/board.json" in targets and "/rosters/hoth.json" in targets
    assert targets["/main.py"] == os.path.getsize(os.path.join(ROOT, "firmware", "main.py"))
    assert int(lines[-1].split()[0]) == sum(targets.values())


def test_unknown_board_is_a_clear_error():
    out = cli("flash", "--dry-run", "--board", "nope")
    assert out.returncode != 0 and "no board profile 'nope'" in out.stderr
    assert "pimoroni-rgb-keypad" in out.stderr


class FakeTool:
    """Records what flash_board.flash asks of mpremote. ``runs``: what the board answers to
    the probe (MicroPython version, code location, sources' hash)."""

    def __init__(self, version=(1, 24, 1), remote=None, code=None, src=None):
        self.answer = (version, code, src)
        self.remote = remote or {}
        self.calls = []

    def runs(self):
        return self.answer

    def hashes(self, targets):
        self.calls.append(("hashes", list(targets)))
        return {t: self.remote.get(t, "-") for t in targets}

    def mkdirs(self, dirs):
        self.calls.append(("mkdirs", list(dirs)))

    def copy(self, src, dst):
        self.calls.append(("cp", src, dst))

    def remove_tree(self, path):
        self.calls.append(("rm", path))

    def reset(self):
        self.calls.append(("reset",))


def plans(tmp_path):
    board = json.load(open(os.path.join(ROOT, "boards", "pico-ws2812-16x16.json")))
    return flash.plans(board)


def test_copies_only_changed_files_then_resets(tmp_path):
    """A board on stock MicroPython: the stock plan (.mpy in /lib), changed files only."""
    p = plans(tmp_path)
    remote = {e[1]: e[3] for e in p["stock"]}
    remote[":/lib/referee/game.mpy"] = "0" * 64  # stale on the board
    del remote[":/rosters/hoth.json"]  # missing on the board
    tool = FakeTool(remote=remote)
    seen = []
    route, copied = flash_board.flash("/dev/fake", p, tool, seen.append)
    assert route == "stock"
    assert sorted(copied) == [":/lib/referee/game.mpy", ":/rosters/hoth.json"]
    assert next(c for c in tool.calls if c[0] == "mkdirs")[1] == [
        ":/lib",
        ":/lib/referee",
        ":/rosters",
    ]
    assert tool.calls[-1] == ("reset",) and len(seen) == 2
    tool = FakeTool(remote={e[1]: e[3] for e in p["stock"]})
    assert flash_board.flash("/dev/fake", p, tool) == ("stock", [])  # nothing changed


def test_board_on_fleetrefs_image_gets_no_lib_and_keeps_its_game(tmp_path):
    """A board running fleetref's image built from this checkout: only main.py, the profile
    and the rosters are copied, the stale /lib copies of the frozen code are removed, and
    nothing names the game journal (/game)."""
    p = plans(tmp_path)
    remote = {e[1]: e[3] for e in p["image"]}
    remote[":/main.py"] = "0" * 64
    tool = FakeTool(version=(1, 28, 0), remote=remote, code="frozen", src=source_hash())
    route, copied = flash_board.flash("/dev/fake", p, tool)
    assert (route, copied) == ("image", [":/main.py"])
    assert ("rm", "/lib/referee") in tool.calls and ("rm", "/lib/drivers") in tool.calls
    assert not [c for c in tool.calls if c[0] == "cp" and "/lib/" in c[2]]
    assert not [c for c in tool.calls if "/game" in repr(c)]
    assert tool.calls[-1] == ("reset",)


def test_image_from_other_sources_says_which_uf2_and_copies_nothing(tmp_path):
    p = plans(tmp_path)
    tool = FakeTool(version=(1, 28, 0), code="frozen", src="0123456789ab")
    with pytest.raises(flash.FlashError) as e:
        flash_board.flash("/dev/fake", p, tool, image_uf2=lambda: "/cache/fleetref-RPI_PICO.uf2")
    msg = str(e.value)
    assert "hold BOOTSEL and copy /cache/fleetref-RPI_PICO.uf2" in msg and "0123456789ab" in msg
    assert "\n" not in msg
    assert [c[0] for c in tool.calls] == []  # nothing copied, no reset


def test_old_micropython_refused(tmp_path):
    tool = FakeTool(version=(1, 20, 0))
    with pytest.raises(flash.FlashError, match=r"1\.20\.0.*1\.24\.0 or newer"):
        flash_board.flash("/dev/fake", plans(tmp_path), tool)
    assert not any(c[0] == "cp" for c in tool.calls)


@pytest.mark.parametrize("version", [(1, 22, 0), (1, 23, 0)])
def test_micropython_below_the_floor_refused(tmp_path, version):
    """Stock MicroPython 1.24 is the floor (the emulated stock route runs 1.24.1): 1.22 and
    1.23 are refused before anything is copied."""
    tool = FakeTool(version=version)
    with pytest.raises(flash.FlashError, match=r"1\.24\.0 or newer"):
        flash_board.flash("/dev/fake", plans(tmp_path), tool)
    assert tool.calls == [] or not any(c[0] == "cp" for c in tool.calls)


def test_no_board_found(monkeypatch):
    from serial.tools import list_ports

    monkeypatch.setattr(list_ports, "comports", list)
    with pytest.raises(flash.FlashError, match="no Pico found"):
        flash_board.find_pico()


def test_rename_replaces_in_one_exec_and_errors_are_one_line(monkeypatch, tmp_path):
    """Mpremote.rename runs one ``mpremote exec`` whose script renames over the old file
    (run here by CPython in a folder standing for the board's root); a board's traceback
    becomes the one line of its error."""
    import subprocess

    ran = []
    reply = {"returncode": 0, "stdout": "", "stderr": ""}

    def run(cmd, **kw):
        ran.append(cmd)
        return subprocess.CompletedProcess(cmd, **reply)

    monkeypatch.setattr(flash_board.subprocess, "run", run)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mqtt.json").write_text("old")
    (tmp_path / "mqtt.json.new").write_text("new")
    tool = flash_board.Mpremote("/dev/ttyACM9")
    tool.rename(":mqtt.json.new", ":mqtt.json")
    ((*head, script),) = ran
    assert head[-3:] == ["connect", "/dev/ttyACM9", "exec"]
    exec(script, {})
    assert sorted(os.listdir(tmp_path)) == ["mqtt.json"]
    assert (tmp_path / "mqtt.json").read_text() == "new"
    tool.remove(":mqtt.json.new")
    assert ran[-1][-2:] == ["rm", ":mqtt.json.new"]
    reply.update(
        returncode=1,
        stdout='Traceback (most recent call last):\n  File "<stdin>", line 2\nOSError: 2\n',
    )
    with pytest.raises(flash.FlashError) as failed:
        tool.rename(":mqtt.json.new", ":mqtt.json")
    assert str(failed.value) == "mpremote failed: OSError: 2"


def test_busy_port_when_the_mirror_holds_it(sim_factory):
    sim = sim_factory("--headless", "--scenario", "hoth", "--seed", "1")
    flash_board.check_port_free(sim.port)  # free: no error
    m = Mirror(sim.port, warn=lambda s: None)
    m.open()
    try:
        with pytest.raises(flash.FlashError, match="busy: close the mirror"):
            flash_board.check_port_free(sim.port)
    finally:
        m.close()


def test_mip_manifest_lists_every_firmware_file():
    from devtools.mip_package import manifest

    on_disk = json.load(open(os.path.join(ROOT, "firmware", "package.json")))
    assert on_disk == manifest(), "run python -m devtools.mip_package"
    for dest, src in on_disk["urls"]:
        assert os.path.exists(os.path.normpath(os.path.join(ROOT, "firmware", src))), src
    dests = [d for d, _ in on_disk["urls"]]
    assert "main.py" in dests and "lib/referee/game.py" in dests and "board.json" in dests


def test_docs_name_the_floor_flash_holds_to():
    """README.md and the build guide name the MicroPython floor `fleetref flash` enforces
    (flash_board.MIN_VERSION), and no older one."""
    floor = "%d.%d" % flash_board.MIN_VERSION[:2]
    for name in ("README.md", "docs/build.md"):
        with open(os.path.join(ROOT, name), encoding="utf-8") as f:
            text = f.read()
        assert "MicroPython %s" % floor in text, name
        assert "MicroPython 1.22" not in text and "MicroPython 1.23" not in text, name
