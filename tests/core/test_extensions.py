"""The extensions (firmware/referee/extensions.py): the time banks and the verifiable dice
plug into the core through their declared hooks only. No core module names an extension's
module or functions (as tests/core/test_core_names_no_ruleset.py holds for rulesets), a game
without clocks never imports clock.py, and every extension's module defines the hooks of its
kind."""

import ast
import glob
import importlib
import json
import os

from support import ROOT
from support.process import python
from support.game import make_referee
from referee import extensions
from referee.events import EV_CLOCK

FW = os.path.join(ROOT, "firmware", "referee")
# read from the extensions' table (EXTENSIONS in firmware/referee/extensions.py)
MODULES = tuple(row[0] for row in extensions.EXTENSIONS)
SHORT = tuple(module.split(".")[-1] for module in MODULES)
EXTENSION_FILES = tuple(name + ".py" for name in SHORT) + ("extensions.py",)
# words an extension's module defines that are also the core's own ordinary names (a local
# ``text`` or ``left``, the link's own ``hexs``): the core may say them
SHARED_WORDS = ("text", "check", "left", "hexs")


def own_names(module):
    """The public functions, classes and hook values an extension's module defines at its
    top level (``settings_of``, ``Clock``, ``on_board``...)."""
    with open(os.path.join(FW, module.split(".")[-1] + ".py"), encoding="utf-8") as f:
        tree = ast.parse(f.read())
    out = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, ast.Assign):
            out.update(t.id for t in node.targets if isinstance(t, ast.Name) and t.id.islower())
    return {n for n in out if not n.startswith("_")}


# the extensions' own functions and classes, which the core reaches only through their hooks
EXTENSION_NAMES = tuple(sorted(set().union(*(own_names(m) for m in MODULES)) - set(SHARED_WORDS)))


def reach(path):
    """What a module's code names of the extensions: imports of their modules, their
    functions and classes by name, their module paths as strings."""
    tree = ast.parse(open(path).read())
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.module in MODULES:
                out.append("from %s import ..." % node.module)
            if node.module == "referee":
                out += ["referee." + a.name for a in node.names if a.name in SHORT]
        elif isinstance(node, ast.Import):
            out += [a.name for a in node.names if a.name in MODULES]
        elif isinstance(node, ast.Name) and node.id in EXTENSION_NAMES:
            out.append(node.id)
        elif isinstance(node, ast.Attribute) and node.attr == "clock_state":
            out.append(node.attr)
        elif isinstance(node, ast.Constant) and node.value in MODULES:
            out.append(node.value)
    return out


def test_the_names_checked_are_the_extensions_own():
    # the names the core called by name before the extensions plugged in are still looked for
    before = (
        "clock_of",
        "running_side",
        "used_by",
        "Clock",
        "fair_of",
        "stir",
        "on_board",
        "Fair",
    )
    assert set(before) <= set(EXTENSION_NAMES), sorted(set(before) - set(EXTENSION_NAMES))
    unused = [w for w in SHARED_WORDS if not any(w in own_names(m) for m in MODULES)]
    assert not unused, (
        "SHARED_WORDS in tests/core/test_extensions.py names %s, which no extension defines: "
        "drop them" % unused
    )


def test_no_core_module_names_an_extension():
    bad = []
    for f in sorted(glob.glob(os.path.join(FW, "*.py"))):
        if os.path.basename(f) in EXTENSION_FILES:
            continue
        bad += [(os.path.relpath(f, ROOT), w) for w in reach(f)]
    assert not bad, (
        "core modules name an extension (file, what): %s. The core reaches an extension only "
        "through its hooks and the table in firmware/referee/extensions.py (CONTRIBUTING.md, "
        "'An extension'); if a word is the core's own name that an extension happens to "
        "define too, add it to SHARED_WORDS in tests/core/test_extensions.py" % bad
    )


def test_reach_finds_what_it_looks_for(tmp_path):
    p = tmp_path / "m.py"
    p.write_text(
        "from referee.clock import clock_of\nfrom referee import dice\n"
        "def f(g, app):\n    return g.clock_state or fair_of(app) or __import__('referee.clock')\n"
    )
    assert sorted(reach(str(p))) == sorted(
        [
            "from referee.clock import ...",
            "referee.dice",
            "clock_state",
            "fair_of",
            "referee.clock",
        ]
    )


