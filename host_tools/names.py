"""Names a user types (scenario, ruleset, roster file, board profile) checked before use,
with "did you mean" answers (difflib) instead of an errno or a traceback."""

import difflib
import os

from host_tools import BOARDS, ROSTERS


class NameError_(ValueError):
    """An unknown name; the message says what is known and the closest matches."""


def suggest(name, known):
    """Up to 3 close matches of ``name`` among ``known`` (difflib), best first."""
    return difflib.get_close_matches(name, list(known), n=3, cutoff=0.5)


def unknown(kind, name, known):
    """The sentence for an unknown ``kind`` called ``name``."""
    close = suggest(name, known)
    msg = "no %s %r" % (kind, name)
    if close:
        msg += "; did you mean %s?" % " or ".join(repr(c) for c in close)
    msg += " (known: %s)" % ", ".join(sorted(known))
    return msg


def scenario_names(base=None):
    from referee import scenarios

    return scenarios.list_names(base or ROSTERS)


def check_scenario(name, base=None):
    """``name`` if it is a scenario in ``base`` (default firmware/rosters); else NameError_."""
    known = scenario_names(base)
    if name not in known:
        raise NameError_(unknown("scenario", name, known))
    return name


def check_ruleset(name):
    from referee import rules

    if name not in rules.RULESETS:
        raise NameError_(unknown("ruleset", name, rules.RULESETS))
    return name


def check_board(name):
    known = sorted(f[:-5] for f in os.listdir(BOARDS) if f.endswith(".json"))
    if name not in known:
        raise NameError_(unknown("board profile", name, known))
    return name


def check_roster_file(path):
    """``path`` if the file exists; NameError_ when it is not a regular file, else naming
    close files in its folder (and the scenario of that name, when one is meant)."""
    if os.path.isfile(path):
        return path
    if os.path.exists(path):
        raise NameError_("roster file %s is not a regular file" % path)
    folder = os.path.dirname(path) or "."
    base = os.path.basename(path)
    try:
        files = [f for f in os.listdir(folder) if f.endswith((".json", ".toml"))]
    except OSError:
        files = []
    close = suggest(base, files)
    msg = "roster file %s not found" % path
    if close:
        msg += "; did you mean %s?" % " or ".join(
            os.path.join(folder, c) if folder != "." else c for c in close
        )
    stem = os.path.splitext(base)[0]
    if stem in scenario_names():
        msg += " (%r is a scenario: use --scenario %s)" % (stem, stem)
    raise NameError_(msg)
