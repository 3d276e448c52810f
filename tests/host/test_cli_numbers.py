"""Numbers typed on the command line are checked as they are read: a negative pace, a speed
of nan or inf, a port or baud rate out of range is refused in one line (exit 2) naming the
option, before the command does anything (host_tools/argtypes.py)."""

import pytest

from support.process import cli, refused

BAD = [
    (["sim", "--headless", "--scenario", "hoth", "--pace"], "-5", "--pace"),
    (["sim", "--headless", "--scenario", "hoth", "--pace"], "1e9", "--pace"),
    (["demo", "--pace"], "-1", "--pace"),
    (["demo", "--linger"], "inf", "--linger"),
    (["demo", "--linger"], "nan", "--linger"),
    (["replay", "no-such-game.json", "--check", "--speed"], "nan", "--speed"),
    (["replay", "no-such-game.json", "--speed"], "inf", "--speed"),
    (["replay", "no-such-game.json", "--speed"], "-2", "--speed"),
    (["replay", "no-such-game.json", "--speed"], "0", "--speed"),
    (["legend", "--scenario", "hoth", "--pitch"], "-10", "--pitch"),
    (["legend", "--scenario", "hoth", "--pitch"], "nan", "--pitch"),
    (["mirror", "--port", "no-such-port", "--baud"], "-9600", "--baud"),
    (["web", "--port", "no-such-port", "--baud"], "0", "--baud"),
    (["publish", "--broker", "mqtt://127.0.0.1", "--baud"], "nan", "--baud"),
    (["dashboard", "--broker", "mqtt://127.0.0.1", "--silent-after"], "inf", "--silent-after"),
    (["dashboard", "--broker", "mqtt://127.0.0.1", "--silent-after"], "-1", "--silent-after"),
    (["tournament", "init", "--tables", "2", "--dir", "DIR", "--listen-port"], "0", "port"),
    (["tournament", "init", "--tables", "2", "--dir", "DIR", "--listen-port"], "70000", "port"),
]


@pytest.mark.parametrize("args,value,option", BAD, ids=lambda v: v if isinstance(v, str) else None)
def test_a_bad_number_is_refused_in_one_line(tmp_path, args, value, option):
    args = [str(tmp_path / "setup") if a == "DIR" else a for a in args]
    out = cli(*args, value, timeout=30)
    refused(out, option)
    assert value in out.stderr and "wants" in out.stderr, out.stderr
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_good_numbers_still_pass():
    from host_tools.argtypes import finite_number, whole_number

    assert whole_number(0, 10)("10") == 10
    assert finite_number(0, above=True)("0.25") == 0.25
    assert finite_number(0, 3600)("0") == 0.0
