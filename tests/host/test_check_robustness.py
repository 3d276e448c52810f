"""Robustness at the public interfaces, checked from the outside only.

docs/protocol.md "Errors": "A line that is not printable, not JSON, not an object, has no
string `c`, names an unknown command, or has bad arguments gets one `err` line and changes
nothing; the board goes on with the next line." "`undo` reverts the newest event still in
effect". `state_hash` is the CRC-32 of the state's canonical bytes, so an undo must give back
the hash of the state before the event it reverts. `fleetref load --help`: "Put a saved game
... back onto a board", so save -> load gives the same game (same seq and hash). Working
rules: "Bad input gets one clear line and changes nothing; no traceback reaches a user."

Rosters and ship numbers as in tests/rules/test_check_games.py."""

import csv
import json
import os

import pytest

from support.checkhost import host_fixture, new_game, start
from support.process import cli
from support.rosters import ship, two_sides


host = host_fixture("--scenario", "swsb-example", "--seed", "5")


def state(snap):
    """What an undo must give back: the hash and every derived field but the event count
    (an undo is itself an event in the log) and the last attack's roll (a report of the
    newest attack, not state)."""
    profile = {k: v for k, v in snap["profile"].items() if k != "last_attack"}
    keep = ("state_hash", "round", "phase", "initiative", "moves_first", "rolls", "active")
    keep += ("ships", "chart", "winner")
    return dict({key: snap[key] for key in keep}, profile=profile)


def undone(host, cmd):
    """Apply ``cmd`` (it must be accepted and change the state), undo it, and check that the
    board is back where it was. Applies ``cmd`` again and returns the snap after it."""
    _, before = host.send({"c": "snap"})
    after = host.ok(cmd)
    assert after["seq"] == before["seq"] + 1, (cmd, after["seq"])
    assert after["state_hash"] != before["state_hash"], cmd
    back = host.ok({"c": "undo"})
    assert state(back) == state(before), cmd
    again = host.ok(cmd)
    assert again["state_hash"] == after["state_hash"], cmd
    return again


# ---- undo after every kind of event -------------------------------------------------------


def test_undo_swsb_roll_phase_counter_launch_hit_aim_attack_done_round_end(host):
    new_game(host, scenario="swsb-example")
    undone(host, {"c": "roll", "values": [9, 9]})
    undone(host, {"c": "roll", "values": [4, 13]})
    undone(host, {"c": "phase"})
    undone(host, {"c": "counter", "ship": 5, "option": 1})
    undone(host, {"c": "counter", "ship": 0, "option": 2, "for": 0})
    undone(host, {"c": "launch", "ship": 7})
    undone(host, {"c": "phase"})
    undone(host, {"c": "aim", "ship": 5, "weapon": 1, "arg": 0})
    undone(host, {"c": "phase"})
    undone(host, {"c": "aim", "ship": 5, "weapon": 0, "arg": 0})
    undone(host, {"c": "attack", "ship": 5, "target": 1, "roll": 19})
    undone(host, {"c": "hit", "ship": 2, "n": 2})
    undone(host, {"c": "hit", "ship": 2, "n": -1})
    undone(host, {"c": "done", "ship": 5})
    undone(host, {"c": "hit", "ship": 7, "n": 1})
    snap = undone(host, {"c": "phase"})  # the damage phase: pending damage lands
    assert snap["phase"] == "damage"
    snap = undone(host, {"c": "phase"})  # end of round: the chart is cleared
    assert snap["round"] == 2


EMPERORS_WILL = two_sides(
    "Emperor's Will",
    "swsb",
    [
        ship("Flagship", 1, [4, 2], {"emperors_will": True}),
        ship("TIE", 4, 1, {"infinite": True}, count=2),
    ],
    [ship("Cruiser", 2, [6, 4])],
    sides=("Dark", "Light"),
)


def test_undo_swsb_transfer_and_infinite_return(host):
    new_game(host, roster=EMPERORS_WILL)
    host.ok({"c": "roll", "values": [2, 15]})
    for _ in range(3):
        host.ok({"c": "phase"})
    host.ok({"c": "hit", "ship": 0, "n": 2})
    undone(host, {"c": "transfer", "ship": 0, "to": 1, "n": 1})
    host.ok({"c": "hit", "ship": 2, "n": 2})
    undone(host, {"c": "phase"})  # damage lands: the Infinite TIE goes back to the pool


