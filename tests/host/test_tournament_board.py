"""`fleetref tournament board`: a Pico W's broker settings made from `tournament init`'s
files, copied to the board as /mqtt.json.new then renamed over /mqtt.json (the copy tool
faked here) or written to a file, the password never printed; bad input or a failed copy
gives one line and exit 2."""

import argparse
import json
import os
import shutil
import stat

import pytest

from host_tools.board.flash_board import FlashError
from host_tools.tournament import boardsettings, tournament
from support import ROOT
from support.mqtt import fleetref, reachable_folder


@pytest.fixture
def cup(tmp_path):
    """`tournament init`'s folder for two tables of event ``cup`` (one Mosquitto started as
    root could enter)."""
    folder, made = reachable_folder(tmp_path / "cup")
    tournament.init(folder, 2, "cup", 1884)
    yield folder
    if made:
        shutil.rmtree(os.path.dirname(folder), ignore_errors=True)


class FakeBoard:
    """Stands in for mpremote: keeps the calls in order (copies with what was copied);
    ``fail``: the call ("copy" or "rename") that raises FlashError as a cut cable would."""

    def __init__(self, fail=None):
        self.calls = []
        self.fail = fail

    def _call(self, name, *call):
        self.calls.append((name, *call))
        if name == self.fail:
            raise FlashError("mpremote failed: could not enter raw repl")

    def copy(self, src, dst):
        with open(src) as f:
            cfg = json.load(f)
        self._call("copy", dst, cfg, stat.S_IMODE(os.stat(src).st_mode), src)

    def rename(self, src, dst):
        self._call("rename", src, dst)

    def remove(self, path):
        self._call("remove", path)


def args(folder, **kw):
    base = {
        "dir": str(folder),
        "table": "table-02",
        "broker": "mqtt://localhost:1884",
        "event": "cup",
        "port": None,
        "out": None,
    }
    base.update(kw)
    return argparse.Namespace(**base)


def test_the_settings_go_to_the_board_and_the_password_nowhere_else(cup, tmp_path, capsys):
    with open(os.path.join(cup, "passwords", "table-02")) as f:
        password = f.readline().strip()
    tool = FakeBoard()
    assert boardsettings.main(args(cup, port="/dev/ttyACM9"), tool) == 0
    # copied beside the old settings, then renamed over them in one step
    (_, dst, cfg, mode, src), rename = tool.calls
    assert dst == ":mqtt.json.new" and mode == 0o600 and not os.path.exists(src)
    assert rename == ("rename", ":mqtt.json.new", ":mqtt.json")
    assert cfg == {
        "host": "127.0.0.1",
        "port": 1884,
        "event": "cup",
        "table": "table-02",
        "user": "table-02",
        "password": password,
    }
    out = capsys.readouterr()
    assert password not in out.out + out.err and "/dev/ttyACM9" in out.out
    path = tmp_path / "mqtt.json"
    assert boardsettings.main(args(cup, out=str(path))) == 0
    assert json.loads(path.read_text()) == cfg
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert password not in "".join(capsys.readouterr())


@pytest.mark.parametrize("fail", ["copy", "rename"])
def test_a_failed_copy_keeps_the_old_settings_and_says_one_line(cup, fail, capsys):
    tool = FakeBoard(fail)
    assert boardsettings.main(args(cup, port="/dev/ttyACM9"), tool) == 2
    names = [c[0] for c in tool.calls]
    # no rename after a failed copy; the stray copy removed while the board answers
    assert names == {"copy": ["copy", "remove"], "rename": ["copy", "rename", "remove"]}[fail]
    assert tool.calls[-1] == ("remove", ":mqtt.json.new")
    assert not os.path.exists(tool.calls[0][4])  # the laptop's temporary copy too
    out = capsys.readouterr()
    assert out.out == "" and out.err.count("\n") == 1 and "Traceback" not in out.err
    assert out.err.startswith("fleetref tournament board: mpremote failed: could not enter")
    assert "/mqtt.json is unchanged" in out.err


def test_bad_input_gives_one_line_and_exit_2(cup):
    common = ("tournament", "board", "--dir", cup, "--out", "x.json")
    for extra, words in (
        (("--table", "table-07", "--broker", "mqtt://127.0.0.1"), "password file"),
        (("--table", "table-01", "--broker", "mqtts://127.0.0.1"), "plain MQTT"),
        (("--table", "table-01", "--broker", "mqtt://no-such-host.invalid"), "resolve"),
        (("--table", "a/b", "--broker", "mqtt://127.0.0.1"), "table name"),
    ):
        r = fleetref(*common, *extra)
        assert r.returncode == 2 and words in r.stderr, r.stderr
        assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert not os.path.exists(os.path.join(ROOT, "x.json"))
