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

# how to run the checkout's own `fleetref` (CONTRIBUTING.md, "Running things")
PICTURES = (
    "`fleetref pictures` (in a checkout: "
    "PYTHONPATH=firmware .venv/bin/python -m host_tools.cli pictures)"
)
MIP = "`python -m devtools.mip_package` (it rewrites firmware/package.json)"


def test_every_ruleset_has_an_example_scenario_that_plays_it():
    for name in rulesets():
        example = rules.get(name).example
        assert example in scenario_names(), (
            "ruleset %r: its `example` is %r, but firmware/rosters/%s.json does not exist: add "
            "the example roster there (CONTRIBUTING.md, 'A new ruleset', step 3), then run %s"
            % (name, example, example, MIP)
        )
        assert ruleset_of(example) == name, (
            "ruleset %r: its example firmware/rosters/%s.json plays %r: set its `ruleset` "
            "field to %r, or point the ruleset's `example` at a scenario of its own"
            % (name, example, ruleset_of(example), name)
        )


def test_every_ruleset_has_a_docs_script():
    # the report, replay, wording and dashboard tests play one script per ruleset
    shown = script_of_ruleset()
    missing = [name for name in rulesets() if name not in shown]
    assert not missing, (
        "no docs script plays %s: add docs/scripts/<name>-demo.txt, key presses that play the "
        "ruleset's example scenario, with a '# plays: SCENARIO' line (CONTRIBUTING.md, 'A new "
        "ruleset', step 6); the scenarios: %s"
        % (missing, ", ".join("%s: %s" % (name, rules.get(name).example) for name in missing))
    )
    unknown = sorted(set(shown) - set(rulesets()))
    assert not unknown, "docs scripts play rulesets not in RULESETS: %s" % unknown


def test_every_docs_script_names_a_shipped_scenario_and_parses():
    plays = script_plays()
    assert plays, "no docs scripts found in " + SCRIPTS
    for script, scenario in plays.items():
        assert scenario in scenario_names(), (
            "docs/scripts/%s plays %r ('# plays:' line), but firmware/rosters/%s.json is not "
            "shipped: name a scenario of firmware/rosters/ (%s) or add the roster and run %s"
            % (script, scenario, scenario, ", ".join(scenario_names()), MIP)
        )
        with open(os.path.join(SCRIPTS, script)) as f:
            assert scriptmod.parse(f.read()), (
                "docs/scripts/%s holds no key presses (host_tools/sim/script.py parses it)"
                % script
            )


def test_every_shipped_scenario_names_a_registered_ruleset():
    names = scenario_names()
    assert "hoth" in names
    for name in names:
        with open(os.path.join(ROSTERS, name + ".json")) as f:
            norm, _raw = scenarios.load_text(f.read())
        assert norm["ruleset"] in rulesets(), (
            "firmware/rosters/%s.json plays ruleset %r, which is not in RULESETS "
            "(firmware/referee/rules/__init__.py): register the ruleset there or fix the "
            "roster's `ruleset` field" % (name, norm["ruleset"])
        )


def test_every_board_has_maker_docs_and_a_legend_per_ruleset():
    names = board_names()
    assert "pico-ws2812-16x16" in names
    with open(os.path.join(ROOT, "docs", "build.md")) as f:
        guide = f.read()
    unguided = [board for board in names if board not in guide]
    assert not unguided, (
        "docs/build.md does not name the board profile(s) %s: run %s, which writes the build "
        "guide's section for every profile in boards/ (a new pair of drivers gets its wording "
        "in host_tools/board/buildguide_boards.py SECTIONS; CONTRIBUTING.md, 'A new board')"
        % (unguided, PICTURES)
    )
    missing = [
        "docs/keymap-%s-%s.svg" % (board, ruleset)
        for board in names
        for ruleset in rulesets()
        if not os.path.exists(os.path.join(ROOT, "docs", "keymap-%s-%s.svg" % (board, ruleset)))
    ]
    assert not missing, (
        "missing key-map legends %s: run %s, which writes a legend for each board and "
        "ruleset of the boards host_tools/board/buildguide.py names (`files`: a new board "
        "goes there first) and rewrites docs/build.md; commit the new files" % (missing, PICTURES)
    )