def test_undo_smb_launch_move_power_respond_ion_exit_and_win(host):
    new_game(host, scenario="hoth")
    undone(host, {"c": "roll", "values": [15, 3]})
    undone(host, {"c": "phase"})
    undone(host, {"c": "launch", "ship": 1})
    undone(host, {"c": "move", "ship": 0, "mode": 2})
    undone(host, {"c": "move", "ship": 1, "mode": 3})
    undone(host, {"c": "aim", "ship": 1, "weapon": 6, "arg": 0})
    undone(host, {"c": "attack", "ship": 1, "target": 4, "roll": 19})
    undone(host, {"c": "move", "ship": 5, "turns": 2})
    undone(host, {"c": "respond", "ship": 1, "mover": 5, "kind": 1})
    undone(host, {"c": "move", "ship": 6})
    undone(host, {"c": "move", "ship": 4})
    snap = undone(host, {"c": "exit", "ship": 4, "kind": 1})
    assert snap["winner"] == 1
    host.ok({"c": "undo"})
    host.ok({"c": "phase"})
    undone(host, {"c": "ion", "ship": 0, "roll": 3, "facing": 0})
    snap = undone(host, {"c": "phase"})
    assert snap["round"] == 2


def test_undo_addon_choose_move_turns_done(host):
    new_game(host, scenario="swsb-addon-example")
    undone(host, {"c": "roll", "values": [6, 14]})
    undone(host, {"c": "phase"})
    undone(host, {"c": "choose", "side": 1})
    undone(host, {"c": "move", "ship": 4, "turns": 2})
    undone(host, {"c": "move", "ship": 5})
    undone(host, {"c": "move", "ship": 0})
    undone(host, {"c": "counter", "ship": 5, "option": 4})
    undone(host, {"c": "phase"})
    undone(host, {"c": "aim", "ship": 4, "weapon": 2, "arg": 5})
    undone(host, {"c": "attack", "ship": 4, "target": 0, "roll": 18})
    undone(host, {"c": "done", "ship": 4})


def test_undo_squadrons_and_xwing(host):
    new_game(host, ruleset="squadrons-d6")
    undone(host, {"c": "move", "ship": 0, "mode": 2, "hexes": 12, "turns": 1})
    new_game(host, scenario="xwing-overlap-example")
    undone(host, {"c": "overlap", "ship": 3, "other": 4, "dice": [1]})
    undone(host, {"c": "overlap", "ship": 0, "other": 5})
    undone(host, {"c": "overlap", "ship": 7, "other": 2})
    undone(host, {"c": "phase"})


# ---- save -> load -> the same game, per ruleset ---------------------------------------------

GAMES = {
    "swsb": (
        ("--scenario", "swsb-example"),
        [
            {"c": "roll", "values": [4, 13]},
            {"c": "phase"},
            {"c": "counter", "ship": 5, "option": 1},
            {"c": "launch", "ship": 7},
            {"c": "phase"},
            {"c": "phase"},
            {"c": "hit", "ship": 1, "n": 2},
        ],
        {"c": "phase"},
    ),
    "swsb-addon": (
        ("--scenario", "swsb-addon-example"),
        [
            {"c": "roll", "values": [6, 14]},
            {"c": "phase"},
            {"c": "choose", "side": 1},
            {"c": "move", "ship": 4, "turns": 2},
        ],
        {"c": "move", "ship": 5},
    ),
    "smb": (
        ("--scenario", "hoth"),
        [
            {"c": "roll", "values": [15, 3]},
            {"c": "phase"},
            {"c": "launch", "ship": 1},
            {"c": "move", "ship": 0},
            {"c": "move", "ship": 1, "mode": 3},
            {"c": "aim", "ship": 1, "weapon": 6, "arg": 0},
            {"c": "attack", "ship": 1, "target": 4, "roll": 19},
        ],
        {"c": "move", "ship": 4},
    ),
    "squadrons-d6": (
        ("--ruleset", "squadrons-d6"),
        [{"c": "move", "ship": 0, "mode": 2, "hexes": 12, "turns": 1}],
        {"c": "move", "ship": 1, "mode": 2},
    ),
    "xwing-overlap": (
        ("--scenario", "xwing-overlap-example"),
        [{"c": "overlap", "ship": 3, "other": 4, "dice": [1]}, {"c": "undo"}],
        {"c": "overlap", "ship": 0, "other": 5},
    ),
}


