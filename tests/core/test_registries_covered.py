"""Every registered ruleset, shipped scenario, board profile and docs script is something the
coverage tests walk: the lists they walk are read from the registries (tests/support/registries),
so adding a ruleset, a scenario, a board or a script without what goes with it fails here."""

import os

from referee import rules, scenarios
from support import ROOT
from support.registries import (
    ROSTERS,
    SCRIPTS,
    board_names,
    ruleset_of,
    rulesets,
    scenario_names,
    script_of_ruleset,
    script_plays,
)
from host_tools.sim import script as scriptmod


def test_every_ruleset_has_an_example_scenario_that_plays_it():
    for name in rulesets():
        example = rules.get(name).example
        assert example in scenario_names(), (name, example)
        assert ruleset_of(example) == name, (name, example)


def test_every_ruleset_has_a_docs_script():
    # the report, replay, wording and dashboard tests play one script per ruleset
    assert sorted(script_of_ruleset()) == rulesets()


def test_every_docs_script_names_a_shipped_scenario_and_parses():
    plays = script_plays()
    assert plays, "no docs scripts found in " + SCRIPTS
    for script, scenario in plays.items():
        assert scenario in scenario_names(), (script, scenario)
        with open(os.path.join(SCRIPTS, script)) as f:
            assert scriptmod.parse(f.read()), script


def test_every_shipped_scenario_names_a_registered_ruleset():
    names = scenario_names()
    assert "hoth" in names
    for name in names:
        with open(os.path.join(ROSTERS, name + ".json")) as f:
            norm, _raw = scenarios.load_text(f.read())
        assert norm["ruleset"] in rulesets(), name


def test_every_board_has_maker_docs_and_a_legend_per_ruleset():
    names = board_names()
    assert "pico-ws2812-16x16" in names
    with open(os.path.join(ROOT, "docs", "build.md")) as f:
        guide = f.read()
    for board in names:
        assert board in guide, board
        for ruleset in rulesets():
            legend = os.path.join(ROOT, "docs", "keymap-%s-%s.svg" % (board, ruleset))
            assert os.path.exists(legend), legend
