"""The core names no ruleset: outside referee/rules/, no code of the firmware or the
host tools mentions a ruleset, its module, or one of its own event kinds or stats; a ruleset's
code is imported only when a game uses it."""

import ast
import glob
import os

from referee.rules import RULESETS
from support import ROOT
from support.process import python

FW = os.path.join(ROOT, "firmware", "referee")
RULES_DIR = os.path.join(FW, "rules")
# a ruleset's own words the registry cannot tell apart from the core's (its event kinds and
# stats are words as "move" or "size"): a new ruleset's distinctive words go here
OWN_WORDS = (
    "snub",
    "ion",
    "broadside",
    "emperor",
    "cloak",
    "transport",
    "destroyer",
)


def ruleset_modules():
    """Every module of referee/rules/ but the registry and ``base``: the rulesets of
    ``RULESETS``, their helpers (``<module>_<part>``) and shared families (``d20``)."""
    names = (os.path.basename(f)[:-3] for f in glob.glob(os.path.join(RULES_DIR, "*.py")))
    return sorted(n for n in names if n not in ("__init__", "base"))


def ruleset_words():
    """The words of every registered ruleset's name and module (``swsb-addon`` gives
    ``swsb`` and ``addon``), read from ``RULESETS``, and the hand-kept ``OWN_WORDS``."""
    words = set(OWN_WORDS)
    for name, module in RULESETS.items():
        words.update(tokens(name))
        words.update(tokens(module))
    return words


def code_words(path):
    """Names and string constants of a module's code (docstrings and comments left out)."""
    tree = ast.parse(open(path).read())
    docs = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef))
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        ):
            docs.add(id(node.body[0].value))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            out.append(node.id)
        elif isinstance(node, ast.Attribute):
            out.append(node.attr)
        elif (
            isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs
        ):
            out.append(node.value)
    return out


def tokens(text):
    out = []
    w = ""
    for ch in text.lower() + " ":
        if ch.isalnum():
            w += ch
        else:
            if w:
                out.append(w)
            w = ""
    return out


def test_core_names_no_ruleset():
    words = ruleset_words()
    prefixes = tuple(w for w in words if len(w) >= 4)
    bad = []
    for f in sorted(glob.glob(os.path.join(FW, "*.py"))):
        for w in code_words(f):
            for t in tokens(w):
                if t in words or t.startswith(prefixes):
                    bad.append((os.path.relpath(f, ROOT), w))
    assert not bad, (
        "the core names a ruleset (file, word): %s. What differs by ruleset goes into its "
        "module under firmware/referee/rules/ and reaches the core through the Ruleset class "
        "data and methods (rules/base.py; CONTRIBUTING.md, 'A new ruleset', step 2)" % bad
    )


def test_host_tools_import_no_ruleset_module():
    modules = ruleset_modules()
    assert set(RULESETS.values()) <= set(modules), "RULESETS names a module not in rules/"
    bad = []
    for f in sorted(glob.glob(os.path.join(ROOT, "host_tools", "**", "*.py"), recursive=True)):
        text = open(f).read()
        for mod in modules:
            if "rules." + mod in text or "rules import " + mod in text:
                bad.append((os.path.relpath(f, ROOT), mod))
    assert not bad, (
        "host tools import a ruleset's module (file, module): %s. They reach a ruleset by "
        "name through referee.rules.get(NAME) and its class data" % bad
    )


def test_a_ruleset_is_imported_only_when_a_game_uses_it():
    code = (
        "import sys; sys.path.insert(0, 'firmware')\n"
        "from referee import scenarios, rules\n"
        "from referee.app import Referee\n"
        "norm, raw = scenarios.load_text(open('firmware/rosters/squadrons-d6-example.json').read())\n"
        "print(sorted(m for m in sys.modules if m.startswith('referee.rules.')))\n"
    )
    out = python("-c", code)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "['referee.rules.base', 'referee.rules.squadrons_d6']"