@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_save_then_load_gives_the_same_game(ruleset, tmp_path):
    """`fleetref save` a game of each ruleset, `fleetref load --force` it onto a fresh
    simulator: the same seq and state hash, and the next event gives the same hash on both
    boards (the loaded game goes on exactly as the saved one)."""
    args, events, following = GAMES[ruleset]
    sim_a, board_a = start(*args, "--seed", "11")
    sim_b, board_b = start("--ruleset", "swsb", "--seed", "12")
    try:
        for cmd in events:
            board_a.ok(cmd)
        _, saved = board_a.send({"c": "snap"})
        path = tmp_path / "game.json"
        out = cli("save", "--port", sim_a.port, str(path))
        assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
        out = cli("load", "--force", "--port", sim_b.port, str(path))
        assert out.returncode == 0 and "Traceback" not in out.stderr, out.stdout + out.stderr
        _, loaded = board_b.send({"c": "snap"})
        assert (loaded["seq"], loaded["state_hash"]) == (saved["seq"], saved["state_hash"])
        assert state(loaded) == state(saved)
        after_a = board_a.ok(following)
        after_b = board_b.ok(following)
        assert after_a["state_hash"] == after_b["state_hash"]
    finally:
        for sim, board in ((sim_a, board_a), (sim_b, board_b)):
            board.close()
            sim.stop()


# ---- bad lines for each ruleset's own commands ----------------------------------------------

BAD = {
    "swsb-example": [
        '{"c":"roll","values":[0,5]}',
        '{"c":"roll","values":[21,3]}',
        '{"c":"roll","values":[5]}',
        '{"c":"roll","values":[5,6,7]}',
        '{"c":"roll","values":[5.5,6]}',
        '{"c":"roll","values":["5",6]}',
        '{"c":"roll","values":"56"}',
        '{"c":"roll","values":[true,6]}',
        '{"c":"counter","ship":0,"option":99}',
        '{"c":"counter","ship":0,"option":-1}',
        '{"c":"counter","ship":0,"option":"No Such Option"}',
        '{"c":"counter","ship":0,"option":1,"for":99}',
        '{"c":"counter","ship":0,"option":[1]}',
        '{"c":"counter","ship":0}',
        '{"c":"hit","ship":0,"n":"2"}',
        '{"c":"hit","ship":0,"n":0}',
        '{"c":"hit","ship":0,"by":99}',
        '{"c":"hit","ship":0,"by":-3}',
        '{"c":"hit","ship":96}',
        '{"c":"hit","ship":null}',
        '{"c":"hit","ship":{}}',
        '{"c":"hit","ship":"mon calamari cruiser"}',
        '{"c":"launch","ship":0}',
        '{"c":"launch","ship":99}',
        '{"c":"aim","ship":5,"weapon":9,"arg":0}',
        '{"c":"aim","ship":5,"weapon":"0","arg":0}',
        '{"c":"aim","ship":5,"weapon":0}',
        '{"c":"attack","ship":5,"target":5,"roll":10}',
        '{"c":"attack","ship":5,"target":1,"roll":0}',
        '{"c":"attack","ship":5,"target":1,"roll":21}',
        '{"c":"transfer","ship":0,"to":3,"n":1}',
        '{"c":"done","ship":99}',
        '{"c":"phase","x":' + "1" * 5000 + "}",
        '{"c":"ion","ship":0,"roll":5,"facing":0}',
        '{"c":"power","ship":0}',
        '{"c":"choose","side":0}',
        '{"c":"overlap","ship":0,"other":5}',
        '{"c":"exit","ship":0,"kind":1}',
        '{"c":"respond","ship":0,"mover":5,"kind":1}',
        '{"c":"key","key":5}',
        '{"c":"key"}',
        '{"c":"load","ruleset":"swsb","settings":{"tie_hits":5}}',
        '{"c":"load","ruleset":"swsb","settings":{"tie_hits":"1"}}',
        '{"c":"load","ruleset":"swsb","settings":[]}',
        '{"c":"load","ruleset":"nosuch"}',
        '{"c":"load","scenario":5}',
        '{"c":"base","base_seq":0,"base":"zz"}',
        '{"c":"append","events":[[99,0,0,0]]}',
        '{"c":"append","events":"x"}',
        '{"c":"events","since":1.5}',
        '{"c":"' + "x" * 17000 + '"}',
        "{" * 20000,
        '{"c":"snap"' + " " * 17000 + "}",
        "\x7f",
        '"snap"',
        "null",
        "{}",
    ],
    "hoth": [
        '{"c":"move","ship":0,"mode":4}',
        '{"c":"move","ship":0,"mode":1,"turns":2}',
        '{"c":"move","ship":0,"mode":2,"turns":1}',
        '{"c":"move","ship":1}',
        '{"c":"move","ship":4}',
        '{"c":"move","ship":0,"turns":-1}',
        '{"c":"ion","ship":0,"roll":5,"facing":3}',
        '{"c":"ion","ship":0,"roll":25,"facing":0}',
        '{"c":"ion","ship":5,"roll":5,"facing":0}',
        '{"c":"exit","ship":4,"kind":3}',
        '{"c":"exit","ship":4,"kind":1}',
        '{"c":"respond","ship":5,"mover":0,"kind":3}',
        '{"c":"respond","ship":5,"mover":5,"kind":1}',
        '{"c":"aim","ship":0,"weapon":4,"arg":3}',
        '{"c":"aim","ship":0,"weapon":4,"arg":-1}',
        '{"c":"power","ship":99}',
        '{"c":"launch","ship":5}',
        '{"c":"counter","ship":0,"option":0}',
        '{"c":"roll","values":[3,3,3]}',
    ],
    "xwing-overlap-example": [
        '{"c":"overlap","ship":3,"other":4,"dice":[0]}',
        '{"c":"overlap","ship":3,"other":4,"dice":[9]}',
        '{"c":"overlap","ship":3,"other":4,"dice":"1"}',
        '{"c":"overlap","ship":3,"other":4,"dice":[1,1,1,1,1,1,1,1,1,1]}',
        '{"c":"overlap","ship":3,"other":3}',
        '{"c":"overlap","ship":0,"other":99}',
    ],
    "swsb-addon-example": [
        '{"c":"choose","side":2}',
        '{"c":"choose","side":-1}',
        '{"c":"choose","side":"0"}',
        '{"c":"move","ship":0,"turns":10}',
        '{"c":"aim","ship":0,"weapon":0,"arg":-5}',
        '{"c":"aim","ship":0,"weapon":0,"arg":1000000}',
    ],
}