# the hooks an extension's module defines, by kind (firmware/referee/extensions.py docstring)
GAME_HOOKS = (
    "STATE_BYTES",
    "SETTINGS",
    "settings_of",
    "reset",
    "check",
    "apply",
    "end_round",
    "winner",
    "text",
    "view",
    "live_view",
    "before_submit",
    "after_submit",
    "hello_fields",
    "draw",
    "poll",
    "command",
)
BOARD_HOOKS = (
    "on_board",
    "stir",
    "physical",
    "game_fields",
    "hello_fields",
    "after_event",
    "command",
)


def test_every_extension_defines_the_hooks_of_its_kind():
    doc = extensions.__doc__ or ""
    for row in extensions.EXTENSIONS:
        m = importlib.import_module(row[0])
        hooks = BOARD_HOOKS if row[1] is None else GAME_HOOKS
        kind = "board" if row[1] is None else "game"
        missing = [h for h in hooks if not hasattr(m, h)]
        assert not missing, (
            "%s, a %s extension, does not define the hooks %s: define each (a hook it does not "
            "need is a function that does nothing; CONTRIBUTING.md, 'An extension', step 1)"
            % (row[0], kind, missing)
        )
        unsaid = [h for h in hooks if "``%s" % h not in doc]
        assert not unsaid, (
            "firmware/referee/extensions.py's docstring does not list the %s hooks %s"
            % (kind, unsaid)
        )


def test_each_kind_command_and_action_has_one_owner():
    from referee import pad
    from referee.link import COMMANDS

    for col in (3, 4):  # event kinds; serial commands and pad actions
        names = [n for row in extensions.EXTENSIONS for n in row[col]]
        assert len(names) == len(set(names))
    names = [n for row in extensions.EXTENSIONS for n in row[4]]
    assert not set(names) & set(COMMANDS)  # the core's commands and the extensions' are apart
    assert {"clock", "reveal"} <= set(names) & set(pad.ACTIONS)  # the pad's keys reach them
    i = pad.ACTIONS.index("clock")
    assert pad.HANDLERS[i] == pad.HANDLERS[pad.ACTIONS.index("reveal")] == "_extension"


IMPORTS = (
    "import sys, json; sys.path[:0] = ['firmware', 'tests']\n"
    "from support.game import make_referee\n"
    "app, out = make_referee('swsb-example')\n"
    "for line in ({'c': 'hello'}, {'c': 'roll'}, {'c': 'snap'}, {'c': 'clock'}, {'c': 'phase'},"
    " {'c': 'append', 'events': [[40, 0, 5, 0]]}):\n"
    "    app.link.handle_line(json.dumps(line))\n"
    "app.pad.key('clock')\n"
    "from referee.views import event_text\n"
    "app.game.snapshot(); event_text(app.game, app.game.event(1))\n"
    "print('referee.clock' in sys.modules, app.game.extensions)\n"
    "app.link.handle_line(json.dumps({'c': 'load', 'scenario': 'swsb-example',"
    " 'settings': {'clock_s': 600}}))\n"
    "print('referee.clock' in sys.modules, [m.__name__ for m in app.game.extensions])\n"
)


def test_a_game_without_clocks_imports_no_clock_module():
    out = python("-c", IMPORTS)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["False ()", "True ['referee.clock']"]


def test_an_extension_that_is_off_says_so_and_changes_nothing():
    # every event kind, serial command and pad action of the table, refused with its off line
    from referee import pad

    app, out = make_referee("swsb-example")
    h = app.game.state_hash()
    for row in extensions.EXTENSIONS:
        said = row[6]
        lines = [{"c": "append", "events": [[kind, 0, 5, 0]]} for kind in row[3]]
        lines += [{"c": name} for name in row[4]]
        for line in lines:
            app.link.handle_line(json.dumps(line))
            msg = json.loads(out[-1])
            assert msg["t"] == "err" and said in msg["msg"], (
                "%s while %s is off: the board must answer one err line with the table's off "
                "line %r, and said %r" % (line, row[0], said, msg)
            )
        for key in (name for name in row[4] if name in pad.ACTIONS):
            shown = app.pad.key(key)
            assert said in shown, "pad action %r while %s is off shows %r, not %r" % (
                key,
                row[0],
                shown,
                said,
            )
    assert app.game.seq == 0 and app.game.state_hash() == h and app.game.ext_state == bytearray()
