"""A path that is not a regular file (a device as /dev/zero, a pipe, a folder) or that is too
big to be a game is refused in one line (exit 2) by every command that reads a game, a log, a
roster or a key script: none of them hangs on it or reads it whole (host_tools/userfiles.py)."""

import os

import pytest

from host_tools import userfiles
from support.process import cli, refused

COMMANDS = {
    "verify": lambda path: ["verify", path],
    "report": lambda path: ["report", path],
    "replay": lambda path: ["replay", path, "--check"],
    "dicestats": lambda path: ["dicestats", path],
    "load": lambda path: ["load", path, "--port", "no-such-port"],
    "mirror --log": lambda path: ["mirror", "--once", "--log", path, "--port", "no-such-port"],
    "sim --script": lambda path: ["sim", "--headless", "--scenario", "hoth", "--script", path],
    "sim --roster": lambda path: ["sim", "--headless", "--roster", path],
    "roster check": lambda path: ["roster", "check", path],
}


def unfit(tmp_path, kind):
    """A path of ``kind``: the zero device, a named pipe no one writes, a folder, a file one
    byte over the bound (sparse: it takes no disk)."""
    if kind == "device":
        return "/dev/zero"
    path = tmp_path / ("game.json" if kind != "folder" else "folder.json")
    if kind == "pipe":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    else:
        with open(path, "wb") as f:
            f.truncate(userfiles.MAX_BYTES + 1)
    return str(path)


@pytest.mark.parametrize("kind", ["device", "pipe", "folder", "too big"])
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_an_unfit_file_is_refused_in_one_line(tmp_path, command, kind):
    path = unfit(tmp_path, kind)
    before = sorted(os.listdir(tmp_path))
    out = cli(*COMMANDS[command](path), timeout=30)
    refused(out, path)
    says = "bigger than" if kind == "too big" else "not a regular file"
    if command == "mirror --log" and kind == "folder":
        says = "Is a directory"
    assert says in out.stderr, out.stderr
    assert sorted(os.listdir(tmp_path)) == before  # nothing written beside it


def test_a_file_within_the_bound_is_read_whole(tmp_path):
    path = tmp_path / "small.txt"
    path.write_bytes(b"line one\r\nline two\n")
    assert userfiles.read_text(str(path)) == "line one\nline two\n"
