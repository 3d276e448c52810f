"""Bad input through the public interfaces gets exactly one clear line, changes nothing and
never shows a traceback (docs/protocol.md "Errors": "A line that is not printable, not JSON,
not an object, has no string `c`, names an unknown command, or has bad arguments gets one
`err` line and changes nothing"; docs/rosters.md for roster files; the CLI's own help)."""

import json

import pytest

from support.blackbox import start
from support.process import cli, refused


@pytest.fixture(scope="module")
def board():
    sim, host = start("--ruleset", "squadrons-d6", "--seed", "2")
    host.ok({"c": "move", "ship": 0})  # a game in play: one event
    yield host
    host.close()
    sim.stop()


BAD_LINES = [
    "not json",
    "[1,2]",
    "NaN",
    '{"c":5}',
    '{"c":"nope"}',
    '{"c":"move"}',
    '{"c":"move","ship":99}',
    '{"c":"move","ship":-1}',
    '{"c":"move","ship":"Nobody"}',
    '{"c":"move","ship":1.5}',
    '{"c":"move","ship":true}',
    '{"c":"move","ship":1,"mode":9}',
    '{"c":"move","ship":1,"hexes":-1}',
    '{"c":"move","ship":1,"hexes":1e400}',
    '{"c":"move","ship":1,"turns":10}',
    '{"c":"hit","ship":0,"n":99999999999}',
    '{"c":"hit","ship":0,"n":NaN}',
    '{"c":"events","since":-1}',
    '{"c":"events","since":"a"}',
    '{"c":"load","scenario":"nosuch"}',
    '{"c":"load","roster":{}}',
    '{"c":"load","ruleset":"squadrons-d6","settings":{"bogus":1}}',
    '{"c":"load","roster":{"name":"x","ruleset":"squadrons-d6","sides":"ab"}}',
    '{"c":"key","key":"nosuchkey"}',
    '{"c":"roster-put","name":"../x","roster":{}}',
    '{"c":"roster-put","name":"ok1","roster":{"name":"x"}}',
    '{"c":"sn\x03ap"}',
    '{"c":"snap","x":"' + "a" * 20000 + '"}',
    "[" * 5000 + "]" * 5000,
    '{"c":"load","roster":' + "[" * 3000 + "]" * 3000 + "}",
]


@pytest.mark.parametrize("line", BAD_LINES, ids=range(len(BAD_LINES)))
def test_bad_serial_line_gets_one_err_and_changes_nothing(board, line):
    """Every bad line: one `err`, no `ev`, the same seq and state hash (Host.refused)."""
    msg = board.refused(line)
    assert msg and "Traceback" not in msg


def test_non_utf8_line_gets_one_err(board):
    """docs/protocol.md: "A line holding bytes that are not UTF-8 gets one `err` (`bytes that
    are not UTF-8 in line`) and the next line is read normally"."""
    _, before = board.send({"c": "snap"})
    board.link.write(b"\xff\xfe\n")
    msgs, after = board.send({"c": "snap"})
    assert [m["msg"] for m in msgs if m.get("t") == "err"] == ["bytes that are not UTF-8 in line"]
    assert after["state_hash"] == before["state_hash"]


def test_bad_roster_put_writes_nothing(board):
    """docs/protocol.md `roster-put`: "`err` and nothing written"."""
    before = [m for m in board.send({"c": "scenarios"})[0] if m.get("t") == "scenarios"]
    board.refused({"c": "roster-put", "name": "bad_one", "roster": {"name": "x"}})
    after = [m for m in board.send({"c": "scenarios"})[0] if m.get("t") == "scenarios"]
    assert before == after and "bad_one" not in after[0]["names"]


@pytest.mark.parametrize("proto", ['"8"', "true"])
def test_hello_with_a_proto_of_the_wrong_type_is_a_clear_argument_error(board, proto):
    """docs/protocol.md: `hello` takes "optional `proto` (the host's version: an `err` with
    code `proto` if it differs)"; "bad arguments get one `err` line". A `proto` that is not a
    version number at all ("8" as a string, true) is a bad argument: the message should say
    so, not "host speaks protocol '8', this board speaks 8: update the host tools"."""
    msgs, _ = board.send('{"c":"hello","proto":%s}' % proto)
    errs = [m for m in msgs if m.get("t") == "err"]
    assert len(errs) == 1
    assert "update" not in errs[0]["msg"] and "proto" in errs[0]["msg"], errs[0]["msg"]


