"""Clocks for any game (docs/clock.md, docs/protocol.md `load`): the `load` command's
`settings` go over a shipped scenario's (or a roster's, or a ruleset's example fleets') own,
travel in the `game` line so the mirror replays the same state hash, and an unknown setting or
field is refused in one line that names it, the game in play unchanged; `fleetref sim` takes
`--clock MINUTES` and `--setting NAME=VALUE`."""

import json

import pytest

from support import ROOT
from support.process import cli
from support.game import make_referee
from referee import rules, scenarios
from referee.game import Game


def last(out):
    return json.loads(out[-1])


def game_line(out):
    return [json.loads(x) for x in out if json.loads(x).get("t") == "game"][-1]


@pytest.mark.parametrize(
    "load",
    [
        {"c": "load", "scenario": "hoth", "settings": {"clock_s": 2700, "clock_zero": 1}},
        {"c": "load", "ruleset": "smb", "settings": {"clock_s": 2700, "clock_zero": 1}},
    ],
)
def test_load_gives_a_shipped_scenario_clocks(load):
    app, out = make_referee("swsb-example")
    app.link.handle_line(json.dumps(load))
    g = app.game
    assert g.rules.name == "smb" and g.ext_state
    snap = g.snapshot()
    assert snap["clock"]["left"] == [2700, 2700] and snap["settings"]["clock_zero"] == 1
    # the game line carries the settings played with: the mirror builds the same game
    roster = game_line(out)["roster"]
    assert roster["settings"]["clock_s"] == 2700
    app.link.handle_line(json.dumps({"c": "roll", "values": [12, 4]}))
    norm, _ = scenarios.load_text(json.dumps(roster))
    mirror = Game(rules.get(norm["ruleset"]), norm)
    mirror.replay([json.loads(x)["ev"] for x in out if x.startswith('{"t":"ev"')])
    assert mirror.state_hash() == g.state_hash()


def test_load_settings_go_over_the_rosters_own():
    app, _out = make_referee("swsb-example")
    r = json.load(open(ROOT + "/firmware/rosters/swsb-example.json"))
    r.setdefault("settings", {})["damage_per_hit"] = 2
    app.link.handle_line(json.dumps({"c": "load", "roster": r, "settings": {"clock_s": 60}}))
    assert app.game.settings["damage_per_hit"] == 2 and app.game.settings["clock_s"] == 60


@pytest.mark.parametrize(
    "load, words",
    [
        ({"c": "load", "scenario": "hoth", "settings": {"clock_sec": 60}}, "'clock_sec'"),
        ({"c": "load", "scenario": "hoth", "settings": {"clock_s": -1}}, "clock_s"),
        ({"c": "load", "scenario": "hoth", "settings": {"clock_s": "45"}}, "clock_s"),
        ({"c": "load", "scenario": "hoth", "settings": [["clock_s", 60]]}, "settings"),
        ({"c": "load", "scenario": "hoth", "clock_s": 2700}, "'clock_s'"),
    ],
)
def test_unknown_or_bad_settings_are_refused_in_one_line(load, words):
    app, out = make_referee("swsb-example")
    before = (app.gid, app.game.state_hash(), len(out))
    app.link.handle_line(json.dumps(load))
    err = last(out)
    assert len(out) == before[2] + 1 and err["t"] == "err" and err["c"] == "load"
    assert words in err["msg"] and "\n" not in err["msg"]
    assert (app.gid, app.game.state_hash()) == before[:2]


def sim(*args):
    script = ROOT + "/tests/scripts/clock-roll.txt"
    return cli("sim", "--headless", "--seed", "1", *args, "--script", script)


@pytest.mark.parametrize(
    "args, settings",
    [
        (["--scenario", "hoth", "--clock", "45"], {"clock_s": 2700}),
        (
            [
                "--scenario",
                "swsb-example",
                "--setting",
                "clock_s=600",
                "--setting",
                "clock_zero=1",
            ],
            {"clock_s": 600, "clock_zero": 1},
        ),
        (
            ["--ruleset", "squadrons-d6", "--clock", "1.5", "--setting", "clock_inc_s=30"],
            {"clock_s": 90, "clock_inc_s": 30},
        ),
    ],
)
def test_sim_takes_clock_and_setting_options(args, settings):
    r = sim(*args)
    assert r.returncode == 0, r.stderr
    snap = json.loads(r.stdout.splitlines()[-1])
    for k, v in settings.items():
        assert snap["settings"][k] == v
    assert snap["clock"]["left"] == [settings["clock_s"]] * 2


@pytest.mark.parametrize(
    "args, words",
    [
        (["--scenario", "hoth", "--setting", "clok_s=60"], "unknown setting 'clok_s'"),
        (["--scenario", "hoth", "--setting", "clock_s"], "NAME=VALUE"),
        (["--scenario", "hoth", "--setting", "clock_s=ten"], "whole number"),
        (["--scenario", "hoth", "--clock", "-3"], "--clock"),
        (["--scenario", "hoth", "--clock", "45", "--setting", "clock_s=60"], "not both"),
    ],
)
def test_sim_refuses_bad_settings_in_one_line(args, words):
    r = sim(*args)
    assert r.returncode == 2 and r.stdout == ""
    err = [x for x in r.stderr.splitlines() if not x.startswith("fleetref sim: note:")]
    assert len(err) == 1 and words in err[0] and "Traceback" not in r.stderr, r.stderr


def test_sim_keeps_the_saved_games_settings_unless_new(tmp_path):
    flash = str(tmp_path / "flash")
    assert sim("--scenario", "hoth", "--flash", flash).returncode == 0
    r = sim("--flash", flash, "--clock", "45")
    assert r.returncode == 2 and "--new" in r.stderr and "Traceback" not in r.stderr
    r = sim("--flash", flash, "--clock", "45", "--new", "--scenario", "hoth")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout.splitlines()[-1])["clock"]["left"] == [2700, 2700]