CASES = [(scenario, line) for scenario, lines in BAD.items() for line in lines]


@pytest.fixture(scope="module")
def played(host):
    """Per scenario, a game with a few events in play (so 'changes nothing' is seen)."""
    setups = {
        "swsb-example": [{"c": "roll", "values": [4, 13]}, {"c": "phase"}],
        "hoth": [{"c": "roll", "values": [15, 3]}, {"c": "phase"}],
        "xwing-overlap-example": [{"c": "overlap", "ship": 0, "other": 5}],
        "swsb-addon-example": [{"c": "roll", "values": [6, 14]}, {"c": "phase"}],
    }
    current = {"name": None}

    def use(scenario):
        if current["name"] != scenario:
            new_game(host, scenario=scenario)
            for cmd in setups[scenario]:
                host.ok(cmd)
            current["name"] = scenario
        return host

    return use


@pytest.mark.parametrize("scenario,line", CASES, ids=range(len(CASES)))
def test_bad_line_gets_one_err_and_changes_nothing(played, scenario, line):
    board = played(scenario)
    msg = board.refused(line)
    assert msg and "\n" not in msg and "Traceback" not in msg, msg
    # the board goes on with the next line
    _, snap = board.send({"c": "snap"})
    assert snap["t"] == "snap"


# ---- the CLI never shows a traceback --------------------------------------------------------


def one_line_failure(out):
    assert out.returncode != 0, (out.returncode, out.stdout, out.stderr)
    assert "Traceback" not in out.stderr + out.stdout, out.stderr
    assert len(out.stderr.strip().splitlines()) == 1, out.stderr


def save_file(tmp_path, doc):
    path = tmp_path / "doc.json"
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return str(path)


