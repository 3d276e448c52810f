"""The core names no ruleset: outside referee/rules/, no code of the firmware or the
host tools mentions a ruleset, its module, or one of its own event kinds or stats; a ruleset's
code is imported only when a game uses it."""

import ast
import glob
import os
import subprocess
import sys

from support import ROOT

FW = os.path.join(ROOT, "firmware", "referee")
NAMES = (
    "swsb",
    "smb",
    "squadrons",
    "xwing",
    "d6",
    "snub",
    "ion",
    "overlap",
    "broadside",
    "emperor",
    "cloak",
    "transport",
    "destroyer",
)


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
    files = glob.glob(os.path.join(FW, "*.py"))
    bad = []
    for f in files:
        for w in code_words(f):
            for t in tokens(w):
                if t in NAMES or t.startswith("swsb") or t.startswith("xwing"):
                    bad.append((os.path.relpath(f, ROOT), w))
    assert not bad, bad


def test_host_tools_import_no_ruleset_module():
    for f in glob.glob(os.path.join(ROOT, "host_tools", "**", "*.py"), recursive=True):
        text = open(f).read()
        for mod in ("swsb", "swsb_addon", "squadrons_d6", "xwing_overlap", "smb", "d20"):
            assert "rules." + mod not in text and "rules import " + mod not in text, f


def test_a_ruleset_is_imported_only_when_a_game_uses_it():
    code = (
        "import sys; sys.path.insert(0, 'firmware')\n"
        "from referee import scenarios, rules\n"
        "from referee.app import Referee\n"
        "norm, raw = scenarios.load_text(open('firmware/rosters/squadrons-d6-example.json').read())\n"
        "print(sorted(m for m in sys.modules if m.startswith('referee.rules.')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "['referee.rules.base', 'referee.rules.squadrons_d6']"
