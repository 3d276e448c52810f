"""Bad input to the command line gets one line and a non-zero exit, never a traceback (cases
an independent check found: a damaged dice section, a roster whose source is a number, a log
or flash path that is not a writable file or a directory, a key script that is not text)."""

import json
import os

import pytest

from support import ROOT
from support.process import cli, refused

SCRIPT = os.path.join(ROOT, "docs", "scripts", "hoth-3-rounds.txt")


@pytest.fixture(scope="module")
def with_dice(tmp_path_factory):
    """A save file of a game played with the board's committed dice (no --seed)."""
    d = tmp_path_factory.mktemp("dice")
    from support.process import SimProcess

    sim = SimProcess("--headless", "--scenario", "hoth", "--script", SCRIPT, "--hold")
    try:
        sim.final()
        path = d / "game.json"
        out = cli("save", str(path), "--port", sim.port)
        assert out.returncode == 0, out.stderr
    finally:
        sim.stop()
    data = json.loads(path.read_text())
    assert isinstance(data.get("dice"), dict) and data["dice"]["reveals"] is not None
    return data


@pytest.mark.parametrize(
    "damage,says",
    [
        (lambda d: d["dice"].__setitem__("rolls", "x"), "dice: rolls and reveals must be lists"),
        (lambda d: d["dice"].__setitem__("epoch", "x"), "dice: epoch must be an integer"),
        (lambda d: d.__setitem__("dice", 38), "dice: must be an object"),
        (lambda d: d["dice"]["reveals"].append({"ep": None}), "ep must be an integer"),
    ],
)
@pytest.mark.parametrize("command", ["verify", "dicestats", "report"])
def test_a_damaged_dice_section_is_refused_by_every_command(
    with_dice, tmp_path, damage, says, command
):
    data = json.loads(json.dumps(with_dice))
    damage(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    args = [command, str(path)] + (["-o", str(tmp_path / "r.html")] if command == "report" else [])
    out = cli(*args)
    assert out.returncode != 0 and "Traceback" not in out.stderr and says in out.stderr, out.stderr


def test_a_roster_whose_texts_are_not_text(tmp_path):
    base = json.load(open(os.path.join(ROOT, "firmware", "rosters", "swsb-example.json")))
    for field, value, says in (
        ("source", 5, "source: must be text"),
        ("note", ["a"], "note: must be text"),
    ):
        r = json.loads(json.dumps(base))
        r[field] = value
        p = tmp_path / "r.json"
        p.write_text(json.dumps(r))
        refused(cli("roster", "check", str(p)), says)


def test_paths_that_are_not_what_they_should_be(tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("x")
    refused(
        cli("mirror", "--once", "--log", str(tmp_path / "no" / "x.log"), "--port", "/dev/null"),
        "cannot write the log",
    )
    refused(
        cli("mirror", "--once", "--log", str(tmp_path), "--port", "/dev/null"),
        "cannot write the log",
    )
    refused(cli("sim", "--headless", "--flash", str(afile)), "is not a directory")
    script = tmp_path / "s.txt"
    script.write_bytes(b"\xff\xfe dmg+\n")
    refused(cli("sim", "--headless", "--script", str(script)), "is not UTF-8 text")


@pytest.mark.parametrize(
    "args,says",
    [
        (("sim", "--seed", "abc"), "fleetref sim: argument --seed: invalid int value: 'abc'"),
        (("verify",), "fleetref verify: the following arguments are required: game"),
        (("roster", "check"), "fleetref roster check: the following arguments are required"),
        (("report", "x.json", "--nosuch"), "unrecognized arguments: --nosuch"),
        (("replay", "x.json", "--speed", "fast"), "fleetref replay: argument --speed"),
        (("nosuch",), "fleetref: argument COMMAND: invalid choice: 'nosuch'"),
    ],
)
def test_usage_errors_are_one_line(args, says):
    """argparse's usage errors of every command: one line naming the command, the argument
    and where to read more (`fleetref COMMAND --help`), exit status 2, no usage block."""
    out = cli(*args, timeout=60)
    refused(out, says)
    assert "usage:" not in out.stderr and "--help)" in out.stderr, out.stderr
