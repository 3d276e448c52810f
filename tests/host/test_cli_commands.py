"""The fleetref command list is built from the command modules' own declarations
(``COMMAND``, ``SUMMARY``, ``add_arguments``, ``main``; host_tools/cli.py): the commands stay
the same, and a module that declares a command is not left out of the list."""

import ast
import os

from support import ROOT
from host_tools import cli

COMMANDS = [
    "sim",
    "mirror",
    "demo",
    "flash",
    "save",
    "load",
    "roster",
    "wifi",
    "legend",
    "pictures",
    "web",
    "verify",
    "dicestats",
    "report",
    "replay",
    "publish",
    "dashboard",
    "tournament",
]


def test_the_commands_and_their_order_stay():
    # kept by hand on purpose: a command that appears, goes or moves in `fleetref --help`
    # is a change someone meant to make
    have = [c[0] for c in cli.commands()]
    new = [c for c in have if c not in COMMANDS]
    assert not new, (
        "new commands %s: add each to COMMANDS in tests/host/test_cli_commands.py at its "
        "module's place in COMMAND_MODULES (host_tools/cli.py); give it a DESCRIPTIONS entry "
        "in host_tools/helptexts.py and every argument `help=` or an ARG_HELP entry there "
        "(CONTRIBUTING.md, 'A host command')" % new
    )
    gone = [c for c in COMMANDS if c not in have]
    assert not gone, (
        "commands %s are gone from fleetref: if that is meant, drop them from COMMANDS in "
        "tests/host/test_cli_commands.py; else put their modules back in COMMAND_MODULES "
        "(host_tools/cli.py)" % gone
    )
    assert have == COMMANDS, (
        "the order of fleetref's commands changed: COMMAND_MODULES (host_tools/cli.py) gives "
        "%s; if that is meant, write it into COMMANDS in tests/host/test_cli_commands.py" % have
    )


def test_each_command_has_a_one_line_summary_and_callables():
    for name, summary, mod, add, run in cli.commands():
        assert summary and "\n" not in summary and len(summary) < 80, name
        assert callable(add) and callable(run), name
        assert mod.__name__ in cli.COMMAND_MODULES


def test_a_module_with_two_commands_gives_each_its_own_functions():
    by_name = {c[0]: c for c in cli.commands()}
    assert by_name["save"][2] is by_name["load"][2]
    assert by_name["save"][3] is not by_name["load"][3]
    assert by_name["save"][4].__name__ == "main_save"
    assert by_name["load"][4].__name__ == "main_load"


def test_every_module_declaring_a_command_is_listed():
    declaring = set()
    for d, _dirs, files in os.walk(os.path.join(ROOT, "host_tools")):
        for f in files:
            if not f.endswith(".py"):
                continue
            path = os.path.join(d, f)
            with open(path, encoding="utf-8") as fh:
                tree = ast.parse(fh.read())
            if any(
                isinstance(n, ast.Assign)
                and any(getattr(t, "id", None) == "COMMAND" for t in n.targets)
                for n in tree.body
            ):
                rel = os.path.relpath(path, ROOT)[:-3]
                declaring.add(rel.replace(os.sep, "."))
    missing = sorted(declaring - set(cli.COMMAND_MODULES))
    assert not missing, (
        "%s declare COMMAND but are not in COMMAND_MODULES in host_tools/cli.py: add each "
        "module path there (its place is the command's place in `fleetref --help`), and the "
        "command's name at the same place in COMMANDS in tests/host/test_cli_commands.py" % missing
    )
    stale = sorted(set(cli.COMMAND_MODULES) - declaring)
    assert not stale, (
        "COMMAND_MODULES in host_tools/cli.py names %s, which declare no COMMAND: drop them "
        "or declare COMMAND and SUMMARY there" % stale
    )
