"""`fleetref --help` and every command's help speak to players and organisers: no issue
numbers, no documentation markup of the code (:func:, :class:, :meth:), no class names of the
code, no source paths; every argument says what it is for; no two commands share a
description. The parsers are walked as `fleetref` builds them, sub-commands included, and
each help is also printed through the command line."""

import argparse
import ast
import os
import re

from support import ROOT
from support.process import cli
from host_tools.cli import parser


def code_class_names():
    """The CamelCase class names defined in the firmware and the host tools."""
    out = set()
    for top in ("firmware", "host_tools"):
        for d, _dirs, files in os.walk(os.path.join(ROOT, top)):
            for f in files:
                if f.endswith(".py"):
                    tree = ast.parse(open(os.path.join(d, f), encoding="utf-8").read())
                    out |= {
                        n.name
                        for n in ast.walk(tree)
                        if isinstance(n, ast.ClassDef) and re.search(r"[a-z][A-Z]", n.name)
                    }
    return out


def parsers(p, path=("fleetref",)):
    """(command path, parser) of ``p`` and of every sub-command under it."""
    yield path, p
    for a in p._actions:
        if isinstance(a, argparse._SubParsersAction):
            for name, sp in a.choices.items():
                yield from parsers(sp, path + (name,))


def test_every_help_speaks_of_behaviour_and_every_argument_has_one():
    classes = code_class_names()
    assert {"MirrorScreen", "SerialLink", "DiceLog"} <= classes  # the scan knows the code
    bad = []
    no_help = []
    descriptions = {}
    for path, p in parsers(parser()):
        if len(path) > 1:
            assert p.description, (
                "`%s` has no description: add its entry to DESCRIPTIONS in "
                "host_tools/helptexts.py" % " ".join(path)
            )
            descriptions.setdefault(p.description, []).append(" ".join(path))
        texts = [p.description or "", p.epilog or ""]
        for a in p._actions:
            if isinstance(a, argparse._HelpAction) or a.help == argparse.SUPPRESS:
                continue
            if not a.help:
                no_help.append((" ".join(path[1:]), a.dest))
            texts.append(a.help or "")
        for t in texts:
            for pat in (
                r"\bissues? #?\d+",
                r":(func|class|meth|mod):",
                r"host_tools",
                r"referee[/.]",
                r"\w+\.py\b",
                r"``",
            ):
                if re.search(pat, t, re.I):
                    bad.append((path, pat, t[:80]))
            for c in classes:
                if re.search(r"\b%s\b" % c, t):
                    bad.append((path, c, t[:80]))
    assert not no_help, (
        "arguments without a help text (command, dest): %s. Give each `help=` where "
        "add_argument declares it, or a (command, dest) entry in ARG_HELP in "
        "host_tools/helptexts.py" % no_help
    )
    assert not bad, (
        "help texts name the code instead of saying what it does (parser, pattern or class, "
        "text): %s. Reword them in host_tools/helptexts.py or where `help=` is given" % bad
    )
    shared = {d[:40]: who for d, who in descriptions.items() if len(who) > 1}
    assert not shared, (
        "commands share one description (its start: the commands): %s. Give each its own "
        "in DESCRIPTIONS in host_tools/helptexts.py" % shared
    )


def test_save_and_load_say_what_each_does_through_the_command_line():
    out = {}
    for cmd in ("save", "load"):
        r = cli(cmd, "--help", timeout=60)
        assert r.returncode == 0, r.stderr
        out[cmd] = r.stdout.split("\n\n")[1]  # the description, after the usage
    assert out["save"] != out["load"]
    assert "file" in out["save"].lower() and "back onto" in out["load"]