@pytest.mark.parametrize(
    "doc",
    [
        {},
        {"events": []},
        {"events": "x"},
        {"events": [{"ev": [1, 2]}]},
        {"format": 999, "events": []},
        [],
        "\x00\x01\x02",
        "",
    ],
    ids=range(8),
)
def test_replay_verify_report_on_broken_saves(tmp_path, capsys, monkeypatch, doc):
    """Files that are no save: each reader refuses them in one line (status 2)."""
    monkeypatch.chdir(tmp_path)
    path = save_file(tmp_path, doc)
    for command in (("replay", "--check"), ("verify",), ("dicestats",), ("report",)):
        status, err = in_process(capsys, *command, path)
        assert status == 2 and len(err.strip().splitlines()) == 1, (command, status, err)


def mutations(data):
    """Copies of a save with one field (top level, in `game`, in the first event) given a
    value of the wrong type."""
    wrong = (None, "x", -1, [], {}, 1e308)
    out = []
    for key in data:
        out += [dict(data, **{key: value}) for value in wrong if data[key] != value]
    for key in data["game"]:
        out += [
            dict(data, game=dict(data["game"], **{key: value}))
            for value in wrong
            if data["game"][key] != value
        ]
    first = data["events"][0]
    for key in first:
        for value in wrong + ([1, 99, 3, 1], [2**40, 0, 0, 0]):
            if first[key] != value:
                event = dict(first, **{key: value})
                out.append(dict(data, events=[event] + data["events"][1:]))
    return out


def in_process(capsys, *args):
    """Run the fleetref command in this process: an exception other than SystemExit would
    be a traceback for the user. Returns (status, stderr)."""
    from host_tools import cli as fleetref

    try:
        status = fleetref.main(list(args))
    except SystemExit as stop:
        status = stop.code
    err = capsys.readouterr().err
    return status, err


