"""What the coverage tests walk, read from the project's own registries instead of hand-kept
lists: the rulesets (``RULESETS`` in firmware/referee/rules/__init__.py), the scenarios (the
roster files in firmware/rosters/, listed by the firmware's own ``scenarios.list_names``), the
board profiles (boards/*.json) and the docs scripts (docs/scripts/*.txt, each naming the
scenario it plays in a ``# plays: NAME`` line)."""

import json
import os
import re

from referee import scenarios
from referee.rules import RULESETS
from support import ROOT

ROSTERS = os.path.join(ROOT, "firmware", "rosters")
BOARDS = os.path.join(ROOT, "boards")
SCRIPTS = os.path.join(ROOT, "docs", "scripts")
PLAYS_LINE = re.compile(r"^# plays: ([A-Za-z0-9_.-]+)\s*$", re.MULTILINE)


def rulesets():
    """Sorted ruleset names, as the firmware registers them."""
    return sorted(RULESETS)


def scenario_names():
    """Sorted scenario names shipped in firmware/rosters/."""
    return scenarios.list_names(ROSTERS)


def ruleset_of(scenario):
    """The ruleset a shipped scenario plays (its roster's ``ruleset`` field)."""
    with open(os.path.join(ROSTERS, scenario + ".json")) as f:
        return json.load(f)["ruleset"]


def board_names():
    """Sorted board profile names (boards/<name>.json)."""
    return sorted(f[:-5] for f in os.listdir(BOARDS) if f.endswith(".json"))


def script_plays():
    """{docs script file name: the scenario it plays}, from each script's ``# plays:`` line.
    Raises AssertionError naming a script without exactly one such line."""
    out = {}
    for name in sorted(os.listdir(SCRIPTS)):
        if not name.endswith(".txt"):
            continue
        with open(os.path.join(SCRIPTS, name)) as f:
            found = PLAYS_LINE.findall(f.read())
        assert len(found) == 1, "%s: needs one '# plays: SCENARIO' line" % name
        out[name] = found[0]
    return out


def script_of_ruleset():
    """{ruleset: (docs script, scenario)}: the script that shows each ruleset (the first by
    file name when several play it). A script whose scenario is not shipped shows none
    (test_registries_covered names it)."""
    out = {}
    shipped = scenario_names()
    for script, scenario in script_plays().items():
        if scenario not in shipped:
            continue
        out.setdefault(ruleset_of(scenario), (script, scenario))
    return out


def rulesets_missing_from(table):
    """The sorted names of the registered rulesets that ``table`` (keyed by ruleset name)
    lacks: a table a test keeps by hand fails with them, saying what to add."""
    return sorted(set(RULESETS) - set(table))