def test_bad_roster_files_get_one_line(tmp_path):
    """`fleetref roster check FILE`: exit 2 and one line naming the problem."""
    ok_ship = {
        "name": "b",
        "class": 4,
        "hp": 1,
        "stats": {"space": 8, "piloting": "4D", "maneuverability": "2D"},
    }
    cases = {
        "broken.json": ("{", "not valid JSON"),
        "list.json": ("[1,2]", "must be an object"),
        "broken.toml": ("x = [\n", "not valid TOML"),
        "space.json": (dict(ok_ship, stats={"space": "fast"}), "stats.space"),
        "die.json": (
            dict(ok_ship, stats={"space": 8, "piloting": "4X", "maneuverability": "2D"}),
            "die code",
        ),
        "count.json": (dict(ok_ship, count=5000), "count must be"),
        "class.json": (dict(ok_ship, **{"class": 9}), "class must be"),
        "name.json": (dict(ok_ship, name="a" * 300), "longer than 24"),
    }
    for name, (content, says) in cases.items():
        path = tmp_path / name
        if isinstance(content, dict):
            content = json.dumps(
                {
                    "name": "x",
                    "ruleset": "squadrons-d6",
                    "sides": [
                        {"name": "A", "ships": [content]},
                        {"name": "B", "ships": [ok_ship]},
                    ],
                }
            )
        path.write_text(content)
        refused(cli("roster", "check", str(path)), says)
    refused(cli("roster", "check", str(tmp_path / "missing.json")), "not found")


@pytest.mark.parametrize(
    "args,says",
    [
        (("verify", "/nonexistent/x.json"), "cannot read"),
        (("report", "/nonexistent/x.json"), "cannot read"),
        (("sim", "--ruleset", "nosuch", "--headless"), "no ruleset 'nosuch'"),
        (("sim", "--scenario", "nosuch", "--headless"), "no scenario 'nosuch'"),
        (("sim", "--setting", "foo", "--headless"), "NAME=VALUE"),
        (("sim", "--setting", "clock_s=abc", "--headless"), "whole number"),
        (("sim", "--clock", "-5", "--headless", "--ruleset", "swsb"), "--clock"),
        (("sim", "--board", "nosuch", "--headless"), "no board profile"),
        (("sim", "--flash", "/etc/passwd", "--headless"), "not a directory"),
        (("sim", "--script", "/nonexistent", "--headless"), "cannot read script"),
        (("save", "--port", "/nonexistent", "/tmp/never-written.json"), "cannot open"),
        (("mirror", "--port", "/nonexistent"), "cannot open"),
    ],
)
def test_bad_cli_arguments_get_one_line(args, says):
    refused(cli(*args, timeout=60), says)


def test_bad_save_files_get_one_line(tmp_path):
    """verify, replay, report and dicestats on a file that is not a save: one line, exit 2."""
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    other = tmp_path / "other.json"
    other.write_text("[1, 2]")
    for command in ("verify", "replay", "report", "dicestats"):
        refused(cli(command, str(broken)), "not JSON")
        refused(cli(command, str(other)), "not a fleetref save file")


def test_negative_history_size_is_refused(tmp_path):
    """`sim --help`: "--history-kb: with --flash: flash kept for the journal's history of
    events (default 256, as on the Pico)". A negative amount of flash is bad input: one
    line and exit 2, not a simulator started with it."""
    out = cli(
        "sim",
        "--headless",
        "--flash",
        str(tmp_path),
        "--history-kb",
        "-1",
        "--scenario",
        "squadrons-d6-example",
        "--script",
        "docs/scripts/squadrons-d6-demo.txt",
        timeout=60,
    )
    refused(out, "history")