def test_broken_real_save_fields_get_one_line(tmp_path, capsys, monkeypatch):
    """A real save with one field changed to a wrong type: replay, verify, report and
    dicestats either take it or refuse it in one line, never a traceback; `load` refuses
    a few of them without a traceback and leaves the board's game alone."""
    monkeypatch.chdir(tmp_path)
    sim, board = start("--scenario", "hoth", "--seed", "3")
    try:
        board.ok({"c": "roll", "values": [15, 3]})
        board.ok({"c": "phase"})
        good = tmp_path / "good.json"
        out = cli("save", "--port", sim.port, str(good))
        assert out.returncode == 0, out.stderr
        data = json.loads(good.read_text())
        bad = mutations(data)
        assert len(bad) > 50
        problems = []
        for number, mutated in enumerate(bad):
            path = tmp_path / ("bad%d.json" % number)
            path.write_text(json.dumps(mutated))
            commands = [("replay", "--check"), ("verify",), ("dicestats",)]
            if number % 4 == 0:  # a report draws a plot: slower, so a quarter of them
                commands.append(("report",))
            for command in commands:
                try:
                    status, err = in_process(capsys, *command, str(path))
                except Exception as crash:  # noqa: BLE001 - what a user would see as a traceback
                    problems.append((command[0], number, repr(crash)[:200]))
                    continue
                # replay --help: "exit status 0: every hash matched, 1: the file breaks, 2:
                # it cannot be read"; a refusal (2) is one line
                if status == 2 and len(err.strip().splitlines()) != 1:
                    problems.append((command[0], number, err[:300]))
        _, before = board.send({"c": "snap"})
        for number in (0, len(bad) // 2, len(bad) - 1):
            out = cli(
                "load", "--force", "--port", sim.port, str(tmp_path / ("bad%d.json" % number))
            )
            if "Traceback" in out.stderr + out.stdout:
                problems.append(("load", number, out.stderr[-300:]))
        _, after = board.send({"c": "snap"})
    finally:
        board.close()
        sim.stop()
    assert not problems, problems
    assert after["state_hash"] == before["state_hash"]


@pytest.mark.parametrize(
    "args",
    [
        ("legend", "--scenario", "nosuch"),
        ("legend", "--roster", "/nonexistent.json"),
        ("legend", "--scenario", "hoth", "--pitch", "-3"),
        ("legend", "--scenario", "hoth", "--pitch", "abc"),
        ("roster", "check", "/"),
        ("roster", "check", "/dev/null"),
        ("roster", "push", "/nonexistent.json", "--port", "/nonexistent"),
        ("report", "/"),
        ("replay", "--check", "/"),
        ("save", "--port", "/nonexistent", "/"),
        ("load", "--port", "/nonexistent", "/nonexistent.json"),
        ("sim", "--roster", "/nonexistent.json", "--headless"),
        ("sim", "--roster", "/dev/null", "--headless"),
        ("sim", "--scenario", "hoth", "--setting", "tie_hits=7", "--headless"),
        ("sim", "--scenario", "hoth", "--setting", "nosuch=1", "--headless"),
        ("demo", "--nosuch"),
        ("nosuchcommand",),
    ],
    ids=range(17),
)
def test_cli_bad_arguments_one_line_no_traceback(args):
    one_line_failure(cli(*args, timeout=60))


def test_mirror_that_cannot_open_its_port_leaves_no_log_behind(tmp_path):
    """Working rules: "Bad input gets one clear line and changes nothing". `fleetref mirror
    --log LOG --port P` with a port that does not exist is refused in one line; it must
    not leave a new, empty LOG behind (an empty file that `replay`, `report`, `verify`
    then refuse as "not JSON")."""
    log = tmp_path / "game.jsonl"
    out = cli("mirror", "--log", str(log), "--port", str(tmp_path / "no-such-port"))
    one_line_failure(out)
    assert not log.exists(), "an empty log was left: %d bytes" % log.stat().st_size


def test_mirror_that_cannot_open_its_port_leaves_an_existing_log_as_it_was(tmp_path):
    """Working rules: "Bad input gets one clear line and changes nothing": a log from an
    earlier session keeps its bytes and its time of change when the port cannot be had."""
    log = tmp_path / "game.jsonl"
    log.write_text('{"game": {}}\n')
    os.utime(log, (1_000_000, 1_000_000))
    out = cli("mirror", "--log", str(log), "--port", str(tmp_path / "no-such-port"))
    one_line_failure(out)
    assert log.read_text() == '{"game": {}}\n' and log.stat().st_mtime == 1_000_000


def test_mirror_and_report_agree_with_a_hand_worked_hoth_game(tmp_path):
    """Seed 004, Escape from Hoth, worked by hand (as in tests/rules/test_check_games.py):
    round 1 (15 v 3, the Empire) the Main Guns hit the Transport (15 + 5 = 20 >= 14);
    round 2 (8 v 8: a tie, the Empire keeps it) a second hit (10 + 5 = 15 >= 14): "Takes 2
    hits to destroy": destroyed at the end of the capital weapons phase, and "The Imperial
    Player wins if they destroy the Troop Transport". `fleetref mirror --once --json`
    replays the game with the same rules: the board's hash, round 3, winner 0. `fleetref
    report --csv` puts the round-2 roll (seq 9 ... ) in round 2: each row's round is the
    round the event was made in."""
    sim, board = start("--scenario", "hoth", "--seed", "6")
    try:
        rounds = {}
        for number, (values, roll) in enumerate((([15, 3], 15), ([8, 8], 10)), start=1):
            for cmd in (
                {"c": "roll", "values": values},
                {"c": "phase"},
                {"c": "move", "ship": 0},
                {"c": "move", "ship": 4},
                {"c": "move", "ship": 5},
                {"c": "move", "ship": 6},
                {"c": "phase"},
                {"c": "aim", "ship": 0, "weapon": 4, "arg": 0},
                {"c": "attack", "ship": 0, "target": 4, "roll": roll},
            ):
                snap = board.ok(cmd)
                rounds[snap["seq"]] = (number, cmd["c"])
            snap = board.ok({"c": "phase"})
        assert snap["winner"] == 0 and snap["ships"][4]["status"] == "destroyed"
        out = cli("mirror", "--once", "--json", "--port", sim.port)
        assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
        mirrored = json.loads(out.stdout.strip().splitlines()[-1])
        assert mirrored["state_hash"] == snap["state_hash"]
        assert mirrored["winner"] == 0
        path = tmp_path / "hoth.json"
        assert cli("save", "--port", sim.port, str(path)).returncode == 0
        csv_path = tmp_path / "hoth.csv"
        out = cli("report", "--csv", str(csv_path), str(path))
        assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
    finally:
        board.close()
        sim.stop()
    with open(csv_path, newline="") as handle:
        rows = list(csv.DictReader(handle))
    by_seq = {int(row["seq"]): row for row in rows}
    for seq, (number, command) in rounds.items():
        assert int(by_seq[seq]["round"]) == number, (seq, command, by_seq[seq])
